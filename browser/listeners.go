package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// listenersJS runs in every frame of a tab before the page's own scripts. It
// wraps EventTarget.prototype.addEventListener to remember, in a WeakSet
// under a registered symbol, the elements that got a listener for an event
// a person triggers with the pointer or the keyboard. The snapshot walker
// gives such elements a ref even when nothing else marks them as
// actionable (a span made clickable by addEventListener or jQuery's .on).
//
// Elements that got a listener for drops (drop, dragover, dragenter) are
// remembered in a second WeakSet: the walker shows them as drop targets.
//
// It keeps the target of the latest trusted click of the window under a
// third symbol (see clickElement).
//
// It also notes, under two more symbols, whether any listener for pointer
// motion (mousemove, pointermove, pointerrawupdate) or for keys (keydown,
// keypress, keyup) was added anywhere in the document, window included: a
// click sends its mouse move, which costs a frame, only where the page can
// see one (see aimed), and type sends key events one by one only where the
// page can see them (see doType).
//
// Measured against the alternative, one DOMDebugger.getEventListeners call
// per candidate element, this costs nothing at snapshot time: the walker
// asks a WeakSet. The wrapper keeps the original's name, length and
// toString, so that pages that inspect it see no difference, and never
// throws into the page.
var listenersJS = program("listeners")

// watchListeners installs listenersJS in the tab's frames, for every
// document loaded from now on.
func watchListeners(ctx context.Context, t cdp.Session) error {
	_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: jsCall(listenersJS, pageBinding)})
	return err
}
