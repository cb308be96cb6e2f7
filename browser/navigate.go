package browser

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"github.com/webagent/webagent/contract"
)

// The actions that load pages, and the waits for the navigations that other
// actions cause.

// inputGrace bounds the wait, after a click or key press, for the page to
// run what the input queued (a form submission asks for its navigation in
// a task of its own). The page answers at once unless its main thread is
// busy; the wait never fails, and a navigation asked for later is still
// seen by the next snapshot.
const inputGrace = time.Second

// inputProbe is evaluated in the page after an input: it resolves once the
// tasks the input queued, and the ones they queued, have run.
var inputProbeJS = program("inputProbe")

func (b *Browser) doGoto(o *op, raw string) (string, error) {
	u, err := normalizeURL(raw)
	if err != nil {
		return "", err
	}
	if why := b.guard.check(o.ctx, u, true); why != "" { // navpolicy.go
		return "", contract.ActionErrorf("goto %s was refused: %s", shortURL(u), why)
	}
	return b.navigate(o, u)
}

// navigate loads u in the tab and waits for the new document to be ready,
// and briefly for its load event.
func (b *Browser) navigate(o *op, u string) (string, error) {
	s0 := b.nav.state()
	res, err := cdp.Call(o.ctx, b.target, page.Navigate, page.NavigateParams{URL: u})
	refusal := ""
	if err == nil && blockedByGuard(res.ErrorText) {
		refusal = b.guard.last() // navpolicy.go
	}
	switch {
	case err != nil && o.ctx.Err() != nil:
		o.stopLoading = true
		return "", err
	case err != nil && isProtocolError(err):
		return "", contract.ActionErrorf("cannot open %s: %v", u, err)
	case err != nil:
		return "", err
	case res.IsDownload:
		return fmt.Sprintf("%s is a file download: it is saved in the download folder and reported when complete", u), nil
	case refusal != "":
		return "", contract.ActionErrorf("could not load %s: %s", shortURL(u), refusal)
	case res.ErrorText != "":
		return "", contract.ActionErrorf("could not load %s: %s", u, res.ErrorText)
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
	u := strings.TrimSpace(raw) // not empty (Validate)
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
		return "", contract.ActionErrorf("%q is not a valid URL: %v", raw, err)
	}
	return u, nil
}

// navigated describes the page after a navigation, and says so when its
// document is still being parsed (see Options.LoadTimeout).
func (b *Browser) navigated(o *op) (string, error) {
	loading := ""
	if s := b.nav.state(); s.parseLapsed() {
		loading = fmt.Sprintf("; the page is still loading after %s: what has arrived so far is shown, and more may come", s.loadGrace)
	}
	var v [2]string
	if err := b.evalValue(o, "[location.href, document.title]", &v); err != nil {
		if o.ctx.Err() != nil {
			return "", err
		}
		return "navigated to " + b.nav.state().url + loading, nil
	}
	return fmt.Sprintf("navigated to %s (%s)%s", v[0], strconv.Quote(v[1]), loading), nil
}

// afterInput waits, after a click or key press, for a navigation or new
// tab that it caused: it waits, up to grace, until the page has run the
// tasks the input queued, or a navigation is asked for, starts or commits,
// or a tab opens. A navigation asked for is then waited for until it starts
// (at most requestGrace) and its document is ready. A new tab it opened
// becomes a tab of the Browser, and the current one. Nothing is waited for
// when nothing happened but the page's answer.
func (b *Browser) afterInput(o *op, s0 navState, grace time.Duration) (string, error) {
	changed := func(s navState) bool { return s.moved(s0) || s.opened(s0) || s.requestedSince(s0) }
	if !changed(b.nav.state()) {
		if err := b.probeInput(o, grace, changed); err != nil {
			return "", err
		}
	}
	s := b.nav.state()
	if s.requestedSince(s0) && !s.moved(s0) && !s.opened(s0) {
		// Asked for, not started yet: wait for the start, or for the
		// request to lapse (it was cancelled).
		if _, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.moved(s0) || s.opened(s0) || !s.requesting() }); err != nil {
			return "", err
		}
	}
	return b.followNavigation(o, s0, 0)
}

// probeInput waits until the page has run the tasks an input queued, or
// changed holds, or grace passed, whichever is first. A page that does not
// answer (busy, or navigating) is left alone.
func (b *Browser) probeInput(o *op, grace time.Duration, changed func(navState) bool) error {
	pctx, cancel := context.WithTimeout(o.ctx, grace)
	defer cancel()
	wctx, answered := context.WithCancel(pctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer answered()
		_, _ = cdp.Call(pctx, b.target, runtime.Evaluate, runtime.EvaluateParams{
			Expression: jsCall(inputProbeJS), AwaitPromise: new(true), Silent: new(true),
		})
	}()
	_, err := b.nav.wait(wctx, 0, changed)
	cancel()
	<-done
	if o.ctx.Err() != nil {
		return err
	}
	return nil
}

// followNavigation waits up to limit (none when 0) for a navigation or a
// new tab since s0; a navigation is followed until its document is ready,
// a new tab becomes the current one. It describes what it followed.
func (b *Browser) followNavigation(o *op, s0 navState, limit time.Duration) (string, error) {
	cond := func(s navState) bool { return s.moved(s0) || s.opened(s0) }
	moved := cond(b.nav.state())
	if !moved && limit > 0 {
		var err error
		if moved, err = b.nav.wait(o.ctx, limit, cond); err != nil {
			return "", err
		}
	}
	if !moved {
		return "", nil
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
		return "", contract.ActionErrorf("there is no previous page to go back to")
	case step > 0 && (i < 0 || j >= len(h.Entries)):
		return "", contract.ActionErrorf("there is no next page to go forward to")
	}
	s0 := b.nav.state()
	if _, err := cdp.Call(o.ctx, b.target, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[j].ID}); err != nil {
		return "", err
	}
	nav, err := b.followNavigation(o, s0, settleLoad)
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

// navigatedDuring turns the error of an action whose page navigated under
// it (the element or the document went away) into an outcome that says
// where the page went: the model then looks at the new page, and the rest
// of its batch is not run. ok is false when err stands: no navigation was
// seen since s0, the caller's context ended or the tab broke, or the action
// is one that navigates by itself.
func (b *Browser) navigatedDuring(o *op, a contract.Action, s0 navState, err error) (string, bool) {
	switch a.Name {
	case contract.ActGoto, contract.ActBack, contract.ActForward, contract.ActTabs:
		return "", false
	}
	s := b.nav.state()
	if !s.moved(s0) && !s.requestedSince(s0) {
		return "", false
	}
	if o.ctx.Err() != nil || b.broken.Err() != nil || o.tab.dead.Err() != nil || b.cur != o.tab {
		return "", false
	}
	if s.requestedSince(s0) && !s.moved(s0) {
		if _, werr := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.moved(s0) || !s.requesting() }); werr != nil {
			return "", false
		}
		if !b.nav.state().moved(s0) {
			return "", false // the request lapsed: the error stands
		}
	}
	if werr := b.nav.settle(o.ctx); werr != nil {
		o.stopLoading = true
		return "", false
	}
	nav, nerr := b.navigated(o)
	if nerr != nil {
		return "", false
	}
	what := a.Name
	if a.Ref != "" {
		what += " " + a.Ref
	}
	b.log.Debug("the page navigated during the action", "error", err, "action", what)
	return fmt.Sprintf("the page %s during %s, which may not have finished; look at the new page before going on", nav, what), true
}
