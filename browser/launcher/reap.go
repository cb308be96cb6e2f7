package launcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The reaper: a program that must exit at its bound (the CLI, at the
// task's bound or a signal) kills its browser and goes, and a browser's
// helpers take a moment to die, its folders longer to remove on a busy
// machine. Abandon hands that end to a small process of its own: this
// program's binary again, started detached with the work in its
// environment, which the package's init turns into the reaper before
// main runs. It waits for the processes still using the profile to end,
// removes the folders, and exits, within reapBudget whatever happens; it
// starts nothing and leaves nothing.

// reapEnv carries the reaper's work (a reapOrder in JSON).
const reapEnv = "WEBAGENT_LAUNCHER_REAP"

// reapBudget bounds the reaper's whole life.
const reapBudget = 10 * time.Second

// reapOrder is what a reaper ends.
type reapOrder struct {
	// Profile names the browser's processes: those whose command line has
	// --user-data-dir=Profile are killed and waited for. Empty for none.
	Profile string `json:"profile,omitempty"`
	// Dirs are removed once those processes are gone.
	Dirs []string `json:"dirs"`
	// Watch, when set, is a process to outlive: the reaper waits for it to
	// end, however it ends, then removes the temporary folders it left
	// (SweepLeftovers), within reapBudget.
	Watch int `json:"watch,omitempty"`
}

func init() {
	if order := os.Getenv(reapEnv); order != "" {
		os.Exit(reapMain(order))
	}
}

// reapMain is the reaper's main: 0 when all is ended and removed.
func reapMain(order string) int {
	var o reapOrder
	if err := json.Unmarshal([]byte(order), &o); err != nil {
		return 2
	}
	if o.Watch > 0 {
		waitEnd(o.Watch)
		SweepLeftovers()
		return 0
	}
	if err := reap(o, time.Now().Add(reapBudget)); err != nil {
		return 1
	}
	return 0
}

// reap ends what o names by deadline.
func reap(o reapOrder, deadline time.Time) error {
	if o.Profile != "" {
		if left := endUsing(o.Profile, deadline); left > 0 {
			return fmt.Errorf("%d processes still use %s", left, o.Profile)
		}
	}
	// Nothing writes into the folders any more: their processes are gone.
	var errs []error
	for _, d := range o.Dirs {
		errs = append(errs, removeOwnerLast(d))
	}
	return errors.Join(errs...)
}

// endUsing kills the processes using the profile dir and waits, by
// deadline, for each to end (on its pidfd, not by polling), until a look
// finds none. It returns how many were left at the deadline.
func endUsing(dir string, deadline time.Time) int {
	for {
		pids := ProcessesUsing(dir)
		if len(pids) == 0 {
			return 0
		}
		for _, pid := range pids {
			waitKilled(pid, deadline)
		}
		if time.Now().After(deadline) {
			return len(ProcessesUsing(dir))
		}
	}
}

// waitKilled sends SIGKILL to pid and waits, by deadline, for it to end.
func waitKilled(pid int, deadline time.Time) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL) // gone already, or no pidfd: the next look tells
		return
	}
	defer unix.Close(fd)
	_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	for {
		ms := time.Until(deadline).Milliseconds()
		if ms <= 0 {
			return
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(ms))
		if n > 0 || (err != nil && !errors.Is(err, unix.EINTR)) {
			return
		}
	}
}

// waitEnd waits for pid to end, on its pidfd.
func waitEnd(pid int) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return // gone already
	}
	defer unix.Close(fd)
	for {
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, -1)
		if n > 0 || (err != nil && !errors.Is(err, unix.EINTR)) {
			return
		}
	}
}

// SweepOnExit starts a detached process that outlives this one and, when
// it ends, however it ends (SIGKILL too), removes the temporary folders it
// left (SweepLeftovers): for a long-lived program, a session that keeps a
// browser for hours, whose end a later run must not have to clean up
// after. Its browser dies with it (Start). It returns at once.
// One watcher serves the whole process, however many times it is asked.
func SweepOnExit() error {
	sweepOnExit.once.Do(func() { sweepOnExit.err = startReaper(reapOrder{Watch: os.Getpid()}) })
	return sweepOnExit.err
}

var sweepOnExit struct {
	once sync.Once
	err  error
}

// startReaper starts a detached reaper for o and returns at once: its own
// session, so that a terminal's Ctrl-C does not reach it. A goroutine
// collects its exit, so that a program that lives on keeps no zombie.
func startReaper(o reapOrder) error {
	order, err := json.Marshal(o)
	if err != nil {
		return err
	}
	// /proc/self/exe is this binary even when its file was replaced or
	// removed since it started.
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = append(os.Environ(), reapEnv+"="+string(order))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("browser: starting the reaper of %v: %w", o.Dirs, err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// Abandon ends the browser for a program about to exit: it kills the
// browser's processes at once and hands the rest of Close (waiting for
// the helpers to end, removing the temporary profile, the TMPDIR and the
// folders extra) to a detached reaper, then returns without waiting. A
// persistent profile is kept. The folders are gone within moments of the
// reaper's start (reapBudget at most), also when this program has exited
// by then. Close after Abandon does nothing; Abandon after Close neither.
//
// When the reaper cannot be started, Abandon returns the error and the
// folders are left to the next Start's sweep, as after SIGKILL.
func (p *Process) Abandon(extra ...string) error {
	var err error
	p.closeOnce.Do(func() {
		if p.cmd.Process != nil {
			_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			_ = p.cmd.Process.Kill()
		}
		o := reapOrder{Dirs: extra}
		if p.temp {
			o.Profile = p.Profile
			o.Dirs = append(o.Dirs, p.Profile)
		}
		if p.tempDir != "" {
			o.Dirs = append(o.Dirs, p.tempDir)
		}
		err = startReaper(o)
		p.closeErr = err
		// Xvfb is stopped as Close does (it is there only for a browser
		// with a window), and the pipes closed, without holding up the
		// caller: a pipe's Close waits for a write Chromium no longer
		// reads.
		go func() {
			p.display.close()
			p.closePipes()
		}()
	})
	return err
}
