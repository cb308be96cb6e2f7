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

// ScreenshotJPEG captures the viewport as a JPEG at most maxWidth pixels
// wide, encoded by Chromium itself: for traces, where converting a PNG in Go
// would cost more than the step it records.
func (b *Browser) ScreenshotJPEG(ctx context.Context, maxWidth, quality int) ([]byte, error) {
	return b.capture(ctx, func(o *op) ([]byte, error) { return o.jpeg(maxWidth, quality) })
}

// jpeg captures the visual viewport as a JPEG of at most maxWidth pixels.
func (o *op) jpeg(maxWidth, quality int) ([]byte, error) {
	b := o.b
	lm, err := cdp.Call(o.ctx, b.target, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	// The clip is in CSS pixels of the document: the visual viewport where
	// it is scrolled to.
	clip := page.Viewport{Width: float64(b.width), Height: float64(b.height), Scale: 1}
	if v := lm.CSSVisualViewport; v != nil && v.ClientWidth > 0 {
		clip.X, clip.Y, clip.Width, clip.Height = v.PageX, v.PageY, v.ClientWidth, v.ClientHeight
	}
	if maxWidth > 0 && clip.Width > float64(maxWidth) {
		clip.Scale = float64(maxWidth) / clip.Width
	}
	q := int64(quality)
	res, err := cdp.Call(o.ctx, b.target, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format: page.CaptureScreenshotFormatJpeg, Quality: &q, Clip: &clip, OptimizeForSpeed: new(true),
	})
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}
