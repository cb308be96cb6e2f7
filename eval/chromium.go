package eval

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/webagent/webagent/browser"
)

// chromium is a headless Chromium the harness starts for one worker. Each
// run attaches to it over CDP with browser.Options.Isolated, so it gets a
// tab in a browser context of its own (own cookies, storage and cache),
// which is much cheaper than launching a Chromium per run.
type chromium struct {
	URL  string // ws://127.0.0.1:PORT/devtools/browser/ID
	cmd  *exec.Cmd
	dir  string
	done chan struct{}
	once sync.Once
}

// chromiumPrefix starts the name of each profile directory, in $TMPDIR.
const chromiumPrefix = "webagent-eval-profile-"

// findChromium returns the browser binary, as package browser finds it.
func findChromium(path string) (string, error) {
	if path == "" {
		path = os.Getenv("CHROME_PATH")
	}
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("%w (%v)", browser.ErrChromeNotFound, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", browser.ErrChromeNotFound
}

// startChromium starts Chromium with a fresh profile and waits for its
// DevTools address.
func startChromium(ctx context.Context, opts browser.Options) (*chromium, error) {
	path, err := findChromium(opts.ChromePath)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", chromiumPrefix)
	if err != nil {
		return nil, err
	}
	w, h := opts.Width, opts.Height
	if w <= 0 || h <= 0 {
		w, h = 1280, 900
	}
	args := []string{
		"--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
		"--user-data-dir=" + dir, fmt.Sprintf("--window-size=%d,%d", w, h),
		"--no-first-run", "--no-default-browser-check", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-quic", "--disable-gpu",
		"--disable-extensions", "--disable-default-apps", "--disable-dev-shm-usage",
		"--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows",
		"--disable-renderer-backgrounding", "--disable-features=Translate,MediaRouter",
		"--deny-permission-prompts", "--mute-audio", "--hide-scrollbars", "--password-store=basic",
		"--use-mock-keychain", "--disable-breakpad", "--disable-crash-reporter", "--no-crashpad",
	}
	if !opts.Headful {
		args = append(args, "--headless=new")
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	args = append(args, "about:blank")
	cmd := exec.Command(path, args...)
	// Its own process group, so that Close kills the helpers too; and it
	// dies with this process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	c := &chromium{cmd: cmd, dir: dir, done: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if i := strings.Index(line, "ws://"); i >= 0 && !sent && strings.Contains(line, "DevTools listening") {
				found <- strings.TrimSpace(line[i:])
				sent = true
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		if !sent {
			close(found)
		}
	}()
	go func() {
		_ = cmd.Wait()
		close(c.done)
	}()
	select {
	case u, ok := <-found:
		if !ok {
			c.Close()
			return nil, fmt.Errorf("starting %s: it exited without a DevTools address", path)
		}
		c.URL = u
		return c, nil
	case <-ctx.Done():
		c.Close()
		return nil, fmt.Errorf("starting %s: %w", path, ctx.Err())
	case <-time.After(30 * time.Second):
		c.Close()
		return nil, fmt.Errorf("starting %s: no DevTools address after 30s", path)
	}
}

// Alive reports whether the process still runs.
func (c *chromium) Alive() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// Close kills Chromium and its helpers, waits for it and removes the
// profile.
func (c *chromium) Close() {
	c.once.Do(func() {
		if c.cmd.Process != nil {
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
			_ = c.cmd.Process.Kill()
		}
		<-c.done
		for range 50 {
			err := os.RemoveAll(c.dir)
			if err == nil || !errors.Is(err, syscall.ENOTEMPTY) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}
