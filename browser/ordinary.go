package browser

import (
	"context"
	"fmt"

	"github.com/webagent/webagent/browser/launcher"
)

// An ordinary browser: what a launched Chromium shows a page is what a
// person's Chromium with a window shows, not the tells of a headless or
// automated one. The tells are fixed where Chromium makes them, with its
// switches, so that the top page, its frames (of other sites too, which
// run in processes of their own) and its workers all agree:
//
//   - the user agent says Chrome, not HeadlessChrome (--user-agent, the
//     binary's own version; Options.UserAgent still wins); the
//     low-entropy client hints (navigator.userAgentData.brands) already
//     name Chromium, not HeadlessChrome, in the new headless mode;
//   - navigator.webdriver is false (launcher.BrowserFlags: no
//     enable-automation, no AutomationControlled);
//   - plugins, MIME types, window.chrome and the permission answers are
//     those of the whole browser, which the new headless mode runs;
//   - the screen is larger than the window, and the window a little
//     taller than the page, by a browser's tab strip and toolbar.
//
// A browser attached to with Options.CDPURL is left as it is. The WebGL
// renderer is the machine's own: on a server without a GPU it names
// SwiftShader, as a person's Chromium on that machine would. Chromium
// answers no high-entropy client hints (getHighEntropyValues'
// fullVersionList, architecture) once --user-agent is given: a site that
// asks for them can tell.

// toolbarHeight is how much taller than its page a headless window is
// made: about the tab strip and toolbar of Chromium on a desktop, so that
// outerHeight exceeds innerHeight as with a window.
const toolbarHeight = 87

// The smallest screen a headless browser gets: a common desktop's.
const (
	screenWidth  = 1920
	screenHeight = 1080
)

// ordinaryFlags are the switches that make a launched browser an ordinary
// one, for the Options (with their viewport set). A user agent Chromium's
// version cannot be read for is left as Chromium's own, logged: the start
// that follows says what is wrong with the binary.
func (b *Browser) ordinaryFlags(ctx context.Context) map[string]any {
	o := b.opts
	f := map[string]any{}
	if o.UserAgent == "" {
		ua, err := launcher.OrdinaryUserAgent(ctx, o.ChromePath)
		if err != nil {
			b.log.Debug("reading the browser's version for its user agent", "error", err)
		} else {
			f["user-agent"] = ua
		}
	}
	w, h := o.Width, o.Height+toolbarHeight
	f["window-size"] = fmt.Sprintf("%d,%d", w, h)
	if !o.Headful {
		// A window's screen is its display's.
		f["screen-info"] = fmt.Sprintf("{%dx%d}", max(w, screenWidth), max(h, screenHeight))
	}
	return f
}
