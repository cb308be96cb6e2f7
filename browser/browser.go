package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/webagent/webagent/agent"
)

// Options configure Launch. The zero value launches a headless Chromium
// found on PATH with a 1280x900 viewport.
type Options struct {
	// ChromePath is the Chromium or Chrome binary. If empty, $CHROME_PATH is
	// used, else the first of chromium, chromium-browser, google-chrome and
	// google-chrome-stable found on PATH.
	ChromePath string
	// CDPURL attaches to a running browser instead of launching one: its
	// DevTools address, ws://host:port/devtools/browser/<id> or
	// http://host:port. The Browser opens a tab of its own and Close closes
	// only that tab.
	CDPURL string
	// Headful shows a browser window (it needs a display).
	Headful bool
	// Logger receives the browser's diagnostics. The zero value logs nothing.
	Logger zerolog.Logger
	// Width and Height are the viewport size in CSS pixels; 1280x900 if not
	// set.
	Width, Height int
}

// Errors returned by this package. Only ErrChromeNotFound comes from Launch;
// the others mean the Browser can no longer be used.
var (
	// ErrChromeNotFound: no Chromium binary was found.
	ErrChromeNotFound = errors.New("browser: Chromium not found: install it with `apt-get install chromium`, or pass --chrome or set CHROME_PATH to the browser binary")
	// ErrClosed: the Browser was closed.
	ErrClosed = errors.New("browser: closed")
	// ErrCrashed: the tab's renderer crashed.
	ErrCrashed = errors.New("browser: the tab crashed")
	// ErrDisconnected: the connection to Chromium was lost, or the tab was
	// closed from outside.
	ErrDisconnected = errors.New("browser: lost the connection to the tab")
)

// Browser is one Chromium tab driven over CDP. It implements agent.Browser.
type Browser struct {
	log           zerolog.Logger
	width, height int

	// The chromedp contexts. tabCtx is long-lived: it was used for the first
	// chromedp call on the tab, so it bounds the life of the browser (in
	// launch mode) and of the tab's event loop. Calls use the caller's ctx
	// for their own deadline only.
	allocCtx    context.Context
	allocCancel context.CancelFunc
	tabCtx      context.Context
	tabCancel   context.CancelFunc
	target      *chromedp.Target
	cdpBrowser  *chromedp.Browser

	attached   bool        // attached to a browser we did not start
	profileDir string      // temporary profile of a launched browser
	process    *os.Process // the launched browser, nil when attached

	nav     *navTracker
	notices notices

	// sem serializes calls; a call holds it until what it left running in
	// Chromium is undone.
	sem chan struct{}
	// broken ends when the tab becomes unusable; its cause says why.
	broken context.Context
	breakf context.CancelCauseFunc

	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error
	wg        sync.WaitGroup // goroutines that must end before Close returns

	maxRef int // highest ref number handed out; guarded by sem
	ops    int // ops that made an object group; guarded by sem
}

var _ agent.Browser = (*Browser)(nil)

const (
	// settleLoad is how long a navigation waits for the load event after
	// DOMContentLoaded. It never fails: a page whose images hang is usable.
	settleLoad = 1500 * time.Millisecond
	// cleanupTimeout bounds the clean-up commands sent after a caller's
	// context ended (stop loading, terminate a script).
	cleanupTimeout = 2 * time.Second
)

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

	group string // the object group of the remote objects the op made
}

// objectGroup names the group of the remote objects (element handles) the
// op creates; end releases it. Each op has its own group, so a late release
// never frees the objects of the next op.
func (o *op) objectGroup() string {
	if o.group == "" {
		o.b.ops++
		o.group = fmt.Sprintf("webagent-%d", o.b.ops)
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
	octx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(b.broken, func() { cancel(context.Cause(b.broken)) })
	return &op{b: b, caller: ctx, ctx: octx, cancel: cancel, stop: stop, noticeMark: b.notices.mark()}, nil
}

// end finishes the op. If the caller's context ended while Chromium still
// works for it, the clean-up runs in the background and the next call waits
// for it; the caller gets its error at once.
func (o *op) end() {
	o.stop()
	o.cancel(nil)
	b := o.b
	if o.group != "" && b.broken.Err() == nil {
		// In the background: a page that hangs after the action (a loop
		// its click started) must not hold up the result.
		group := o.group
		b.wg.Go(func() {
			ctx, cancel := context.WithTimeout(b.broken, cleanupTimeout)
			defer cancel()
			_, _ = cdp.Call(ctx, b.target, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
		})
	}
	if o.caller.Err() == nil || (!o.stopLoading && !o.evaluating) || b.broken.Err() != nil {
		<-b.sem
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer func() { <-b.sem }()
		b.cleanup(o.stopLoading, o.evaluating)
	}()
}

// cleanup undoes what an abandoned call left running: it stops a pending
// navigation, or terminates a script that still runs (a hung page or a
// snapshot of a huge one) so that the next call is not stuck behind it.
func (b *Browser) cleanup(stopLoading, evaluating bool) {
	ctx, cancel := context.WithTimeout(b.broken, cleanupTimeout)
	defer cancel()
	if stopLoading || b.nav.state().pending != "" {
		if _, err := cdp.Call(ctx, b.target, page.StopLoading, cdp.Empty{}); err != nil {
			b.log.Debug().Err(err).Msg("stopping the page load")
		}
		return
	}
	if evaluating {
		if _, err := cdp.Call(ctx, b.target, runtime.TerminateExecution, cdp.Empty{}); err != nil {
			b.log.Debug().Err(err).Msg("terminating the page's script")
			return
		}
		// TerminateExecution also ends the next script when none runs now;
		// let that be this probe rather than the page's own code.
		_, err := cdp.Call(ctx, b.target, runtime.Evaluate, runtime.EvaluateParams{Expression: "0", Silent: new(true)})
		b.log.Debug().Err(err).Msg("terminated the script left running by an abandoned call")
	}
}

// fail turns an error met during the op into what the caller gets: the
// caller's context error when it ended, the reason when the tab became
// unusable, else err wrapped with what was being done. ActionErrors pass
// through unchanged.
func (o *op) fail(what string, err error) error {
	if err == nil {
		return nil
	}
	var ae *agent.ActionError
	if errors.As(err, &ae) {
		return ae
	}
	if cerr := o.caller.Err(); cerr != nil {
		return fmt.Errorf("browser: %s: %w", what, cerr)
	}
	if o.b.broken.Err() != nil {
		return fmt.Errorf("%s: %w", what, context.Cause(o.b.broken))
	}
	if errors.Is(err, chromedp.ErrTargetDetached) {
		o.b.breakf(ErrDisconnected)
		return fmt.Errorf("%s: %w: %w", what, ErrDisconnected, err)
	}
	return fmt.Errorf("browser: %s: %w", what, err)
}

// isProtocolError reports whether err is an error answer of Chromium to a
// command, as opposed to a transport or context error.
func isProtocolError(err error) bool {
	var pe *cdproto.Error
	return errors.As(err, &pe)
}
