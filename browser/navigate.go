package browser

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"github.com/webagent/webagent/agent"
)

// The actions that load pages, and the waits for the navigations that other
// actions cause.

// inputGrace is how long after a click or key press a navigation may still
// start and be waited for. It never fails: most clicks navigate at once or
// not at all.
const inputGrace = 100 * time.Millisecond

func (b *Browser) doGoto(o *op, raw string) (string, error) {
	u, err := normalizeURL(raw)
	if err != nil {
		return "", err
	}
	return b.navigate(o, u)
}

// navigate loads u in the tab and waits for the new document to be ready,
// and briefly for its load event.
func (b *Browser) navigate(o *op, u string) (string, error) {
	s0 := b.nav.state()
	res, err := cdp.Call(o.ctx, b.target, page.Navigate, page.NavigateParams{URL: u})
	switch {
	case err != nil && o.ctx.Err() != nil:
		o.stopLoading = true
		return "", err
	case err != nil && isProtocolError(err):
		return "", agent.ActionErrorf("cannot open %s: %v", u, err)
	case err != nil:
		return "", err
	case res.IsDownload:
		return fmt.Sprintf("%s is a file download: it is saved to %s and reported when complete", u, b.downloads.folder()), nil
	case res.ErrorText != "":
		return "", agent.ActionErrorf("could not load %s: %s", u, res.ErrorText)
	}
	if res.LoaderID != "" {
		// Wait to see the navigation start, then for its document.
		if _, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.started > s0.started }); err != nil {
			o.stopLoading = true
			return "", err
		}
	}
	if err := b.nav.settle(o.ctx); err != nil {
		o.stopLoading = true
		return "", err
	}
	return b.navigated(o)
}

// normalizeURL checks a URL from the model; one without a scheme gets
// https://.
func normalizeURL(raw string) (string, error) {
	u := strings.TrimSpace(raw)
	if u == "" {
		return "", agent.ActionErrorf("goto needs a URL")
	}
	lower := strings.ToLower(u)
	if !strings.Contains(lower, "://") {
		known := false
		for _, p := range []string{"about:", "data:", "javascript:", "blob:", "chrome:"} {
			known = known || strings.HasPrefix(lower, p)
		}
		if !known {
			u = "https://" + u
		}
	}
	if _, err := url.Parse(u); err != nil {
		return "", agent.ActionErrorf("%q is not a valid URL: %v", raw, err)
	}
	return u, nil
}

// navigated describes the page after a navigation.
func (b *Browser) navigated(o *op) (string, error) {
	var v [2]string
	if err := b.evalValue(o, "[location.href, document.title]", &v); err != nil {
		if o.ctx.Err() != nil {
			return "", err
		}
		return "navigated to " + b.nav.state().url, nil
	}
	return fmt.Sprintf("navigated to %s (%s)", v[0], strconv.Quote(v[1])), nil
}

// afterInput waits, after a click or key press, for a navigation that it
// started: up to grace to see one start, then for its document. A new tab
// it opened becomes a tab of the Browser, and the current one.
func (b *Browser) afterInput(o *op, s0 navState, grace time.Duration) (string, error) {
	moved, err := b.nav.wait(o.ctx, grace, func(s navState) bool { return s.moved(s0) || s.opened(s0) })
	if err != nil || !moved {
		return "", err
	}
	if s := b.nav.state(); s.opened(s0) && !s.moved(s0) {
		return b.followPopup(o)
	}
	if err := b.nav.settle(o.ctx); err != nil {
		o.stopLoading = true
		return "", err
	}
	nav, err := b.navigated(o)
	if err != nil {
		return "", err
	}
	return "; " + nav, nil
}

// followPopup takes in the new tab the current tab opened, switches to it
// and waits for its page.
func (b *Browser) followPopup(o *op) (string, error) {
	// window.open starts at about:blank and then navigates; give it a moment.
	hasURL := func(s navState) bool { return s.popup.url != "" && s.popup.url != "about:blank" }
	if _, err := b.nav.wait(o.ctx, settleLoad, hasURL); err != nil {
		return "", err
	}
	p := b.nav.state().popup
	if t := b.tabByTarget(p.id); t != nil {
		return "; it opened tab " + t.id + ", which was open already", nil
	}
	t, err := b.adopt(o.ctx, b.sess, p.id, b.nextTabID())
	if err != nil {
		if o.ctx.Err() != nil {
			return "", err
		}
		return "; it opened a new tab, which could not be attached: " + err.Error(), nil
	}
	b.tabs = append(b.tabs, t)
	b.setCurrent(t)
	out := fmt.Sprintf("; it opened a new tab %s; switched to it (tabs lists the tabs, and switches back)", t.id)
	if p.url == "" || p.url == "about:blank" {
		return out + ": an empty page", nil
	}
	// The tab may have been attached before its page committed.
	loaded := func(s navState) bool { return s.url != "" && s.url != "about:blank" && s.ready() }
	if _, err := t.nav.wait(o.ctx, 2*settleLoad, loaded); err != nil {
		o.stopLoading = true
		return "", err
	}
	if err := t.nav.settle(o.ctx); err != nil {
		o.stopLoading = true
		return "", err
	}
	nav, err := b.navigated(o)
	if err != nil {
		return "", err
	}
	return out + ": " + nav, nil
}

// tabByTarget returns our tab of the target, or nil.
func (b *Browser) tabByTarget(id target.ID) *tab {
	for _, t := range b.tabs {
		if t.target.TargetID == id {
			return t
		}
	}
	return nil
}

func (b *Browser) doBack(o *op) (string, error) { return b.history(o, -1) }

func (b *Browser) doForward(o *op) (string, error) { return b.history(o, +1) }

// history moves step entries back (-1) or forward (+1) in the tab's
// history and waits for the page as after any input.
func (b *Browser) history(o *op, step int) (string, error) {
	h, err := cdp.Call(o.ctx, b.target, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return "", err
	}
	i, j := int(h.CurrentIndex), int(h.CurrentIndex)+step
	switch {
	case step < 0 && (j < 0 || i >= len(h.Entries) || (j == 0 && h.Entries[0].URL == "about:blank")):
		return "", agent.ActionErrorf("there is no previous page to go back to")
	case step > 0 && (i < 0 || j >= len(h.Entries)):
		return "", agent.ActionErrorf("there is no next page to go forward to")
	}
	s0 := b.nav.state()
	if _, err := cdp.Call(o.ctx, b.target, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[j].ID}); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, settleLoad)
	if err != nil {
		return "", err
	}
	if nav == "" {
		n, err := b.navigated(o)
		if err != nil {
			return "", err
		}
		nav = "; " + n
	}
	if step < 0 {
		return "went back" + nav, nil
	}
	return "went forward" + nav, nil
}
