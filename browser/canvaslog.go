package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// canvasLogJS runs in every frame of a tab before the page's own scripts.
// It wraps the drawing methods of CanvasRenderingContext2D.prototype to
// record, per canvas, in a WeakMap under a registered symbol, what the page
// draws: texts, rectangles, circles, lines, paths and images, with their
// colours and boxes in the canvas's pixels. The snapshot walker lists them
// under the canvas's line (js/canvasDrawn.js), so that a model reads a
// canvas game's score or finds its red circle without a screenshot.
//
// The log is bounded (the latest few hundred entries of a canvas, emptied
// when the whole canvas is cleared or resized), costs a few arithmetic
// operations per drawing call, and the wrappers keep the originals' name,
// length and toString and never throw into the page, which draws as
// before.
var canvasLogJS = program("canvasLog")

// watchCanvas installs canvasLogJS in the tab's frames, for every document
// loaded from now on.
func watchCanvas(ctx context.Context, t cdp.Session) error {
	if _, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: jsCall(canvasLogJS)}); err != nil {
		return fmt.Errorf("installing the canvas log: %w", err)
	}
	return nil
}
