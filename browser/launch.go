package browser

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"

	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/browser/launcher"
)

// The default viewport, in CSS pixels.
const (
	defaultWidth  = 1280
	defaultHeight = 900
)

// Launch starts Chromium, or attaches to a running browser when
// opts.CDPURL is set, and opens the tab the Browser works in. ctx bounds
// only the start-up; the browser lives until Close.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	if err := checkThrottle(opts.CPUThrottle); err != nil {
		return nil, err
	}
	if err := checkSettings(&opts); err != nil {
		return nil, err
	}
	state, err := loadStorageStateOpt(opts.StorageState)
	if err != nil {
		return nil, err
	}
	if opts.Width <= 0 {
		opts.Width = defaultWidth
	}
	if opts.Height <= 0 {
		opts.Height = defaultHeight
	}
	b := &Browser{
		log:    cmp.Or(opts.Logger, slog.New(slog.DiscardHandler)),
		opts:   opts,
		width:  opts.Width,
		height: opts.Height,
		calls:  calls{sem: make(chan struct{}, 1), closed: make(chan struct{})},
		worlds: worlds{page: opts.Observable},
	}
	b.broken, b.breakf = context.WithCancelCause(context.Background())
	b.downloads.init(b)
	if opts.AllowFileURLs {
		b.guard.AllowFileURLs()
	}
	if opts.CDPURL == "" || opts.Isolated {
		if b.egress, err = startEgress(b); err != nil {
			return nil, err
		}
	}

	sess, err := b.startSession(ctx)
	if err != nil {
		b.shutdown()
		return nil, err
	}
	b.useSession(sess)
	t, err := b.newTab(ctx, sess, b.nextTabID())
	if err != nil {
		b.abandonOnCancel(ctx, sess.proc)
		b.shutdown()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("browser: starting: %w", ctx.Err())
		}
		return nil, fmt.Errorf("browser: setting up the tab: %w", err)
	}
	b.tabs = []*tab{t}
	b.setCurrent(t)
	b.closeStrays(ctx)
	if err := b.setupSnapshot(ctx, opts); err != nil {
		b.shutdown()
		return nil, fmt.Errorf("browser: setting up the snapshot: %w", err)
	}
	if state != nil {
		if err := b.applyStorageState(ctx, state); err != nil {
			b.shutdown()
			return nil, fmt.Errorf("browser: loading the storage state %s: %w", opts.StorageState, err)
		}
	}
	return b, nil
}

// launchProcess starts a Chromium (package launcher) and connects to it
// over its DevTools pipes: no port is opened, so no other program can
// reach the browser the agent types into.
func (b *Browser) launchProcess(ctx context.Context, s *session) error {
	opts := b.opts
	flags := launcher.BrowserFlags(!opts.Headful)
	ordinary, hints := ordinaryFlags(ctx, opts, b.log)
	maps.Copy(flags, ordinary)
	b.hints = hints
	maps.Copy(flags, settingFlags(opts))
	if b.egress != nil {
		// Every request leaves through the egress, which takes the user's
		// proxy as its own way out.
		flags["proxy-server"] = b.egress.URL()
		flags["proxy-bypass-list"] = "<-loopback>"
	}
	p, err := launcher.Start(ctx, launcher.Config{Path: opts.ChromePath, UserDataDir: opts.UserDataDir, Flags: flags, Logger: b.log, Pipe: true})
	if err != nil {
		return err
	}
	s.proc = p
	s.pipe = chromedp.NewPipeConn(p.Pipe())
	s.allocCtx, s.allocCancel = chromedp.NewAllocatorContext(context.Background(), pipeAllocator{s.pipe, b.opts.Observable})
	if err := b.connect(ctx, s); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("browser: starting the browser: %w", ctx.Err())
		}
		if failed := p.StartError(); failed != nil {
			return failed
		}
		return fmt.Errorf("browser: connecting to the browser: %w", err)
	}
	// The connection may outlive a killed browser for a while (helper
	// processes can hold it open); its exit is what tells.
	b.wg.Go(func() {
		select {
		case <-p.Done():
			s.loseOnce()
		case <-s.done:
		case <-s.lost.Done():
		}
	})
	return nil
}

