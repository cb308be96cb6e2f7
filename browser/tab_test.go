package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/webagent/webagent/contract"
)

// A tab closed by another DevTools client (or by its user in a headful
// browser) is noticed by the next call, which goes on in another tab, says
// so, and reports the change of page as a navigation: the refs the model
// holds are gone.
func TestTabClosedFromOutside(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, err := StartServer(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	b, err := Launch(ctx, Options{CDPURL: srv.URL, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	url := servePage(t, `<title>X</title><p>hello</p>`)
	open(t, b, url)
	dead := b.cur.dead
	actx, c1 := remote.NewAllocator(ctx, srv.URL)
	defer c1()
	bctx, c2 := chromedp.NewContext(actx)
	defer c2()
	infos, err := chromedp.Targets(bctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range infos {
		if ti.Type == "page" && strings.HasPrefix(ti.URL, url) {
			tctx, cancelTab := chromedp.NewContext(bctx, chromedp.WithTargetID(ti.TargetID))
			if err := chromedp.Do(tctx); err != nil {
				t.Fatal(err)
			}
			cancelTab()
		}
	}
	// The close reaches b on its own connection: the call is made once b
	// has seen it (a call racing the close fails with "the tab was closed"
	// and switches tabs all the same).
	select {
	case <-dead.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the browser did not see its tab close within 5 s")
	}
	start := time.Now()
	dctx, c3 := context.WithTimeout(ctx, 10*time.Second)
	defer c3()
	out, err := b.Do(dctx, contract.Action{Name: contract.ActScroll, Direction: "down"})
	if err != nil || !strings.Contains(out.Text, "was closed; switched to tab") || !out.Navigated {
		t.Fatalf("scroll after the tab was closed: %+v, %v; want it to say the tab was closed, and Navigated", out, err)
	}
	within(t, "the call after the tab closed", time.Since(start), 0, 5*time.Second)
	if _, err := b.Snapshot(dctx); err != nil {
		t.Fatalf("snapshot in the other tab: %v", err)
	}
}
