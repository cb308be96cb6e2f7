package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/rs/zerolog"
)

// profilePrefix starts the name of each temporary profile directory.
const profilePrefix = "webagent-profile-"

// Launch starts Chromium, or attaches to a running browser when
// opts.CDPURL is set, and opens the tab the Browser works in. ctx bounds
// only the start-up; the browser lives until Close.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	if opts.Width <= 0 {
		opts.Width = 1280
	}
	if opts.Height <= 0 {
		opts.Height = 900
	}
	b := &Browser{
		log:    opts.Logger,
		width:  opts.Width,
		height: opts.Height,
		sem:    make(chan struct{}, 1),
		closed: make(chan struct{}),
	}
	b.broken, b.breakf = context.WithCancelCause(context.Background())

	var err error
	if opts.CDPURL != "" {
		err = b.attach(ctx, opts)
	} else {
		err = b.launch(ctx, opts)
	}
	if err != nil {
		b.shutdown()
		return nil, err
	}
	if err := b.setup(ctx); err != nil {
		b.shutdown()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("browser: starting: %w", ctx.Err())
		}
		return nil, fmt.Errorf("browser: setting up the tab: %w", err)
	}
	return b, nil
}

// launch starts a headless Chromium with a fresh profile and takes its
// first tab.
func (b *Browser) launch(ctx context.Context, opts Options) error {
	path, err := findChrome(opts.ChromePath)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return fmt.Errorf("browser: creating the profile: %w", err)
	}
	b.profileDir = dir

	// DefaultExecAllocatorOptions gives headless mode and Puppeteer's quiet
	// defaults; the flags below keep Chromium off the network on a machine
	// that has none. chromedp starts Chromium with Pdeathsig SIGKILL from a
	// goroutine locked to its thread (allocate_linux.go), so it dies with
	// this process even on SIGKILL; the option is kept by not setting
	// ModifyCmdFunc.
	allocOpts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(opts.Width, opts.Height),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("deny-permission-prompts", true),
		chromedp.CombinedOutput(&lineLogger{log: b.log}),
	)
	if os.Geteuid() == 0 {
		allocOpts = append(allocOpts, chromedp.NoSandbox)
	}
	if opts.Headful {
		allocOpts = append(allocOpts, chromedp.VisibleWindow)
	}
	b.allocCtx, b.allocCancel = chromedp.NewExecAllocator(context.Background(), allocOpts...)
	if err := b.startTab(ctx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("browser: starting %s: %w", path, ctx.Err())
		}
		return fmt.Errorf("browser: starting %s: %w", path, err)
	}
	b.process = b.cdpBrowser.Process()
	return nil
}

// attach connects to a running browser and opens a new tab in it.
func (b *Browser) attach(ctx context.Context, opts Options) error {
	b.attached = true
	b.allocCtx, b.allocCancel = remote.NewAllocator(context.Background(), opts.CDPURL)
	if err := b.startTab(ctx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("browser: attaching to %s: %w", opts.CDPURL, ctx.Err())
		}
		return fmt.Errorf("browser: attaching to %s: %w", opts.CDPURL, err)
	}
	return nil
}

// startTab starts the browser (or the connection) and attaches the tab. The
// first chromedp call binds the life of the browser and of the tab to its
// context, so it runs with the long-lived tabCtx; ctx only cancels it.
func (b *Browser) startTab(ctx context.Context) error {
	log := b.log
	tabCtx, cancel := chromedp.NewContext(b.allocCtx, chromedp.WithBrowserOption(
		chromedp.WithBrowserLogf(func(f string, a ...any) { log.Debug().Msgf("chromedp: "+f, a...) }),
		chromedp.WithBrowserErrorf(func(f string, a ...any) { log.Warn().Msgf("chromedp: "+f, a...) }),
	))
	// chromedp's cancel func must run once: a second call can wait for
	// ever when the browser never started.
	b.tabCtx, b.tabCancel = tabCtx, sync.OnceFunc(cancel)
	stop := context.AfterFunc(ctx, b.tabCancel)
	err := chromedp.Do(b.tabCtx)
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	c := chromedp.FromContext(b.tabCtx)
	b.target, b.cdpBrowser = c.Target, c.Browser
	return nil
}

