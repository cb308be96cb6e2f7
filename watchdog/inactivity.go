package watchdog

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// IdleError reports that a stream stayed silent for longer than its window.
type IdleError struct {
	Op     string
	Window time.Duration
}

func (e *IdleError) Error() string {
	return fmt.Sprintf("%s: nothing received for %s", e.Op, e.Window)
}

// Is reports whether target is ErrTimeout.
func (e *IdleError) Is(target error) bool { return target == ErrTimeout }

// Inactivity cancels a context when Touch has not been called for a window.
// It is independent of any deadline on the parent context: a stream that
// drips forever is stopped by the deadline, a stream that goes silent by the
// inactivity window, whichever comes first.
type Inactivity struct {
	mu      sync.Mutex
	timer   *time.Timer
	window  time.Duration
	stopped bool
	cancel  context.CancelCauseFunc
}

// NewInactivity returns a context derived from ctx that is cancelled with an
// *IdleError as its cause when window passes without a call to Touch. A
// window of 0 disables the timer. Call Stop when the stream ends to release
// the context.
func NewInactivity(ctx context.Context, op string, window time.Duration) (context.Context, *Inactivity, error) {
	if err := CheckBudget(op+" inactivity window", window); err != nil {
		return nil, nil, err
	}
	ictx, cancel := context.WithCancelCause(ctx)
	in := &Inactivity{window: window, cancel: cancel}
	if window > 0 {
		ierr := &IdleError{Op: op, Window: window}
		in.timer = time.AfterFunc(window, func() { cancel(ierr) })
	}
	return ictx, in, nil
}

// Touch records activity and restarts the window.
func (in *Inactivity) Touch() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.timer != nil && !in.stopped {
		in.timer.Reset(in.window)
	}
}

// Stop halts the timer and cancels the derived context. It is safe to call
// more than once.
func (in *Inactivity) Stop() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.stopped {
		return
	}
	in.stopped = true
	if in.timer != nil {
		in.timer.Stop()
	}
	in.cancel(context.Canceled)
}
