// Package machinelock lets test binaries that `go test -p N ./...` runs
// side by side share the machine, except with a test that loads the
// machine itself to measure webagent's bounds against that load (busy
// processes at four per core): such a test holds the machine alone, and
// no other package's browser runs beside it, nor does its load slow
// another package's bounded tests down.
//
// A test binary that starts Chromium holds the machine shared (Shared,
// from its TestMain or the shared browser's start) until it exits; a
// test that loads the machine calls Exclusive, which waits for every
// other binary to finish (and keeps new ones from starting their
// browsers), and shares again at its end. The lock is an advisory flock
// on the module's go.mod, which every checkout has: nothing is created,
// and the kernel releases it when a binary exits, however it exits.
package machinelock

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// exclusiveWait is how long Exclusive waits for the other test binaries
// to finish: less than the README's -timeout, so that a wait that cannot
// end fails the test with a reason instead of the binary with a panic.
const exclusiveWait = 20 * time.Minute

var (
	mu   sync.Mutex
	file *os.File // go.mod, opened once; nil until Shared
	err  error
)

// open opens the module's go.mod, once.
func open() (*os.File, error) {
	if file != nil || err != nil {
		return file, err
	}
	dir, werr := os.Getwd()
	if werr != nil {
		err = werr
		return nil, err
	}
	for {
		f, oerr := os.Open(filepath.Join(dir, "go.mod"))
		if oerr == nil {
			file = f
			return file, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			err = fmt.Errorf("machinelock: no go.mod above the test's folder")
			return nil, err
		}
		dir = parent
	}
}

// Shared holds the machine shared until the binary exits (or Exclusive).
// It waits while a test of another binary holds it alone; calling it
// again does nothing. An error (no go.mod found) is returned, and the
// tests go on unlocked.
func Shared() error {
	mu.Lock()
	defer mu.Unlock()
	f, err := open()
	if err != nil {
		return err
	}
	return flock(f, syscall.LOCK_SH)
}

// Exclusive holds the machine for t alone: it waits, up to 20 minutes,
// for every other test binary to let it go, and at t's end shares it
// again. Call it from a serial test (no t.Parallel), which Go runs before
// its package's parallel tests.
func Exclusive(t testing.TB) {
	t.Helper()
	mu.Lock()
	f, err := open()
	mu.Unlock()
	if err != nil {
		t.Logf("running without the machine to itself: %v", err)
		return
	}
	if err := lockAlone(f, exclusiveWait); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := flock(f, syscall.LOCK_SH); err != nil {
			t.Errorf("sharing the machine again: %v", err)
		}
	})
}

// lockAlone takes f's lock alone, waiting up to wait.
func lockAlone(f *os.File, wait time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- flock(f, syscall.LOCK_EX) }()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("holding the machine alone: %w", err)
		}
		return nil
	case <-timer.C:
		return fmt.Errorf("other test binaries kept the machine for %s; this test measures against its own load and needs it alone", wait)
	}
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}
