package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/botauth"
	"github.com/webagent/webagent/contract"
)

// BenchmarkPageLoad measures a goto to a page with 40 images, 10 scripts
// and 10 fetches from its own host (nothing cached), until every one of
// them has arrived, under the navigation policy a run sets (the start
// URL's host named, the private network guard on); read-only, every one
// of those 61 requests also pauses in the interceptor; signed, each pauses
// to be signed (Web Bot Auth).
// go test -run '^$' -bench PageLoad -benchtime 30x ./browser/
func BenchmarkPageLoad(b *testing.B) {
	b.Run("default", func(b *testing.B) { benchPageLoad(b, shared) })
	b.Run("read-only", func(b *testing.B) {
		ctx, cancel := context.WithTimeout(b.Context(), 30*time.Second)
		ro, err := Launch(ctx, Options{ReadOnly: true})
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		defer ro.Close()
		benchPageLoad(b, ro)
	})
	b.Run("signed", func(b *testing.B) {
		key, err := botauth.NewKey(nil)
		if err != nil {
			b.Fatal(err)
		}
		signer, err := botauth.NewSigner(key, botauth.SignerOptions{SignatureAgent: "https://bot.example.com"})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(b.Context(), 30*time.Second)
		sb, err := Launch(ctx, Options{Signer: signer})
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		defer sb.Close()
		benchPageLoad(b, sb)
	})
}

func benchPageLoad(b *testing.B, br *Browser) {
	var page strings.Builder
	page.WriteString(`<!doctype html><title>Load</title><p>many parts</p>`)
	for i := range 40 {
		fmt.Fprintf(&page, `<img src="/img/%d.svg" width=8 height=8>`, i)
	}
	for i := range 10 {
		fmt.Fprintf(&page, `<script src="/js/%d.js"></script>`, i)
	}
	page.WriteString(`<script>window.fetched = Promise.all(Array.from({length: 10}, (_, i) => fetch("/data/" + i + "?" + Math.random()).then(r => r.text())));</script>`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch {
		case strings.HasPrefix(r.URL.Path, "/img/"):
			w.Header().Set("Content-Type", "image/svg+xml")
			fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>`)
		case strings.HasPrefix(r.URL.Path, "/js/"):
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `window.n = (window.n || 0) + 1;`)
		case strings.HasPrefix(r.URL.Path, "/data/"):
			fmt.Fprint(w, strings.Repeat("x", 2000))
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page.String())
		}
	}))
	defer srv.Close()
	ctx := b.Context()
	if err := br.Confine(contract.NavigationPolicy{Trusted: []string{"127.0.0.1"}}); err != nil {
		b.Fatal(err)
	}
	defer br.Confine(contract.NavigationPolicy{AllowPrivateNetwork: true})
	wait := `(async () => { await window.fetched; await new Promise(r => document.readyState === "complete" ? r() : addEventListener("load", r)); return document.images.length + window.n; })()`
	var ms []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := br.Do(ctx, contract.Action{Name: contract.ActGoto, URL: fmt.Sprintf("%s/?%d", srv.URL, i)}); err != nil {
			b.Fatal(err)
		}
		v, err := br.Eval(ctx, wait)
		if err != nil || v != float64(50) {
			b.Fatalf("page: %v %v", v, err)
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
	}
	b.StopTimer()
	sort.Float64s(ms)
	b.ReportMetric(ms[len(ms)/2], "median-ms")
}
