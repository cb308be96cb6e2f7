package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// ScreenshotJPEG captures the viewport as a JPEG at most maxWidth pixels
// wide, encoded by Chromium itself: for traces, where converting a PNG in Go
// would cost more than the step it records.
func (b *Browser) ScreenshotJPEG(ctx context.Context, maxWidth, quality int) ([]byte, error) {
	return b.capture(ctx, func(o *op) ([]byte, error) { return b.jpeg(o, maxWidth, quality) })
}

func (b *Browser) jpeg(o *op, maxWidth, quality int) ([]byte, error) {
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
