package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// nativePage has a button at (100, 100)-(300, 150) of a 1280x800 viewport.
const nativePage = `<!doctype html><title>Native</title><style>body{margin:0} button{position:absolute;left:100px;top:100px;width:200px;height:50px}</style>
<form onsubmit="return false"><button onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Place order</button></form>
<p style="margin-top:200px">` + "Text. " + `</p>`

// BenchmarkNativeAction measures what a vendor's computer tool adds to a
// click at a point: the hit test the policy asks for (DescribeTarget at
// the point, as the agent does before a coordinate click under a policy),
// the screenshot each result returns (ScreenshotCSS), and the whole
// action, hit test, click and screenshot, with the median besides the
// mean (go test -run '^$' -bench NativeAction -benchtime 50x ./browser/).
func BenchmarkNativeAction(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, nativePage)
	}))
	defer srv.Close()
	ctx := b.Context()
	if _, err := shared.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL + "/"}); err != nil {
		b.Fatal(err)
	}
	click := contract.Action{Name: contract.ActMouse, Op: contract.MouseClick, At: &contract.Point{X: 200, Y: 125}}
	hit := func() error {
		t, err := shared.DescribeTarget(ctx, click)
		if err == nil && t.Name != "Place order" {
			err = fmt.Errorf("the point is on %s %q", t.Role, t.Name)
		}
		return err
	}
	shot := func() error { _, err := shared.ScreenshotCSS(ctx, nil, 0, 0); return err }
	cases := []struct {
		name string
		run  func() error
	}{
		{"hit-test", hit},
		{"screenshot", shot},
		{"click", func() error { _, err := shared.Do(ctx, click); return err }},
		{"hit-test+click+screenshot", func() error {
			if err := hit(); err != nil {
				return err
			}
			if _, err := shared.Do(ctx, click); err != nil {
				return err
			}
			return shot()
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				t0 := time.Now()
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(t0))
			}
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
		})
	}
}
