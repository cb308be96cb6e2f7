package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// Following an input: what a click or a key press caused (a navigation it
// started, or asked for and the browser started later; a new tab it
// opened) is waited for and described in the action's outcome.

// inputGrace bounds the wait, after a click or key press, for the page to
// run what the input queued (a form submission asks for its navigation in
// a task of its own). The page answers at once unless its main thread is
// busy; the wait never fails, and a navigation asked for later is still
// seen by the next snapshot.
const inputGrace = time.Second

// inputProbe is evaluated in the page after an input: it resolves once the
// tasks the input queued, and the ones they queued, have run.
var inputProbeJS = program("inputProbe")

// afterInput waits, after a click or key press, for a navigation or new
// tab that it caused: it waits, up to grace, until the page has run the
// tasks the input queued, or a navigation is asked for, starts or commits,
// or a tab opens. A navigation asked for is then waited for until it starts
// (at most requestGrace) and its document is ready. A new tab it opened
// becomes a tab of the Browser, and the current one. A child frame's
// navigation it caused (a form in an iframe) is followed too, until the
// frame's new document is ready (followFrames), and so are the fetch and
// XHR requests its tasks sent, fetchGrace at most, and the tasks their
// answers queued (fetches.go). Nothing is waited for when nothing
// happened but the page's answer.
func (o *op) afterInput(s0 navState, grace time.Duration) (string, error) {
	b := o.b
	changed := func(s navState) bool {
		return s.moved(s0) || s.opened(s0) || s.requestedSince(s0) || s.frameNavs > s0.frameNavs
	}
	if !changed(b.nav.state()) {
		if err := o.probeInput(grace, changed); err != nil {
			return "", err
		}
	}
	nav, err := o.followInput(s0)
	if err != nil || nav != "" {
		return nav, err
	}
	waited, err := o.awaitFetches(s0)
	if err != nil {
		return "", err
	}
	if waited {
		// The answers came: the tasks they queued run, and what they
		// started (a navigation) is followed.
		if !changed(b.nav.state()) {
			if err := o.probeInput(grace, changed); err != nil {
				return "", err
			}
		}
		if nav, err := o.followInput(s0); err != nil || nav != "" {
			return nav, err
		}
	}
	return "", o.followFrames(s0)
}

// followInput follows a navigation or a new tab an input started since s0,
// also one asked for that has not started yet.
func (o *op) followInput(s0 navState) (string, error) {
	b := o.b
	s := b.nav.state()
	if s.requestedSince(s0) && !s.moved(s0) && !s.opened(s0) {
		// Asked for, not started yet: wait for the start, or for the
		// request to lapse (it was cancelled).
		if _, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.moved(s0) || s.opened(s0) || !s.requesting() }); err != nil {
			return "", err
		}
	}
	return o.followNavigation(s0, 0)
}

// followFrames waits, after an input, for the new documents of the child
// frames whose navigation began since s0 (the input's: a form submitted in
// an iframe), as long as the action's context allows. The snapshot gives
// a frame that loads by itself frameGrace from its start; one the agent's
// own input sent elsewhere is waited for whole, so that on a busy machine,
// where its document comes late, the next snapshot shows it rather than a
// frame still loading. As for the main frame's document, the action's
// budget bounds the wait.
func (o *op) followFrames(s0 navState) error {
	b := o.b
	if b.nav.state().frameNavs == s0.frameNavs {
		return nil
	}
	_, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return !s.frameLoadingSince(s0.now) })
	return err
}

// probeInput waits until the page has run the tasks an input queued, or
// changed holds, or grace passed, whichever is first. A page that does not
// answer (busy, or navigating) is left alone.
func (o *op) probeInput(grace time.Duration, changed func(navState) bool) error {
	b := o.b
	pctx, cancel := context.WithTimeout(o.ctx, grace)
	defer cancel()
	wctx, answered := context.WithCancel(pctx)
	done := make(chan struct{})
	// The probe also asks the op's change watch, if any, what it saw
	// by then: its answer spares the watch's own question
	// (changeWatch.result).
	w := o.watch
	var seen *bool
	go func() {
		defer close(done)
		defer answered()
		r, err := b.evalWorld(pctx, b.target, runtime.EvaluateParams{
			Expression: jsCall(inputProbeJS, w.tokenOf()), AwaitPromise: new(true), ReturnByValue: new(true), Silent: new(true),
		})
		if err == nil && r.ExceptionDetails == nil && w != nil {
			_ = decodeValue(r.Result, &seen)
		}
	}()
	_, err := b.nav.wait(wctx, 0, changed)
	cancel()
	<-done
	if seen != nil {
		w.seen = seen
	}
	if o.ctx.Err() != nil {
		return err
	}
	return nil
}

// followNavigation waits up to limit (none when 0) for a navigation or a
// new tab since s0; a navigation is followed until its document is ready,
// a new tab becomes the current one. It describes what it followed.
func (o *op) followNavigation(s0 navState, limit time.Duration) (string, error) {
	b := o.b
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
		return o.followPopup()
	}
	if err := b.nav.settle(o.ctx); err != nil {
		o.stopLoading = true
		return "", err
	}
	nav, err := o.navigated()
	if err != nil {
		return "", err
	}
	return "; " + nav, nil
}

// followPopup takes in the new tab the current tab opened, switches to it
// and waits for its page.
func (o *op) followPopup() (string, error) {
	b := o.b
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
	nav, err := o.navigated()
	if err != nil {
		return "", err
	}
	return out + ": " + nav, nil
}

// navigatedDuring turns the error of an action whose page navigated under
// it (the element or the document went away) into an outcome that says
// where the page went: the model then looks at the new page, and the rest
// of its batch is not run. ok is false when err stands: no navigation was
// seen since s0, the caller's context ended or the tab broke, or the action
// is one that navigates by itself.
func (o *op) navigatedDuring(a contract.Action, s0 navState, err error) (string, bool) {
	b := o.b
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
	nav, nerr := o.navigated()
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

// sendInput sends an input (send) and waits for what it caused: it returns
// the navigation or new tab it led to (afterInput), or else whether the
// page changed meanwhile ("; the page changed", "; nothing on the page
// changed (yet)", or "" when that cannot be told).
func (o *op) sendInput(send func() error) (string, error) {
	watch := o.watchChanges()
	s0 := o.b.nav.state()
	err := send()
	var nav string
	if err == nil {
		nav, err = o.afterInput(s0, inputGrace)
	}
	changed := watch() // also stops the watch after an error
	if err != nil {
		return "", err
	}
	if nav != "" {
		return nav, nil
	}
	return changed, nil
}
