package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
)

var (
	_ contract.Screenshotter = (*Browser)(nil)
)

// Eval evaluates a JavaScript expression in the current page's main frame
// and returns its value decoded from JSON (nil, bool, float64, string,
// []any, map[string]any). A promise is awaited. An exception thrown by the
// expression is an error carrying its text. Like Do, Eval waits for a
// navigation in progress to commit, and returns promptly when ctx ends.
func (b *Browser) Eval(ctx context.Context, expr string) (any, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer o.end()
	v, err := b.evalAny(o, expr)
	return v, o.fail("eval", err)
}

// Screenshot captures the viewport of the current page as a PNG.
func (b *Browser) Screenshot(ctx context.Context) ([]byte, error) {
	return b.capture(ctx, func(o *op) ([]byte, error) {
		res, err := cdp.Call(o.ctx, b.target, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
		if err != nil {
			return nil, err
		}
		return res.Data, nil
	})
}

// capture runs a screenshot call once the page's navigation in flight, if
// any, has committed.
func (b *Browser) capture(ctx context.Context, shoot func(o *op) ([]byte, error)) ([]byte, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer o.end()
	if _, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.pending == "" }); err != nil {
		o.stopLoading = true
		return nil, o.fail("screenshot", err)
	}
	data, err := shoot(o)
	if err != nil {
		return nil, o.fail("screenshot", err)
	}
	return data, nil
}
