package launcher

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// A program whose bounds are its product comes before the browser it
// drives. Chromium raises the priority of its busiest threads (a page's
// main thread, its compositor, its I/O threads) to nice -8 where it may,
// and as root it may: on a busy machine, or beside a page whose script
// spins, those threads take the processor from a program at an ordinary
// priority, and the timers that end its task at the bound fire seconds
// late. RaisePriority puts the program above that (the CLI: nice -10);
// Start starts each browser at an ordinary priority (nice 0) whatever the
// program's, so that only the threads Chromium itself raises run higher,
// and never as high as the program.

// BrowserMaxPriority is the highest priority (the lowest nice value)
// Chromium gives any of its threads where it may: a program that raises
// itself above it (RaisePriority) comes before its browsers.
const BrowserMaxPriority = -8

// keepOrdinary prepares the calling thread to start a browser: it lowers
// the thread's priority to nice 0 when it is higher (RaisePriority), since
// the browser inherits it. restore gives the thread its priority back once
// the browser started. The caller's thread must be locked.
func keepOrdinary() (restore func()) {
	p, err := unix.Getpriority(unix.PRIO_PROCESS, 0) // this thread; the kernel's 20-nice
	n := 20 - p
	if err != nil || n >= 0 {
		return func() {}
	}
	if unix.Setpriority(unix.PRIO_PROCESS, 0, 0) != nil {
		return func() {}
	}
	return func() { _ = unix.Setpriority(unix.PRIO_PROCESS, 0, n) }
}

// RaisePriority sets this program's priority to nice (every thread it has,
// and so those they start) where that is higher than the thread's own and
// the program may (root, or an RLIMIT_NICE that allows it). A program
// whose bounds are its product calls it first thing, with a nice value
// below BrowserMaxPriority, so that a busy machine and its own browsers
// cost its timers less; the browsers it starts after still start at an
// ordinary priority (Start). It returns an error when a thread could not
// be raised: the program then runs as it was.
func RaisePriority(nice int) error {
	// Threads started meanwhile inherit the priority of the thread that
	// started them: a second pass finds those started from one not yet
	// raised.
	for range 2 {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("launcher: raising the priority: %w", err)
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			p, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
			if err != nil || 20-p <= nice {
				continue
			}
			if err := unix.Setpriority(unix.PRIO_PROCESS, tid, nice); err != nil && !errors.Is(err, unix.ESRCH) {
				return fmt.Errorf("launcher: raising the priority to nice %d: %w", nice, err)
			}
		}
	}
	return nil
}
