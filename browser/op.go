package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/contract"
)

// The op: one call of Snapshot or Do, its context, its clean-up and its errors.

// op is one call of Snapshot or Do. Its ctx ends with the caller's ctx or
// when the tab becomes unusable.
type op struct {
	b      *Browser
	caller context.Context
	ctx    context.Context
	cancel context.CancelCauseFunc
	stop   func() bool

	// Set when the call leaves work in Chromium that must be undone after
	// the caller's context ended.
	stopLoading bool // a navigation may still be pending
	evaluating  bool // a script may still run
	noticeMark  int  // notices.total when the op began

	tab   *tab     // the current tab when the op began
	began *tab     // the current tab before begin replaced a crashed or closed one
	sess  *session // the browser connection when the op began

	group string // the object group of the remote objects the op made

	watch *changeWatch // the change watch of the op's input, while it runs
}

// objectGroup names the group of the remote objects (element handles) the
// op creates; end releases it. Each op has its own group, so a late release
// never frees the objects of the next op.
func (o *op) objectGroup() string {
	if o.group == "" {
		o.b.groups++
		o.group = fmt.Sprintf("webagent-%d", o.b.groups)
	}
	return o.group
}

// begin waits for the previous call to finish and starts an op.
func (b *Browser) begin(ctx context.Context) (*op, error) {
	select {
	case <-b.closed:
		return nil, ErrClosed
	default:
	}
	select {
	case b.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("browser: waiting for the previous call: %w", ctx.Err())
	case <-b.closed:
		return nil, ErrClosed
	}
	if b.broken.Err() != nil {
		<-b.sem
		return nil, context.Cause(b.broken)
	}
	mark, began := b.notices.mark(), b.cur
	// A tab that crashed or a browser that died since the last call is
	// brought back first; the call reports it in its notices.
	if what, err := b.revive(ctx); err != nil {
		<-b.sem
		if ctx.Err() != nil {
			return nil, fmt.Errorf("browser: recovering: %w", ctx.Err())
		}
		return nil, err
	} else if what != "" {
		b.notices.add(what)
	}
	o := b.opFor(ctx)
	o.noticeMark, o.began = mark, began
	return o, nil
}

// opFor starts an op on the current tab; the caller holds sem.
func (b *Browser) opFor(ctx context.Context) *op {
	octx, cancel := context.WithCancelCause(ctx)
	t, s := b.cur, b.sess
	stops := []func() bool{
		context.AfterFunc(b.broken, func() { cancel(context.Cause(b.broken)) }),
		context.AfterFunc(s.lost, func() { cancel(ErrDisconnected) }),
		context.AfterFunc(t.dead, func() { cancel(context.Cause(t.dead)) }),
	}
	stop := func() bool {
		ok := true
		for _, f := range stops {
			ok = f() && ok
		}
		return ok
	}
	return &op{b: b, caller: ctx, ctx: octx, cancel: cancel, stop: stop, noticeMark: b.notices.mark(), tab: t, sess: s}
}

// end finishes the op. If the caller's context ended while Chromium still
// works for it, the clean-up runs in the background and the next call waits
// for it; the caller gets its error at once.
func (o *op) end() {
	o.stop()
	o.cancel(nil)
	b := o.b
	if o.group != "" && b.broken.Err() == nil && o.tab.dead.Err() == nil {
		// In the background: a page that hangs after the action (a loop
		// its click started) must not hold up the result.
		group, target, dead := o.group, o.tab.target, o.tab.dead
		b.wg.Go(func() {
			ctx, cancel := context.WithTimeout(dead, cleanupTimeout)
			defer cancel()
			_, _ = cdp.Call(ctx, target, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
		})
	}
	// b.cur is nil after a relaunch cut short by the caller's deadline.
	if o.caller.Err() == nil || (!o.stopLoading && !o.evaluating) || b.broken.Err() != nil || b.cur == nil || b.cur.dead.Err() != nil {
		<-b.sem
		return
	}
	t := b.cur
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer func() { <-b.sem }()
		b.cleanup(t, o.stopLoading, o.evaluating)
	}()
}

// cleanup undoes what an abandoned call left running in the tab: it stops a
// pending navigation, or terminates a script that still runs (a hung page or
// a snapshot of a huge one) so that the next call is not stuck behind it.
func (b *Browser) cleanup(t *tab, stopLoading, evaluating bool) {
	ctx, cancel := context.WithTimeout(t.dead, cleanupTimeout)
	defer cancel()
	stop := context.AfterFunc(b.broken, cancel)
	defer stop()
	if stopLoading || t.nav.state().pending != "" {
		if _, err := cdp.Call(ctx, t.target, page.StopLoading, cdp.Empty{}); err != nil {
			b.log.Debug("stopping the page load", "error", err)
		}
		return
	}
	if evaluating {
		if _, err := cdp.Call(ctx, t.target, runtime.TerminateExecution, cdp.Empty{}); err != nil {
			b.log.Debug("terminating the page's script", "error", err)
			return
		}
		// TerminateExecution also ends the next script when none runs now;
		// let that be this probe rather than the page's own code.
		_, err := cdp.Call(ctx, t.target, runtime.Evaluate, runtime.EvaluateParams{Expression: "0", Silent: new(true)})
		b.log.Debug("terminated the script left running by an abandoned call", "error", err)
	}
}

// fail turns an error met during the op into what the caller gets: the
// caller's context error when it ended, the reason when the Browser became
// unusable, else err wrapped with what was being done. ActionErrors pass
// through unchanged. When the tab crashed or the browser process died
// during the call, the tab is brought back (see Recover) and the caller
// gets an *contract.ActionError that says so: the model can go on.
func (o *op) fail(what string, err error) error {
	if err == nil {
		return nil
	}
	var ae *contract.ActionError
	if errors.As(err, &ae) {
		return ae
	}
	b := o.b
	if cerr := o.caller.Err(); cerr != nil {
		return fmt.Errorf("browser: %s: %w", what, cerr)
	}
	if b.broken.Err() != nil {
		return fmt.Errorf("%s: %w", what, context.Cause(b.broken))
	}
	if errors.Is(err, chromedp.ErrTargetDetached) && o.sess.alive() {
		o.tab.kill(ErrDisconnected)
	}
	var cause error
	switch {
	case !o.sess.alive():
		cause = errors.New("the browser process died")
	case o.tab.dead.Err() != nil && errors.Is(context.Cause(o.tab.dead), ErrCrashed):
		cause = errors.New("the tab crashed")
	case o.tab.dead.Err() != nil:
		cause = errors.New("the tab was closed")
	default:
		return fmt.Errorf("browser: %s: %w", what, err)
	}
	done, rerr := b.revive(o.caller)
	if rerr != nil {
		return fmt.Errorf("browser: %s: %v; recovering: %w", what, cause, rerr)
	}
	return contract.ActionErrorf("%s failed: %v. %s. Take a new snapshot.", what, cause, strings.TrimSuffix(done, "."))
}

// isProtocolError reports whether err is an error answer of Chromium to a
// command, as opposed to a transport or context error.
func isProtocolError(err error) bool {
	var pe *cdproto.Error
	return errors.As(err, &pe)
}
