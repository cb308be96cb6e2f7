package browser

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"log/slog"

	"github.com/chromedp/chromedp"
)

// profilePrefix starts the name of each temporary profile directory.
const profilePrefix = "webagent-profile-"

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
	if err := checkSettings(&opts); err != nil { // settings.go
		return nil, err
	}
	state, err := loadStorageStateOpt(opts.StorageState) // storagestate.go
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
		width:  opts.Width,
		height: opts.Height,
		sem:    make(chan struct{}, 1),
		closed: make(chan struct{}),
	}
	b.broken, b.breakf = context.WithCancelCause(context.Background())
	b.uploadDir = opts.UploadDir // actions: upload

	b.opts = opts
	b.downloads.init(b)
	b.guard.files = opts.AllowFileURLs

	sess, err := b.startSession(ctx)
	if err != nil {
		b.shutdown()
		return nil, err
	}
	b.sess = sess
	b.syncSession()
	t, err := b.newTab(ctx, sess, b.nextTabID())
	if err != nil {
		b.shutdown()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("browser: starting: %w", ctx.Err())
		}
		return nil, fmt.Errorf("browser: setting up the tab: %w", err)
	}
	b.tabs = []*tab{t}
	b.setCurrent(t)
	b.closeStrays(ctx)
	if err := b.setupSnapshot(ctx, opts); err != nil { // snapshot.go
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

// disabledFeatures are the Chromium features webagent's browsers run
// without (--disable-features). DeferRendererTasksAfterInput holds a page's
// tasks back after a click or key until the next frame is drawn, which
// makes a user's next paint come sooner; for an agent it only delays
// seeing what the input did (a form's navigation, a handler's timer) by up
// to a frame, about 17 ms an action. Chromium's own order of tasks and
// frames before that feature is what the page gets.
const disabledFeatures = "Translate,MediaRouter,DeferRendererTasksAfterInput"

// launchProcess starts a headless Chromium with a fresh profile.
func (b *Browser) launchProcess(ctx context.Context, s *session) error {
	opts := b.opts
	path, err := findChrome(opts.ChromePath)
	if err != nil {
		return err
	}
	dir, err := b.profile(s) // profile.go
	if err != nil {
		return err
	}
	tempDir, tempEnv := newChromeTemp() // tempdir.go
	s.tempDir = tempDir

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
		chromedp.Flag("disable-features", disabledFeatures),
		chromedp.CombinedOutput(&lineLogger{log: b.log}),
	)
	for name, v := range settingFlags(opts) { // settings.go
		allocOpts = append(allocOpts, chromedp.Flag(name, v))
	}
	if os.Geteuid() == 0 {
		allocOpts = append(allocOpts, chromedp.NoSandbox)
	}
	if opts.Headful {
		allocOpts = append(allocOpts, chromedp.VisibleWindow)
	}
	if tempEnv != "" {
		allocOpts = append(allocOpts, chromedp.Env(tempEnv))
	}
	s.allocCtx, s.allocCancel = chromedp.NewExecAllocator(context.Background(), allocOpts...)
	if err := b.connect(ctx, s); err != nil {
		return startError(ctx, path, err) // launcherr.go
	}
	s.process = s.browser.Process()
	// The connection may outlive a killed browser for a while (helper
	// processes can hold the pipe open); its exit is what tells.
	b.wg.Go(func() { watchProcess(s) })
	return nil
}

// watchProcess marks the session lost when its browser process exits. It
// polls: chromedp owns the process's Wait, which also waits for the output
// pipes that dying helper processes may hold open.
func watchProcess(s *session) {
	pid := s.process.Pid
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-s.lost.Done():
			return
		case <-tick.C:
		}
		if !processRunning(pid) {
			s.loseOnce()
			return
		}
	}
}

// processRunning reports whether the process exists and is not a zombie.
func processRunning(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...: the state follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return true
	}
	return stat[i+2] != 'Z' && stat[i+2] != 'X'
}

// syncSession copies the current session's fields that other files and
// tests read. The caller holds sem (or is Launch).
func (b *Browser) syncSession() {
	b.cdpBrowser = b.sess.browser
	b.process = b.sess.process
	b.pidMu.Lock()
	b.pid = b.sess.process
	b.pidMu.Unlock()
	b.profileDir = b.sess.profileDir
	b.attached = b.sess.attached
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
		saveErr := b.saveOnClose() // storagestate.go
		b.closeErr = errors.Join(saveErr, b.shutdown())
	})
	return b.closeErr
}

// shutdown releases everything Launch acquired, also after a failed start.
func (b *Browser) shutdown() error {
	var errs []error
	if b.sess != nil {
		b.closeSession(b.sess, b.tabs)
		if b.sess.profileDir != "" && !b.sess.keepProfile {
			if _, err := os.Stat(b.sess.profileDir); err == nil {
				errs = append(errs, fmt.Errorf("browser: removing the profile: %s is still there", b.sess.profileDir))
			}
		}
	}
	for _, t := range b.tabs {
		t.cancel()
	}
	if b.broken != nil {
		b.breakf(ErrClosed)
	}
	b.wg.Wait()
	if err := b.downloads.close(); err != nil {
		errs = append(errs, err)
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
	log *slog.Logger
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
			w.log.Debug(string(line), "source", "chromium")
		}
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > 64<<10 {
		w.buf = w.buf[:0]
	}
	return len(p), nil
}
