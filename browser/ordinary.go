package browser

import (
	"context"
	"fmt"
	"log/slog"

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
//     name Chromium, not HeadlessChrome, in the new headless mode, and
//     each tab is given back the high-entropy ones the switch takes away
//     (clienthints.go);
//   - navigator.webdriver is false (launcher.BrowserFlags: no
//     enable-automation, no AutomationControlled);
//   - plugins, MIME types, window.chrome and the permission answers are
//     those of the whole browser, which the new headless mode runs;
//   - the screen is larger than the window, and the window a little
//     taller than the page, by a browser's tab strip and toolbar.
//
// A Server (StartServer) is as ordinary, but the tabs of a Browser
// attached to it keep the low-entropy client hints only. A browser
// attached to with Options.CDPURL is otherwise left as it is. The WebGL
// renderer is the machine's own, never made up: a browser with a window
// uses the machine's GPU (no --disable-gpu); on a server without one,
// Chromium draws with SwiftShader and says so, as a person's Chromium on
// that machine would. Replacing the name with a script would reach the
// page but not its workers, and a renderer that differs between the two
// is a surer tell than SwiftShader.

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
// one, for the Options (with their viewport set), and what its tabs' client
// hints are made of. A user agent Chromium's version cannot be read for is
// left as Chromium's own, logged: the start that follows says what is
// wrong with the binary.
func ordinaryFlags(ctx context.Context, o Options, log *slog.Logger) (map[string]any, uaHints) {
	f := map[string]any{}
	var hints uaHints
	if o.UserAgent == "" {
		ua, err := launcher.OrdinaryUserAgent(ctx, o.ChromePath)
		if err != nil {
			log.Debug("reading the browser's version for its user agent", "error", err)
		} else {
			f["user-agent"] = ua
			v, _ := launcher.BrowserVersion(ctx, o.ChromePath) // read by OrdinaryUserAgent
			hints = uaHints{ua: ua, version: v}
		}
	}
	w, h := o.Width, o.Height+toolbarHeight
	f["window-size"] = fmt.Sprintf("%d,%d", w, h)
	if !o.Headful {
		// A window's screen is its display's.
		f["screen-info"] = fmt.Sprintf("{%dx%d}", max(w, screenWidth), max(h, screenHeight))
	}
	return f, hints
}
