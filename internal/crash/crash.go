// Package crash crashes a browser tab from outside, as a fault to recover
// from: for the eval harness's fault runs and the agent's fault tests.
package crash

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Tab sends Page.crash, through the browser's DevTools address cdpURL, to
// the page target whose URL starts with prefix. The tab stays open,
// crashed: this client detaches from it instead of closing it.
func Tab(ctx context.Context, cdpURL, prefix string) error {
	if cdpURL == "" {
		return errors.New("no DevTools address to crash the tab through")
	}
	actx, cancelAlloc := remote.NewAllocator(ctx, cdpURL)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	infos, err := chromedp.Targets(bctx)
	if err != nil {
		return err
	}
	for _, ti := range infos {
		if ti.Type != "page" || !strings.HasPrefix(ti.URL, prefix) {
			continue
		}
		// Detach on cancel: cancelling would close the crashed tab too.
		tctx, cancelTab := chromedp.NewContext(bctx, chromedp.WithTargetID(ti.TargetID), chromedp.WithDetachOnCancel())
		defer cancelTab()
		// The renderer dies before it can answer: the call is not waited
		// for long.
		_, err := chromedp.Run(tctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
			cctx, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			_, err := cdp.Call(cctx, t, page.Crash, cdp.Empty{})
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				err = nil
			}
			return cdp.Empty{}, err
		})
		return err
	}
	return fmt.Errorf("no tab at %s", prefix)
}