// pipeAllocator hands chromedp the DevTools connection of a browser that
// launcher started. It starts nothing: to chromedp the browser is one to
// attach to, whose life is the launcher's.
type pipeAllocator struct {
	conn *chromedp.PipeConn
	loud bool // quietConn's
}

func (a pipeAllocator) Allocate(ctx context.Context, opts ...chromedp.BrowserOption) (*chromedp.Browser, error) {
	return chromedp.NewBrowserTransport(ctx, quietConn{a.conn, a.loud}, opts...)
}

// Wait satisfies chromedp.Allocator: the process is the launcher's.
func (pipeAllocator) Wait() {}

// Attaches satisfies chromedp.Attacher.
func (pipeAllocator) Attaches() bool { return true }

// useSession makes s the Browser's session. The caller holds sem (or is
// Launch).
func (b *Browser) useSession(s *session) {
	b.sess = s
	pid := 0
	if s.proc != nil {
		pid = s.proc.PID()
	}
	b.pid.Store(int64(pid))
	b.proc.Store(s.proc)
}

// Close closes the Browser's tabs and, for a launched browser, stops
// Chromium, waits for it to exit and removes its profile. A browser
// attached to with Options.CDPURL keeps running; only the tabs of this
// Browser are closed (with Options.Isolated, its browser context is
// disposed of). Close is idempotent; calls still running fail with
// ErrClosed.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		b.breakf(ErrClosed)
		close(b.closed)
		// The call in progress, if any, ends at once: its context ended
		// with b.broken. Holding sem keeps later calls out.
		b.sem <- struct{}{}
		saveErr := b.saveOnClose()
		b.closeErr = errors.Join(saveErr, b.shutdown())
	})
	return b.closeErr
}

// Abandon ends the browser for a program about to exit, without waiting:
// it kills Chromium and hands the removal of its temporary folders (the
// profile, its TMPDIR, the download folder) to a detached reaper process
// that outlives the program only for that, a few seconds at most
// (launcher.Process.Abandon); the rest of Close (the connection, the tabs,
// the egress proxy) goes on in the background. A program that lives on
// should call Close instead.
//
// A browser that writes something the user keeps as it closes (a
// persistent profile, Options.SaveStorageState) or that was attached to,
// not launched, is closed by Close, waiting. Like Close, Abandon is
// idempotent, and calls still running fail with ErrClosed.
func (b *Browser) Abandon() error {
	p := b.proc.Load()
	if p == nil || p.Persistent() || b.opts.SaveStorageState != "" {
		return b.Close()
	}
	b.closeOnce.Do(func() {
		b.breakf(ErrClosed)
		close(b.closed)
		b.closeErr = p.Abandon(b.downloads.handOff()...)
		go func() {
			// The process and the folders are the reaper's now: Close of
			// the process does nothing, the download folder is not ours.
			b.sem <- struct{}{}
			_ = b.shutdown()
		}()
	})
	return b.closeErr
}

// shutdown releases everything Launch acquired, also after a failed start.
func (b *Browser) shutdown() error {
	var errs []error
	if b.sess != nil {
		b.closeSession(b.sess, b.tabs)
		if dir := b.sess.profile(); dir != "" && !b.sess.persistent() {
			if _, err := os.Stat(dir); err == nil {
				errs = append(errs, fmt.Errorf("browser: removing the profile: %s is still there", dir))
			}
		}
	}
	for _, t := range b.tabs {
		t.cancel()
	}
	if b.broken != nil {
		b.breakf(ErrClosed)
	}
	if b.egress != nil {
		b.egress.Close()
	}
	b.wg.Wait()
	if err := b.downloads.close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
