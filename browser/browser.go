package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
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
	// only the tabs of this Browser.
	CDPURL string
	// Isolated opens the Browser's tabs in a browser context of their own
	// (like an incognito window: own cookies and storage), disposed of on
	// Close. It works when launching and when attaching.
	Isolated bool
	// DownloadDir is where downloads are saved; each finished one is
	// reported in the next snapshot's notices. If empty, a temporary folder
	// removed on Close. A browser attached to without Isolated keeps its own
	// download settings unless DownloadDir is set.
	DownloadDir string
	// Headful shows a browser window (it needs a display).
	Headful bool
	// Logger receives the browser's diagnostics. The zero value logs nothing.
	Logger zerolog.Logger
	// Width and Height are the viewport size in CSS pixels; 1280x900 if not
	// set.
	Width, Height int
	// SnapshotTokens is the snapshot's size budget in (estimated) tokens;
	// DefaultSnapshotTokens if 0. Past it, the snapshot keeps every
	// actionable element and what is in and near the viewport, and
	// summarises the rest with the way to reach it.
	SnapshotTokens int
	// BlockNonLoopback refuses every request whose host is not loopback
	// (for benchmarks and tests on saved pages without network).
	BlockNonLoopback bool
	// UploadDir is the folder the upload action takes files from; the
	// model names files relative to it. Uploads are refused when empty.
	UploadDir string
	// AllowFileURLs lets goto open file: URLs (to look at a local report,
	// for example). Never set it for an agent that reads untrusted pages:
	// a page could then lead it to the machine's files.
	AllowFileURLs bool
	// CPUThrottle slows every page and frame down by this factor (CDP CPU
	// throttling), to reproduce a slow or busy machine; 0 or 1 is none,
	// at most MaxCPUThrottle.
	CPUThrottle float64
	// LoadTimeout is how long a page's document may take to be parsed (its
	// body trickling in, a script it waits for never answering) before the
	// snapshot and the actions use what has arrived, and say that the page
	// is still loading; DefaultLoadTimeout if 0.
	LoadTimeout time.Duration

	// UserAgent replaces the browser's user agent (navigator.userAgent and
	// the User-Agent header) when set.
	UserAgent string
	// Locale is a BCP 47 tag such as de-DE: navigator.language, the
	// Accept-Language header and Intl's formats.
	Locale string
	// Timezone is an IANA time zone such as Europe/Berlin for the pages'
	// clocks.
	Timezone string
	// Proxy routes the browser's traffic, loopback included, through a
	// proxy: http://host:port (or https, socks4, socks5), optionally with
	// user:password@, which is answered to the proxy's challenge and never
	// logged. Not used when attaching (CDPURL).
	Proxy string
	// ExtraHeaders are sent with every request of every page, to every
	// site.
	ExtraHeaders map[string]string

	// UserDataDir is a persistent profile: cookies, storage and logins
	// outlive the run, and a later run with the same folder finds them.
	// It is created if missing and never removed; Launch refuses it with
	// a *ConfigError while another browser uses it. Without it, a fresh
	// temporary profile removed on Close.
	UserDataDir string
	// StorageState is a Playwright storage-state JSON file (cookies and
	// localStorage by origin) loaded before the first page opens.
	StorageState string
	// SaveStorageState is where Close writes the storage state (mode
	// 0600: it holds credentials), also after a failed task; SaveStorageState
	// writes it on demand.
	SaveStorageState string

	proxy Proxy // Proxy, parsed by checkSettings
}

// DefaultLoadTimeout is the default of Options.LoadTimeout.
const DefaultLoadTimeout = 10 * time.Second

