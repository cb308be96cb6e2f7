package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// profile returns the user-data-dir of a browser to launch: a new
// temporary one, removed on Close, or the persistent Options.UserDataDir,
// which is kept, and refused while another browser holds it.
func (b *Browser) profile(s *session) (string, error) {
	if b.opts.UserDataDir == "" {
		dir, err := os.MkdirTemp("", profilePrefix)
		if err != nil {
			return "", fmt.Errorf("browser: creating the profile: %w", err)
		}
		s.profileDir = dir
		return dir, nil
	}
	dir, err := filepath.Abs(b.opts.UserDataDir)
	if err != nil {
		return "", fmt.Errorf("browser: the profile folder %s: %w", b.opts.UserDataDir, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", &ConfigError{Problem: fmt.Sprintf("the profile folder %s cannot be created (%v)", dir, err), Fix: "pass a folder you can write to as --user-data-dir", Err: err}
	}
	if err := profileFree(dir); err != nil {
		return "", err
	}
	s.profileDir, s.keepProfile = dir, true
	return dir, nil
}

// profileFree returns a *ConfigError when a running browser holds the
// profile folder: Chromium's SingletonLock names a live process of this
// machine, or a process runs with --user-data-dir=dir.
func profileFree(dir string) error {
	inUse := func(who string) error {
		return &ConfigError{
			Problem: fmt.Sprintf("the profile folder %s is in use by %s", dir, who),
			Fix:     "close that browser first, or pass another --user-data-dir (two browsers cannot share a profile)",
		}
	}
	if pids := processesUsing(dir); len(pids) > 0 {
		return inUse(fmt.Sprintf("another browser (process %d)", pids[0]))
	}
	target, err := os.Readlink(filepath.Join(dir, "SingletonLock"))
	if err != nil {
		return nil // no lock: free
	}
	// The lock reads host-pid; a lock of a dead process, or of another
	// machine sharing the folder, is Chromium's to judge.
	i := strings.LastIndexByte(target, '-')
	if i < 0 {
		return nil
	}
	pid, err := strconv.Atoi(target[i+1:])
	host, _ := os.Hostname()
	if err != nil || target[:i] != host || !processRunning(pid) {
		return nil
	}
	return inUse(fmt.Sprintf("a running browser (process %d, from its SingletonLock)", pid))
}

// gracefulCloseTimeout bounds a persistent profile's graceful close, after
// which the browser is killed.
const gracefulCloseTimeout = 5 * time.Second

// closeGracefully asks a browser with a persistent profile to close, so
// that it writes its cookies and storage to the profile, and waits for it
// to exit, at most gracefulCloseTimeout; closeSession kills what is left.
func (b *Browser) closeGracefully(s *session) {
	if s.attached || s.ctx == nil || s.process == nil || !s.alive() {
		return
	}
	start := time.Now()
	deadline := time.NewTimer(gracefulCloseTimeout)
	defer deadline.Stop()
	// chromedp.Cancel sends Browser.close (chromedp refuses it as a plain
	// command) and waits for the process, bounded by cctx; its wait may
	// outlast the process while helpers hold its output open, until
	// closeSession kills them.
	cctx, ccancel := context.WithTimeout(s.ctx, gracefulCloseTimeout)
	b.wg.Go(func() {
		defer ccancel()
		if err := chromedp.Cancel(cctx); err != nil {
			b.log.Debug("closing the browser gracefully", "error", err)
		}
	})
	select {
	case <-s.lost.Done(): // the process exited, or its connection closed
	case <-deadline.C:
		b.log.Warn("the browser did not close within 5s; killing it (the profile may miss the last changes)", "dir", s.profileDir)
		return
	}
	b.waitExit(s.process.Pid, deadline.C) // the connection may close first
	b.log.Debug("browser closed gracefully", "took", time.Since(start))
}

// waitExit waits until the process pid has exited, or until stop. chromedp
// owns the process's Wait, so it watches /proc.
func (b *Browser) waitExit(pid int, stop <-chan time.Time) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for processRunning(pid) {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}
