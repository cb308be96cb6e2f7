package browser

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/browser/launcher"
)

// session is one connection to a browser: a Chromium this Browser launched
// (relaunched once if it dies), or one it attached to. Its tabs are
// children of its context.
type session struct {
	allocCtx    context.Context
	allocCancel context.CancelFunc
	// ctx is the browser connection's chromedp context: its first call
	// connected, so it bounds the connection's life.
	ctx     context.Context
	cancel  func()
	browser *chromedp.Browser

	attached bool
	proc     *launcher.Process  // the launched browser, nil when attached
	pipe     *chromedp.PipeConn // its DevTools connection
	bcID     cdp.BrowserContextID
	icpt     *interceptor // the navigation guard

	// lost ends when the connection to the browser is lost (the process
	// died, or the browser we attached to went away).
	lost     context.Context
	loseOnce func()
	done     chan struct{} // closed by close
	doneOnce sync.Once

	// pageEvents counts the browser's events about a page with an opener
	// (one opened, or its address changed): the tabs' pages may have
	// opened one to take in (adoptOpened) only after one.
	pageEvents atomic.Uint64
}

// countPageEvents counts the events of pageEvents. It runs on the
// browser's event loop.
func (s *session) countPageEvents(ev any) {
	var info *target.Info
	switch e := ev.(type) {
	case *target.EventTargetCreated:
		info = e.TargetInfo
	case *target.EventTargetInfoChanged:
		info = e.TargetInfo
	}
	if info != nil && info.Type == "page" && info.OpenerID != "" {
		s.pageEvents.Add(1)
	}
}

// alive reports whether the connection to the browser still works.
func (s *session) alive() bool {
	if s == nil || s.lost.Err() != nil {
		return false
	}
	if s.browser != nil {
		select {
		case <-s.browser.LostConnection:
			return false
		default:
		}
	}
	return true
}

// startSession launches or attaches to a browser and prepares it: our own
// browser context when isolated, downloads saved to the download folder.
func (b *Browser) startSession(ctx context.Context) (*session, error) {
	s := &session{done: make(chan struct{})}
	lost, lose := context.WithCancel(context.Background())
	s.lost, s.loseOnce = lost, lose
	var err error
	if b.opts.CDPURL != "" {
		s.attached = true
		s.allocCtx, s.allocCancel = newAttachAllocator(b.opts.CDPURL, b.opts.Observable)
		err = b.connect(ctx, s)
		if err != nil {
			err = attachError(ctx, b.opts.CDPURL, err)
		}
	} else {
		err = b.launchProcess(ctx, s)
	}
	if err == nil {
		err = b.prepareSession(ctx, s)
		if err != nil {
			err = fmt.Errorf("browser: setting up the browser: %w", err)
		}
	}
	if err != nil {
		b.abandonOnCancel(ctx, s.proc)
		b.closeSession(s, nil)
		return nil, err
	}
	return s, nil
}

// abandonOnCancel hands the browser p, launched for a start that the
// caller's ctx ended (a signal), to its reaper (launcher.Process.Abandon),
// so that the caller gets its error at once; the close that follows finds
// the process closed. A persistent profile is closed as usual.
func (b *Browser) abandonOnCancel(ctx context.Context, p *launcher.Process) {
	if ctx.Err() == nil || p == nil || p.Persistent() {
		return
	}
	if err := p.Abandon(b.downloads.handOff()...); err != nil {
		b.log.Debug("abandoning the browser of a cancelled start", "error", err)
	}
}

// connect makes the session's first call, which starts the browser or
// connects to it; ctx only cancels it.
func (b *Browser) connect(ctx context.Context, s *session) error {
	log := b.log
	// Until connected, chromedp's complaints (a pipe broken by a binary
	// that is not Chromium) are debug: the start's error says it plainly.
	var up atomic.Bool
	sctx, cancel := chromedp.NewContext(s.allocCtx, chromedp.WithBrowserOption(
		chromedp.WithBrowserLogf(func(f string, a ...any) { log.Debug(fmt.Sprintf("chromedp: "+f, a...)) }),
		chromedp.WithBrowserErrorf(func(f string, a ...any) {
			level := slog.LevelDebug
			if up.Load() {
				level = slog.LevelWarn
			}
			log.Log(context.Background(), level, fmt.Sprintf("chromedp: "+f, a...))
		}),
	))
	// chromedp's cancel func must run once: a second call can wait for
	// ever when the browser never started.
	s.ctx, s.cancel = sctx, sync.OnceFunc(cancel)
	stop := context.AfterFunc(ctx, s.cancel)
	_, err := chromedp.Targets(s.ctx)
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	up.Store(true)
	s.browser = chromedp.FromContext(s.ctx).Browser
	lostCh := s.browser.LostConnection
	b.wg.Go(func() {
		select {
		case <-lostCh:
			s.loseOnce()
		case <-s.done:
		}
	})
	return nil
}