// Errors returned by this package. Only ErrChromeNotFound (and a
// *ConfigError, launcherr.go) comes from Launch; the others mean the
// Browser can no longer be used.
var (
	// ErrChromeNotFound: no Chromium binary was found.
	ErrChromeNotFound = errors.New("browser: Chromium not found: install it with `apt-get install chromium`, or pass --chrome or set CHROME_PATH to the browser binary")
	// ErrClosed: the Browser was closed.
	ErrClosed = errors.New("browser: closed")
	// ErrCrashed: the tab's renderer crashed. A call that meets it brings
	// the tab back (a new tab at its last URL) and returns an
	// *agent.ActionError that says so.
	ErrCrashed = errors.New("browser: the tab crashed")
	// ErrDisconnected: the connection to Chromium was lost, or the tab was
	// closed from outside.
	ErrDisconnected = errors.New("browser: lost the connection to the tab")
)

// Browser is one Chromium tab driven over CDP. It implements agent.Browser.
type Browser struct {
	log           zerolog.Logger
	width, height int

	opts Options

	// The browser connection and the tabs; changed only by a caller that
	// holds sem. The Browser acts in the current tab, cur: target and nav
	// are its own. Calls use the caller's ctx for their own deadline only.
	sess      *session
	tabs      []*tab
	cur       *tab
	tabSeq    int
	relaunchs int // browsers relaunched after the first died
	// What a relaunch reopens: the current tab's id and URL when its
	// browser died.
	reopenURL, reopenID string

	target     guarded
	tabCtx     context.Context // the current tab's chromedp context
	cdpBrowser *chromedp.Browser

	attached   bool        // attached to a browser we did not start
	profileDir string      // temporary profile of a launched browser
	process    *os.Process // the launched browser, nil when attached
	pidMu      sync.Mutex
	pid        *os.Process // process, for PID

	downloads downloads
	guard     guard // where the tabs may go (navpolicy.go)
	nav       *navTracker
	notices   notices

	// sem serializes calls; a call holds it until what it left running in
	// Chromium is undone.
	sem chan struct{}
	// broken ends when the Browser becomes unusable (closed, or its
	// browser died twice); its cause says why.
	broken context.Context
	breakf context.CancelCauseFunc

	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error
	wg        sync.WaitGroup // goroutines that must end before Close returns

	uploadDir string    // Options.UploadDir (actions: upload)
	defaultUA string    // the browser's own user agent, when only a locale is set (settings.go)
	origins   originSet // origins whose localStorage the storage state keeps (storagestate.go)

	maxRef int       // highest ref number handed out; guarded by sem
	snap   snapState // the snapshot's settings and memory (snapshot.go); guarded by sem
	ops    int       // ops that made an object group; guarded by sem
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

	tab  *tab     // the current tab when the op began
	sess *session // the browser connection when the op began

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
	mark := b.notices.mark()
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
	o.noticeMark = mark
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
			b.log.Debug().Err(err).Msg("stopping the page load")
		}
		return
	}
	if evaluating {
		if _, err := cdp.Call(ctx, t.target, runtime.TerminateExecution, cdp.Empty{}); err != nil {
			b.log.Debug().Err(err).Msg("terminating the page's script")
			return
		}
		// TerminateExecution also ends the next script when none runs now;
		// let that be this probe rather than the page's own code.
		_, err := cdp.Call(ctx, t.target, runtime.Evaluate, runtime.EvaluateParams{Expression: "0", Silent: new(true)})
		b.log.Debug().Err(err).Msg("terminated the script left running by an abandoned call")
	}
}

// fail turns an error met during the op into what the caller gets: the
// caller's context error when it ended, the reason when the Browser became
// unusable, else err wrapped with what was being done. ActionErrors pass
// through unchanged. When the tab crashed or the browser process died
// during the call, the tab is brought back (see Recover) and the caller
// gets an *agent.ActionError that says so: the model can go on.
func (o *op) fail(what string, err error) error {
	if err == nil {
		return nil
	}
	var ae *agent.ActionError
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
	return agent.ActionErrorf("%s failed: %v. %s. Take a new snapshot.", what, cause, strings.TrimSuffix(done, "."))
}

// isProtocolError reports whether err is an error answer of Chromium to a
// command, as opposed to a transport or context error.
func isProtocolError(err error) bool {
	var pe *cdproto.Error
	return errors.As(err, &pe)
}
