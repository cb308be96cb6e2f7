package session

import (
	"context"
	"fmt"
	"os"
	"syscall"
)

// lockWait takes the lock file at path, waiting for it until ctx ends,
// and returns its release, which removes the file and then lets the lock
// go: a session leaves no lock files behind. A waiter that gets the lock
// of a file removed meanwhile (or replaced) sees that the file at path is
// no longer the one it holds, and takes the lock again on the new one.
func lockWait(ctx context.Context, path string) (func(), error) {
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return nil, err
		}
		got := make(chan error, 1)
		go func() { got <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
		select {
		case err := <-got:
			if err != nil {
				f.Close()
				return nil, err
			}
		case <-ctx.Done():
			// A lock that comes later is let go at once.
			go func() { <-got; f.Close() }()
			return nil, fmt.Errorf("waiting for another client starting the session: %w", ctx.Err())
		}
		if sameFile(f, path) {
			return func() {
				if sameFile(f, path) {
					_ = os.Remove(path)
				}
				f.Close()
			}, nil
		}
		f.Close()
	}
}

// sameFile reports whether the file at path is f (not removed, not
// replaced since f was opened).
func sameFile(f *os.File, path string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, pi)
}

// removeOwnLog removes the session's log file at path when it is the
// file this process writes its output to (a Client started it so), and
// not a newer session's.
func removeOwnLog(path string) { removeLog(os.Stderr, path) }

// removeLog removes the file at path when it is f.
func removeLog(f *os.File, path string) {
	if sameFile(f, path) {
		_ = os.Remove(path)
	}
}
