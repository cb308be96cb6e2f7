package browser

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
)

// Server is a headless Chromium that listens for DevTools connections on a
// loopback port, so that many Browsers can share one process, each in a
// browser context of its own:
//
//	srv, err := browser.StartServer(ctx, browser.Options{})
//	b, err := browser.Launch(ctx, browser.Options{CDPURL: srv.URL, Isolated: true})
//
// Attaching a tab this way costs a fraction of launching a Chromium. The
// eval harness runs one Server per worker.
type Server struct {
	// URL is the browser's DevTools WebSocket address
	// (ws://127.0.0.1:PORT/devtools/browser/ID).
	URL string

	cmd  *exec.Cmd
	dir  string
	temp string // Chromium's TMPDIR (tempdir.go); "" for the system's
	done chan struct{}
	once sync.Once
}

// serverFlags are Chromium's switches for a Server: quiet, headless-ready,
// and off the network (this machine has none; Chromium would keep trying).
var serverFlags = []string{
	"--no-first-run", "--no-default-browser-check", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--disable-quic", "--disable-gpu",
	"--disable-extensions", "--disable-default-apps", "--disable-dev-shm-usage",
	"--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows",
	"--disable-renderer-backgrounding", "--disable-features=" + disabledFeatures,
	"--deny-permission-prompts", "--mute-audio", "--hide-scrollbars", "--password-store=basic",
	"--use-mock-keychain", "--disable-breakpad", "--disable-crash-reporter", "--no-crashpad",
}

// StartServer starts Chromium with a fresh profile and waits, until ctx
// ends, for its DevTools address. Of opts it uses ChromePath, Headful, Width
// and Height. The process dies with this one, even on SIGKILL.
func StartServer(ctx context.Context, opts Options) (*Server, error) {
	path, err := findChrome(opts.ChromePath)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return nil, fmt.Errorf("browser: creating the profile: %w", err)
	}
	w, h := opts.Width, opts.Height
	if w <= 0 || h <= 0 {
		w, h = defaultWidth, defaultHeight
	}
	args := append([]string{
		"--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
		"--user-data-dir=" + dir, fmt.Sprintf("--window-size=%d,%d", w, h),
	}, serverFlags...)
	if !opts.Headful {
		args = append(args, "--headless=new")
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	args = append(args, "about:blank")
	cmd := exec.Command(path, args...)
	// Its own process group, so that Close kills the helpers too; and the
	// parent-death signal, so that it dies with this process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	temp, tempEnv := newChromeTemp()
	if tempEnv != "" {
		cmd.Env = append(os.Environ(), tempEnv)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(dir)
		removeTemp(temp)
		return nil, err
	}
	s := &Server{cmd: cmd, dir: dir, temp: temp, done: make(chan struct{})}

	// Pdeathsig fires when the OS thread that started the child ends, not
	// the process: start and wait on one locked thread, which lives as long
	// as Chromium does.
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait()
		close(s.done)
	}()
	if err := <-started; err != nil {
		os.RemoveAll(dir)
		removeTemp(temp)
		return nil, fmt.Errorf("browser: starting %s: %w", path, err)
	}

	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var out []string
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if i := strings.Index(line, "ws://"); i >= 0 && !sent && strings.Contains(line, "DevTools listening") {
				found <- strings.TrimSpace(line[i:])
				sent = true
			} else if !sent && len(out) < 20 {
				out = append(out, line)
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		if !sent {
			found <- "\x00" + strings.Join(out, "\n")
		}
	}()
	select {
	case u := <-found:
		if out, failed := strings.CutPrefix(u, "\x00"); failed {
			s.Close()
			return nil, fmt.Errorf("browser: chrome failed to start: %s exited without a DevTools address:\n%s", path, out)
		}
		s.URL = u
		return s, nil
	case <-ctx.Done():
		s.Close()
		return nil, fmt.Errorf("browser: starting %s: %w", path, ctx.Err())
	}
}

// Alive reports whether the process still runs.
func (s *Server) Alive() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// PID is the browser process's id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Close kills Chromium and its helpers, waits for it to exit and removes
// the profile. It is idempotent.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		if s.cmd.Process != nil {
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			_ = s.cmd.Process.Kill()
		}
		<-s.done
		// Helpers can outlive the main process for a moment.
		killLeftovers(s.dir)
		if rerr := os.RemoveAll(s.dir); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = fmt.Errorf("browser: removing the profile: %w", rerr)
		}
		if rerr := removeTemp(s.temp); rerr != nil && err == nil {
			err = fmt.Errorf("browser: removing its temporary folder: %w", rerr)
		}
	})
	return err
}
