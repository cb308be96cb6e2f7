package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/contract"
)

var _ contract.Recoverer = (*Browser)(nil)

const (
	// probeTimeout is how long a trivial script may take to answer before
	// the page counts as frozen.
	probeTimeout = 500 * time.Millisecond
	// reopenTimeout bounds reloading the last URL in a replaced tab; the
	// caller's context may end it sooner.
	reopenTimeout = 10 * time.Second
)

// Recover inspects the current tab and brings it back after an abandoned
// call, and says what it found and did, in a sentence for the model:
//
//   - the browser process died: it is relaunched once (same options, a
//     fresh profile, or the same persistent one) and the last URL reopened; a second death is an error
//     wrapping ErrDisconnected;
//   - the tab crashed: it is replaced by a new tab with the same id, at its
//     last URL;
//   - a navigation is still pending: it is stopped, and the page is where
//     it was;
//   - the page does not answer a trivial script within 500 ms (a script
//     loop started by a click or a timer): the script is terminated, and if
//     the page still does not answer, the tab is replaced and its last URL
//     reopened;
//   - otherwise: "the page is responsive".
//
// Snapshot and Do recover a crashed tab or a dead browser process by
// themselves too, and report it in their notices; Recover is for the hangs
// they cannot see.
func (b *Browser) Recover(ctx context.Context) (string, error) {
	select {
	case b.sem <- struct{}{}:
	case <-ctx.Done():
		return "", fmt.Errorf("browser: waiting for the previous call: %w", ctx.Err())
	case <-b.closed:
		return "", ErrClosed
	}
	defer func() { <-b.sem }()
	if b.broken.Err() != nil {
		return "", context.Cause(b.broken)
	}
	what, err := b.revive(ctx)
	if err != nil || what != "" {
		return what, err
	}
	t := b.cur
	var done []string
	if s := t.nav.state(); s.pending != "" {
		sctx, cancel := context.WithTimeout(ctx, cleanupTimeout)
		_, err := cdp.Call(sctx, t.target, page.StopLoading, cdp.Empty{})
		if err == nil {
			_, err = t.nav.wait(sctx, time.Second, func(s navState) bool { return s.pending == "" })
		}
		cancel()
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if err != nil {
			b.log.Debug("stopping a pending navigation", "error", err)
		}
		done = append(done, "a navigation that had not arrived was stopped")
	}
	if b.responsive(ctx, t) {
		if len(done) == 0 {
			return "The page is responsive: " + b.describeTab(ctx, t) + ".", nil
		}
		return sentence(done...) + "; the page is responsive: " + b.describeTab(ctx, t) + ".", nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	// Frozen. Browser-side commands still answer when only the renderer
	// hangs; terminate its script.
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	_, terr := cdp.Call(tctx, t.target, runtime.TerminateExecution, cdp.Empty{})
	cancel()
	// Two probes: TerminateExecution also ends the next script when none
	// runs now, which may be the first probe.
	if terr == nil && slices.ContainsFunc([]int{1, 2}, func(int) bool { return b.responsive(ctx, t) }) {
		done = append(done, "the page was frozen by a script that did not stop; the script was terminated and the page answers again")
		return sentence(done...) + ": " + b.describeTab(ctx, t) + ".", nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	url := t.nav.state().url
	if err := b.replaceTab(ctx, t, url); err != nil {
		return "", fmt.Errorf("browser: replacing the frozen tab: %w", err)
	}
	done = append(done, fmt.Sprintf("the page was frozen and did not recover when its script was terminated; tab %s was replaced by a new tab at %s", t.id, url))
	return sentence(done...) + ".", nil
}

// sentence joins the parts and starts them with a capital.
func sentence(parts ...string) string {
	s := strings.Join(parts, "; ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// responsive reports whether the tab's page answers a trivial script
// within probeTimeout.
func (b *Browser) responsive(ctx context.Context, t *tab) bool {
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	_, err := cdp.Call(pctx, t.target, runtime.Evaluate, runtime.EvaluateParams{Expression: "1", Silent: new(true)})
	return err == nil
}

// revive brings back what broke while no call could see it or during a
// call: a dead browser process (relaunched once), tabs closed by their page,
// a crashed current tab (replaced). It returns what was done, "" if
// nothing. The caller holds sem.
func (b *Browser) revive(ctx context.Context) (string, error) {
	if !b.sess.alive() {
		return b.relaunch(ctx)
	}
	what, err := b.closedTabs(ctx)
	if err != nil {
		return "", err
	}
	t := b.cur
	if t.dead.Err() == nil {
		return what, nil
	}
	url := t.nav.state().url
	if err := b.replaceTab(ctx, t, url); err != nil {
		return "", fmt.Errorf("browser: replacing the crashed tab: %w", err)
	}
	done := fmt.Sprintf("tab %s crashed; it was replaced by a new tab and %s reopened", t.id, url)
	if what != "" {
		done = what + "; " + done
	}
	return sentence(done), nil
}

// replaceTab opens a new tab with old's id in its place, makes it current
// if old was, reopens url in it, and closes old in the background.
func (b *Browser) replaceTab(ctx context.Context, old *tab, url string) error {
	nt, err := b.newTab(ctx, b.sess, old.id)
	if err != nil {
		return err
	}
	for i, t := range b.tabs {
		if t == old {
			b.tabs[i] = nt
		}
	}
	if b.cur == old {
		b.setCurrent(nt)
	}
	b.wg.Go(old.cancel)
	return b.reopen(ctx, nt, url)
}

// reopen loads url in the tab t, which is current.
func (b *Browser) reopen(ctx context.Context, t *tab, url string) error {
	if url == "" || url == "about:blank" {
		return nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, reopenTimeout, errReopenTimeout)
	defer cancel()
	o := b.internalOp(ctx)
	defer o.cancel(nil)
	_, err := o.navigate(url)
	var ae *contract.ActionError
	switch {
	case err == nil, errors.As(err, &ae):
		// A page that no longer loads is still a usable tab.
		return nil
	case o.stopLoading:
		sctx, scancel := context.WithTimeout(context.Background(), cleanupTimeout)
		_, _ = cdp.Call(sctx, t.target, page.StopLoading, cdp.Empty{})
		scancel()
	}
	if errors.Is(context.Cause(ctx), errReopenTimeout) {
		// Its own bound, not the caller's: the tab is there; the page
		// did not load in time.
		return nil
	}
	return err
}

// errReopenTimeout is the cause of reopen's own deadline.
var errReopenTimeout = errors.New("browser: reopening the page took longer than its bound")

// internalOp is an op for work the Browser does for itself while it holds
// sem (reopening a page).
func (b *Browser) internalOp(ctx context.Context) *op {
	octx, cancel := context.WithCancelCause(ctx)
	return &op{b: b, caller: ctx, ctx: octx, cancel: cancel, stop: func() bool { return true }, tab: b.cur, sess: b.sess}
}

// relaunch replaces a browser process that died by a new one, once, and
// reopens the current tab's last URL. A browser attached to is not
// relaunched.
func (b *Browser) relaunch(ctx context.Context) (string, error) {
	switch {
	case b.sess.attached:
		b.breakf(ErrDisconnected)
		return "", context.Cause(b.broken)
	case b.relaunchs >= 1:
		b.breakf(fmt.Errorf("%w: the browser process died again after it was relaunched", ErrDisconnected))
		return "", context.Cause(b.broken)
	}
	if b.cur != nil {
		b.reopenURL, b.reopenID = b.cur.nav.state().url, b.cur.id
		// The dead browser's connection, helpers and profile are
		// cleaned up in the background: a call should not wait for them.
		old, oldTabs := b.sess, b.tabs
		if old.persistent() {
			// A persistent profile is reused: its dead browser's helpers
			// go first (2 s at most), or the new browser would find the
			// profile in use, and their clean-up would kill it.
			t0 := time.Now()
			b.closeSession(old, oldTabs)
			b.log.Debug("cleaned up the dead browser of the persistent profile", "took", time.Since(t0))
		} else {
			b.wg.Go(func() { b.closeSession(old, oldTabs) })
		}
		b.tabs, b.cur = nil, nil
	}
	url, id := b.reopenURL, b.reopenID
	b.log.Warn("the browser process died; relaunching it", "url", url)
	// An attempt cut short by the caller's deadline (a slow start on a busy
	// machine) does not count: the next call tries again.
	t0 := time.Now()
	s, err := b.startSession(ctx)
	b.log.Debug("relaunched the browser", "took", time.Since(t0), "error", err)
	if err != nil && ctx.Err() != nil {
		return "", fmt.Errorf("browser: relaunching the browser: %w", ctx.Err())
	}
	if err != nil {
		b.breakf(fmt.Errorf("%w: relaunching the browser failed: %w", ErrDisconnected, err))
		return "", context.Cause(b.broken)
	}
	t, err := b.newTab(ctx, s, id)
	if err != nil {
		b.closeSession(s, nil)
		if ctx.Err() != nil {
			return "", fmt.Errorf("browser: relaunching the browser: %w", ctx.Err())
		}
		b.breakf(fmt.Errorf("%w: relaunching the browser failed: %w", ErrDisconnected, err))
		return "", context.Cause(b.broken)
	}
	b.relaunchs++
	b.useSession(s)
	b.tabs = []*tab{t}
	b.setCurrent(t)
	b.closeStrays(ctx)
	err = b.reopen(ctx, t, url)
	b.log.Debug("reopened the page after the relaunch", "took", time.Since(t0), "error", err)
	if err != nil {
		return "", err
	}
	return sentence(fmt.Sprintf("the browser process died; it was relaunched (this happens once: another death ends the task) and %s reopened in tab %s", url, id)), nil
}

// revived handles an error of a call whose tab crashed or whose browser
// died meanwhile: it brings them back (the notices say so) and renews the
// op's context for the current tab, so that the call can be made again. It
// reports whether it did.
func (o *op) revived(err error) bool {
	b := o.b
	if errors.Is(err, chromedp.ErrTargetDetached) && o.sess.alive() {
		o.tab.kill(ErrDisconnected)
	}
	if err == nil || o.caller.Err() != nil || b.broken.Err() != nil || (o.sess.alive() && o.tab.dead.Err() == nil) {
		return false
	}
	what, rerr := b.revive(o.caller)
	if rerr != nil {
		return false
	}
	if what != "" {
		b.notices.add(what)
	}
	o.stop()
	o.cancel(nil)
	o.evaluating, o.stopLoading, o.group = false, false, ""
	fresh := b.opFor(o.caller)
	o.ctx, o.cancel, o.stop, o.tab, o.sess = fresh.ctx, fresh.cancel, fresh.stop, fresh.tab, fresh.sess
	return true
}