// prepareSession creates the isolated browser context and sets where
// downloads go.
func (b *Browser) prepareSession(ctx context.Context, s *session) error {
	if err := b.readDefaultUA(ctx, s); err != nil {
		return err
	}
	// Target events tell the tabs about the tabs they open.
	if err := chromedp.ListenBrowser(s.ctx, s.countPageEvents); err != nil {
		return fmt.Errorf("following the tabs: %w", err)
	}
	if _, err := cdp.Call(ctx, s.browser, target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err != nil {
		return fmt.Errorf("following the tabs: %w", err)
	}
	if b.opts.Isolated {
		// Disposed with the connection too, should this process die.
		params := target.CreateBrowserContextParams{DisposeOnDetach: new(true)}
		if b.egress != nil {
			// The context's requests leave through the egress.
			params.ProxyServer = b.egress.URL()
			params.ProxyBypassList = "<-loopback>"
		}
		res, err := cdp.Call(ctx, s.browser, target.CreateBrowserContext, params)
		if err != nil {
			return fmt.Errorf("creating an isolated browser context: %w", err)
		}
		s.bcID = res.BrowserContextID
	}
	if err := b.intercept(ctx, s); err != nil {
		return fmt.Errorf("guarding navigations: %w", err)
	}
	if s.attached && !b.opts.Isolated && b.opts.DownloadDir == "" {
		// A browser we attach to keeps its own download settings, unless
		// the tabs are ours alone or the user named a folder.
		return nil
	}
	dir, err := b.downloadDir()
	if err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, s.browser, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior:         cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName,
		BrowserContextID: s.bcID,
		DownloadPath:     dir,
		EventsEnabled:    new(true),
	}); err != nil {
		return fmt.Errorf("setting the download folder: %w", err)
	}
	return chromedp.ListenBrowser(s.ctx, b.downloads.handle)
}

// closeSession releases a session: closes its tabs (or the browser it
// launched), its browser context, its connection and its profile. It is
// also used for a session whose browser died.
// The caller holds sem, or runs it in the background with tabs taken
// from b.tabs while it held sem.
func (b *Browser) closeSession(s *session, tabs []*tab) {
	if s.persistent() {
		b.closeGracefully(s) // before done, which stops watching the process
	}
	s.doneOnce.Do(func() { close(s.done) })
	closeAll := func() {
		var wg sync.WaitGroup
		for _, t := range tabs {
			wg.Go(t.cancel)
		}
		wg.Wait()
	}
	var procErr error
	switch {
	case s.proc != nil:
		// A browser of our own is killed at once, with its helper
		// processes, and its temporary profile and folder removed: a
		// graceful close (up to a few seconds on a busy machine, or a
		// frozen browser) would add nothing.
		procErr = s.proc.Close()
		if s.ctx != nil {
			s.cancel()
			closeAll()
		}
	case s.ctx != nil && s.bcID != "" && s.alive():
		// Disposing of our browser context closes all its tabs.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if _, err := cdp.Call(ctx, s.browser, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: s.bcID}); err != nil {
			b.log.Debug("disposing of the browser context", "error", err)
		}
		cancel()
		closeAll()
	case s.ctx != nil:
		closeAll()
	}
	if s.ctx != nil {
		s.cancel() // closes the connection
	}
	if s.allocCancel != nil {
		s.allocCancel()
		if c := chromedp.FromContext(s.allocCtx); c != nil && c.Allocator != nil {
			c.Allocator.Wait()
		}
	}
	s.loseOnce()
	if s.icpt != nil {
		s.icpt.close()
	}
	if procErr != nil {
		b.log.Warn("removing the browser's folders", "error", procErr)
	}
}

// persistent reports whether the session's browser runs on the user's
// persistent profile (Options.UserDataDir), which must be closed
// gracefully and is kept.
func (s *session) persistent() bool {
	return s.proc != nil && s.proc.Persistent()
}

// profile is the profile folder of the launched browser, "" when attached.
func (s *session) profile() string {
	if s == nil || s.proc == nil {
		return ""
	}
	return s.proc.Profile
}

// closeStrays closes the blank tab a launched browser starts with, so that
// only the Browser's tabs are open. Attached browsers are left alone.
func (b *Browser) closeStrays(ctx context.Context) {
	if b.sess.attached {
		return
	}
	res, err := cdp.Call(ctx, b.sess.browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return
	}
	for _, info := range res.TargetInfos {
		if info.Type == "page" && info.OpenerID == "" && b.tabByTarget(info.TargetID) == nil {
			_, _ = cdp.Call(ctx, b.sess.browser, target.CloseTarget, target.CloseTargetParams{TargetID: info.TargetID})
		}
	}
}

// PID returns the process id of the Chromium this Browser launched (after
// a relaunch, the new one), or 0 when it attached to a browser. It is for
// supervisors and fault tests; it takes no lock of the calls.
func (b *Browser) PID() int { return int(b.pid.Load()) }