// setup starts following the tab's events and sets the viewport.
func (b *Browser) setup(ctx context.Context) error {
	tree, err := cdp.Call(ctx, b.target, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	main := tree.FrameTree.Frame
	b.nav = newNavTracker(b.target.TargetID, main.ID, main.LoaderID, main.URL, b.breakf)
	if err := chromedp.Listen(b.tabCtx, b.nav.handle); err != nil {
		return err
	}
	if err := chromedp.ListenBrowser(b.tabCtx, b.nav.handleBrowser); err != nil {
		return err
	}
	// Subscribe before anything can open a dialog; range in the goroutine.
	dialogs := chromedp.Events(b.tabCtx, page.JavascriptDialogOpening)
	b.wg.Go(func() { b.answerDialogs(b.tabCtx, dialogs) })
	lost := b.cdpBrowser.LostConnection
	b.wg.Go(func() {
		select {
		case <-lost:
			b.breakf(ErrDisconnected)
		case <-b.closed:
		}
	})

	if _, err := cdp.Call(ctx, b.target, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(b.width), Height: int64(b.height), DeviceScaleFactor: 1,
	}); err != nil {
		return err
	}
	if !b.attached {
		// Downloads would land in the user's directory; the agent cannot
		// use them. A browser we attach to keeps its own settings.
		if _, err := cdp.Call(ctx, b.cdpBrowser, cdpbrowser.SetDownloadBehavior,
			cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny}); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the tab and, for a launched browser, stops Chromium, waits
// for it to exit and removes its profile. A browser attached to with
// Options.CDPURL keeps running; only the tab opened by Launch is closed.
// Close is idempotent; calls still running fail with ErrClosed.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		b.breakf(ErrClosed)
		close(b.closed)
		// The call in progress, if any, ends at once: its context ended
		// with b.broken. Holding sem keeps later calls out.
		b.sem <- struct{}{}
		b.closeErr = b.shutdown()
	})
	return b.closeErr
}

// shutdown releases everything Launch acquired, also after a failed start.
func (b *Browser) shutdown() error {
	var errs []error
	if b.tabCtx != nil {
		if !b.attached && b.target != nil {
			// A graceful close lets Chromium stop its helper processes.
			ctx, cancel := context.WithTimeout(b.tabCtx, 5*time.Second)
			if err := chromedp.Cancel(ctx); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				b.log.Debug().Err(err).Msg("closing the browser gracefully")
			}
			cancel()
		}
		// Closes our tab (attached) or kills the browser and waits for it
		// to exit (launched).
		b.tabCancel()
	}
	if b.allocCancel != nil {
		b.allocCancel()
		if c := chromedp.FromContext(b.allocCtx); c != nil && c.Allocator != nil {
			c.Allocator.Wait()
		}
	}
	if b.broken != nil {
		b.breakf(ErrClosed)
	}
	b.wg.Wait()
	if b.profileDir != "" {
		killLeftovers(b.profileDir)
		if err := removeAll(b.profileDir); err != nil {
			errs = append(errs, fmt.Errorf("browser: removing the profile: %w", err))
		}
	}
	return errors.Join(errs...)
}

// findChrome returns the browser binary to run.
func findChrome(path string) (string, error) {
	if path == "" {
		path = os.Getenv("CHROME_PATH")
	}
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("%w (%v)", ErrChromeNotFound, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrChromeNotFound
}

// killLeftovers kills the processes that still use the profile dir. Chromium
// passes --user-data-dir to every helper process, and the directory is
// unique to this Browser. Helpers can outlive the main process for a moment,
// so it looks until a few passes in a row find none.
func killLeftovers(dir string) {
	deadline := time.Now().Add(2 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); {
		if n := killUsing(dir); n == 0 {
			quiet++
		} else {
			quiet = 0
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killUsing sends SIGKILL to the processes whose command line has
// --user-data-dir=dir and returns how many it found.
func killUsing(dir string) int {
	pids := processesUsing(dir)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return len(pids)
}

// processesUsing lists the processes whose command line has
// --user-data-dir=dir.
func processesUsing(dir string) []int {
	want := []byte("--user-data-dir=" + dir)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for arg := range bytes.SplitSeq(cmdline, []byte{0}) {
			if bytes.Equal(arg, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// removeAll removes dir, retrying for a moment: a dying helper process can
// still write into it.
func removeAll(dir string) error {
	deadline := time.Now().Add(3 * time.Second)
	for {
		err := os.RemoveAll(dir)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lineLogger writes Chromium's output to the logger at debug level, one
// entry per line.
type lineLogger struct {
	log zerolog.Logger
	mu  sync.Mutex
	buf []byte
}

func (w *lineLogger) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(w.buf[:i]); len(line) > 0 {
			w.log.Debug().Str("source", "chromium").Msg(string(line))
		}
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > 64<<10 {
		w.buf = w.buf[:0]
	}
	return len(p), nil
}
