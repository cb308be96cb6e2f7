// Package watchdog bounds work in time.
//
// [Run] executes a function under the caller's context combined with a
// budget and returns when the function returns or when the budget or the
// caller's context ends, whichever comes first, even if the function
// ignores its context ([Do] is Run for work that returns only an error).
// The race is the guarantee; cancelling the derived context is the
// clean-up. A late result of abandoned work is dropped.
//
// [Inactivity] is a separate timer for streams: it cancels a context when
// nothing has arrived for a window, with an *IdleError as the cause, and is
// reset by every chunk.
//
// A panic in the work is re-raised on the caller's goroutine, as
// net/http.TimeoutHandler does, wrapped in a *PanicError that keeps the
// work's stack; a panic in work already abandoned is dropped.
//
// The errors tell the three endings apart:
//   - the watchdog's own budget: a *TimeoutError (errors.Is(err, ErrTimeout)),
//   - the caller's cancel: context.Canceled,
//   - the caller's own deadline: context.DeadlineExceeded.
package watchdog

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
)

// ErrTimeout matches every *TimeoutError and *IdleError with errors.Is.
var ErrTimeout = errors.New("watchdog: budget exceeded")

// ErrNegativeBudget is returned for a budget below zero: it is a
// configuration error, never a timeout.
var ErrNegativeBudget = errors.New("watchdog: negative budget")

// TimeoutError reports that the watchdog's own budget ran out.
type TimeoutError struct {
	// Op names the bounded work, e.g. "iteration 3".
	Op string
	// Budget is the bound that fired.
	Budget time.Duration
}

func (e *TimeoutError) Error() string {
	if e.Op == "" {
		return fmt.Sprintf("timed out after %s", e.Budget)
	}
	return fmt.Sprintf("%s timed out after %s", e.Op, e.Budget)
}

// Is reports whether target is ErrTimeout.
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// CheckBudget returns an error wrapping ErrNegativeBudget when d < 0. The
// name says which setting is wrong.
func CheckBudget(name string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%s is %s: %w (use 0 to disable the bound)", name, d, ErrNegativeBudget)
	}
	return nil
}

// PanicError is what Run panics with when the work panicked: the value the
// work panicked with, and the work's stack at that moment.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("watchdog: the work panicked: %v\n\n%s", e.Value, e.Stack)
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

type result[T any] struct {
	v     T
	err   error
	panic *PanicError
}

// Run calls fn with a context derived from ctx that is cancelled when budget
// elapses, and returns as soon as fn returns, the budget elapses or ctx ends.
//
// A budget of 0 disables the bound (the caller's context still applies). A
// negative budget returns ErrNegativeBudget without calling fn.
//
// When the budget elapses first, Run returns a *TimeoutError; when ctx ends
// first, it returns ctx's error (context.Canceled or
// context.DeadlineExceeded). In both cases fn's context is cancelled and fn's
// eventual result is dropped; the goroutine running fn never blocks on
// delivering it.
//
// When fn panics before Run returns, Run panics with a *PanicError on the
// caller's goroutine.
func Run[T any](ctx context.Context, op string, budget time.Duration, fn func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	if err := CheckBudget(op+" budget", budget); err != nil {
		return zero, err
	}
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	var (
		wctx   context.Context
		cancel context.CancelFunc
		terr   *TimeoutError
	)
	if budget > 0 {
		terr = &TimeoutError{Op: op, Budget: budget}
		wctx, cancel = context.WithTimeoutCause(ctx, budget, terr)
	} else {
		wctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()

	done := make(chan result[T], 1) // buffered: a late result never blocks
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result[T]{panic: &PanicError{Value: p, Stack: debug.Stack()}}
			}
		}()
		v, err := fn(wctx)
		done <- result[T]{v: v, err: err}
	}()

	select {
	case r := <-done:
		if r.panic != nil {
			panic(r.panic)
		}
		// The work may have returned because the bound fired: report the
		// bound, not whatever the work made of its cancelled context.
		if ctx.Err() != nil && r.err != nil {
			return r.v, ctx.Err()
		}
		if terr != nil && r.err != nil && errors.Is(context.Cause(wctx), ErrTimeout) {
			return r.v, terr
		}
		return r.v, r.err
	case <-wctx.Done():
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		if terr != nil {
			return zero, terr
		}
		return zero, context.Cause(wctx)
	}
}

// Do is Run for work that returns only an error.
func Do(ctx context.Context, op string, budget time.Duration, fn func(ctx context.Context) error) error {
	_, err := Run(ctx, op, budget, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, fn(ctx)
	})
	return err
}
