package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// Costs of the widget actions on a static local page: go test -bench
// 'Widget' -run '^$' ./browser/ (ns/op is the mean; the machine is shared).
func BenchmarkWidget(b *testing.B) {
	ctx := context.Background()
	url := serveBench(b, `<title>Bench</title><button onclick="document.getElementById('n').textContent++">Add</button><span id=n>0</span>
<div id=pad style="width:300px;height:200px;background:#eee"></div><p id=para>The quick brown fox jumps over the lazy dog.</p>`)
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
		b.Fatal(err)
	}
	run := func(name string, a contract.Action) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				c, cancel := context.WithTimeout(ctx, 10*time.Second)
				if _, err := shared.Do(c, a); err != nil {
					cancel()
					b.Fatal(err)
				}
				cancel()
			}
		})
	}
	run("mouse_click", contract.Action{Name: contract.ActMouse, At: &contract.Point{X: 100, Y: 100}})
	run("mouse_hover", contract.Action{Name: contract.ActMouse, Op: contract.MouseHover, At: &contract.Point{X: 120, Y: 110}})
	run("mouse_path_3pts", contract.Action{Name: contract.ActMousePath, Path: []contract.Point{{X: 20, Y: 40}, {X: 100, Y: 40}, {X: 100, Y: 120}}})
	b.Run("page_state", func(b *testing.B) {
		for b.Loop() {
			if _, err := shared.PageState(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// serveBench serves one page at / for a benchmark.
func serveBench(b *testing.B, body string) string {
	b.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	b.Cleanup(srv.Close)
	return srv.URL + "/"
}
