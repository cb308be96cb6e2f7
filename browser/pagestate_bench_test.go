package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// BenchmarkPageState measures the page fingerprint the loop takes before
// each action, on a page of 300 SVG shapes (the most it reads), 20 canvases
// (the most it reads) and 2,000 paragraphs (run with go test -bench
// PageState -run '^$' ./browser/).
func BenchmarkPageState(b *testing.B) {
	var page strings.Builder
	page.WriteString(`<!doctype html><title>State</title><svg width=600 height=400>`)
	for i := range 300 {
		fmt.Fprintf(&page, `<circle cx="%d" cy="%d" r="5" fill="red"/>`, 10+i%30*19, 10+i/30*19)
	}
	page.WriteString(`</svg>`)
	for range 20 {
		page.WriteString(`<canvas width=300 height=150></canvas>`)
	}
	for i := range 2000 {
		fmt.Fprintf(&page, `<p>paragraph %d</p>`, i)
	}
	page.WriteString(`<script>for (const c of document.querySelectorAll('canvas')) { const g = c.getContext('2d'); g.fillStyle = 'blue'; g.fillRect(10, 10, 100, 50); }</script>`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page.String())
	}))
	defer srv.Close()
	ctx := b.Context()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/"}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := shared.PageState(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
