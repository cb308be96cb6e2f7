package liveview_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/testfixture/chrometest"
)

// chrome is the Chromium of this package's tests: the browser the agent
// drives and, in other tabs, the viewers' pages.
var chrome chrometest.Shared

func TestMain(m *testing.M) { os.Exit(chrome.Run(m)) }

// viewer opens url in a tab of the shared Chromium, as a person's browser
// would, and returns the tab's context; the tab closes when t ends.
func viewer(t *testing.T, url string) context.Context {
	t.Helper()
	actx, cancelA := remote.NewAllocator(context.Background(), chrome.URL(t))
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelA()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	rctx, rcancel := context.WithTimeout(ctx, 30*time.Second)
	defer rcancel()
	if err := chromedp.Do(rctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening the view: %v", err)
	}
	return ctx
}

// waitJS waits, within d, until the expression is true in the viewer.
func waitJS(t *testing.T, ctx context.Context, expr string, d time.Duration) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	js := fmt.Sprintf(`new Promise((ok) => { const f = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(f, 20); }; f(); })`, expr)
	if _, err := chromedp.Run(wctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("waiting in the viewer for %s: %v\n%s", expr, err, body)
	}
}

// eval runs expr in the viewer and returns its value.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ectx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// click clicks the viewer's element (a person's mouse, trusted input).
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s in the viewer: %v", sel, err)
	}
}

// clickScreen clicks the viewer's screen where the page's point (x, y)
// shows.
func clickScreen(t *testing.T, ctx context.Context, x, y float64) {
	t.Helper()
	pt := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const r = document.getElementById('screen').getBoundingClientRect();
		const f = window.__lv.lastFrame; return [r.left + %g * r.width / f.w, r.top + %g * r.height / f.h]; })()`, x, y))
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.MouseClickXY(pt[0], pt[1])); err != nil {
		t.Fatal(err)
	}
}

// typeKeys types s with the viewer's keyboard.
func typeKeys(t *testing.T, ctx context.Context, s string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.KeyEvent(s)); err != nil {
		t.Fatal(err)
	}
}

// serve starts a live view server for t.
func serve(t *testing.T, cfg liveview.Config) *liveview.Server {
	t.Helper()
	srv, err := liveview.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Close(ctx); err != nil {
			t.Errorf("closing the server: %v", err)
		}
	})
	return srv
}
