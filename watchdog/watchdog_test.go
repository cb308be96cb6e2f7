package watchdog_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/webagent/webagent/testfixture/machinelock"
	"github.com/webagent/webagent/watchdog"
)

func TestMain(m *testing.M) {
	_ = machinelock.Shared() // its bounds are measured on a machine no test loads
	goleak.VerifyTestMain(m)
}

// late is how far past a bound a return may land on a loaded 2-core machine.
const late = 150 * time.Millisecond

func within(t *testing.T, elapsed, bound time.Duration) {
	t.Helper()
	if elapsed < bound {
		t.Fatalf("returned after %s, before the %s bound", elapsed, bound)
	}
	if elapsed > bound+late {
		t.Fatalf("returned after %s, more than %s past the %s bound", elapsed, late, bound)
	}
}

func TestRunReturnsResult(t *testing.T) {
	v, err := watchdog.Run(context.Background(), "op", time.Second, func(ctx context.Context) (int, error) {
		return 42, nil
	})
	if err != nil || v != 42 {
		t.Fatalf("got %d, %v; want 42, nil", v, err)
	}
}

func TestRunPassesWorkError(t *testing.T) {
	boom := errors.New("boom")
	err := watchdog.Do(context.Background(), "op", time.Second, func(ctx context.Context) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
}

// The work ignores its context entirely: the race alone must end the wait.
func TestRunBoundsWorkThatIgnoresContext(t *testing.T) {
	release := make(chan struct{})
	finished := make(chan struct{})
	defer func() { close(release); <-finished }()

	const budget = 200 * time.Millisecond
	start := time.Now()
	_, err := watchdog.Run(context.Background(), "iteration 1", budget, func(ctx context.Context) (string, error) {
		defer close(finished)
		<-release // ignores ctx
		return "late", nil
	})
	within(t, time.Since(start), budget)

	var te *watchdog.TimeoutError
	if !errors.As(err, &te) || te.Budget != budget || te.Op != "iteration 1" {
		t.Fatalf("got %v, want *TimeoutError{iteration 1, %s}", err, budget)
	}
	if !errors.Is(err, watchdog.ErrTimeout) {
		t.Fatal("TimeoutError does not match ErrTimeout")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("own timeout must not look like a caller's cancel or deadline")
	}
}

// Work that honours ctx sees its context cancelled with the TimeoutError as cause.
func TestRunCancelsWorkContext(t *testing.T) {
	cause := make(chan error, 1)
	_, err := watchdog.Run(context.Background(), "op", 50*time.Millisecond, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return 0, ctx.Err()
	})
	if !errors.Is(err, watchdog.ErrTimeout) {
		t.Fatalf("got %v", err)
	}
	select {
	case c := <-cause:
		if !errors.Is(c, watchdog.ErrTimeout) {
			t.Fatalf("work saw cause %v", c)
		}
	case <-time.After(time.Second):
		t.Fatal("work context was never cancelled")
	}
}

func TestRunCallerCancelIsNotTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go func() { <-started; cancel() }()
	release := make(chan struct{})
	defer close(release)

	start := time.Now()
	_, err := watchdog.Run(ctx, "op", 5*time.Second, func(context.Context) (int, error) {
		close(started)
		<-release
		return 0, nil
	})
	if !errors.Is(err, context.Canceled) || errors.Is(err, watchdog.ErrTimeout) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if e := time.Since(start); e > late {
		t.Fatalf("cancel took %s", e)
	}
}

func TestRunCallerDeadlineIsNotTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := watchdog.Do(ctx, "op", 5*time.Second, func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	})
	within(t, time.Since(start), 100*time.Millisecond)
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, watchdog.ErrTimeout) {
		t.Fatalf("got %v, want the caller's DeadlineExceeded", err)
	}
}

// A work error produced because the bound fired is reported as the bound.
func TestRunReportsBoundNotWorkError(t *testing.T) {
	err := watchdog.Do(context.Background(), "op", 50*time.Millisecond, func(ctx context.Context) error {
		<-ctx.Done()
		return fmt.Errorf("reading stream: %w", ctx.Err())
	})
	var te *watchdog.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("got %v, want *TimeoutError", err)
	}
}

func TestRunZeroBudgetDisablesBound(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	v, err := watchdog.Run(ctx, "op", 0, func(ctx context.Context) (int, error) {
		select {
		case <-time.After(100 * time.Millisecond):
			return 7, nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	})
	if err != nil || v != 7 {
		t.Fatalf("got %d, %v", v, err)
	}
}

func TestRunNegativeBudgetIsConfigError(t *testing.T) {
	called := false
	err := watchdog.Do(context.Background(), "iteration", -time.Second, func(context.Context) error {
		called = true
		return nil
	})
	if !errors.Is(err, watchdog.ErrNegativeBudget) || called {
		t.Fatalf("got %v (called=%v), want ErrNegativeBudget without calling", err, called)
	}
	if errors.Is(err, watchdog.ErrTimeout) {
		t.Fatal("a configuration error is not a timeout")
	}
}

func TestRunAlreadyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := watchdog.Do(ctx, "op", time.Second, func(context.Context) error { called = true; return nil })
	if !errors.Is(err, context.Canceled) || called {
		t.Fatalf("got %v called=%v", err, called)
	}
}

func TestInactivityFiresWhenSilent(t *testing.T) {
	const window = 150 * time.Millisecond
	start := time.Now() // before the window's timer starts, so the wait is never measured short
	ctx, in, err := watchdog.NewInactivity(context.Background(), "stream", window)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Stop()
	<-ctx.Done()
	within(t, time.Since(start), window)
	var ie *watchdog.IdleError
	if c := context.Cause(ctx); !errors.As(c, &ie) || ie.Window != window || !errors.Is(c, watchdog.ErrTimeout) {
		t.Fatalf("cause %v, want *IdleError{%s}", c, window)
	}
}

// A stream that keeps dripping never trips the inactivity window; only a
// deadline stops it.
func TestInactivityResetByTouch(t *testing.T) {
	const window = 150 * time.Millisecond
	deadline, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	ctx, in, err := watchdog.NewInactivity(deadline, "stream", window)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Stop()
	tick := time.NewTicker(window / 3)
	defer tick.Stop()
	start := time.Now()
loop:
	for {
		select {
		case <-tick.C:
			in.Touch()
		case <-ctx.Done():
			break loop
		}
	}
	within(t, time.Since(start), 600*time.Millisecond)
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("stopped by %v, want the deadline", context.Cause(ctx))
	}
}

func TestInactivityStop(t *testing.T) {
	ctx, in, err := watchdog.NewInactivity(context.Background(), "stream", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	in.Stop()
	in.Stop()
	in.Touch()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("ctx.Err() = %v after Stop", ctx.Err())
	}
	if _, _, err := watchdog.NewInactivity(context.Background(), "s", -1); !errors.Is(err, watchdog.ErrNegativeBudget) {
		t.Fatalf("negative window: %v", err)
	}
}

// A panic in the work reaches the caller's goroutine, where it can be
// recovered, with the work's stack; the process does not crash.
func TestPanicReRaisedOnCaller(t *testing.T) {
	boom := errors.New("boom")
	got := func() (p any) {
		defer func() { p = recover() }()
		_ = watchdog.Do(context.Background(), "work", time.Minute, func(context.Context) error { panic(boom) })
		return nil
	}()
	pe, ok := got.(*watchdog.PanicError)
	if !ok {
		t.Fatalf("recovered %#v, want a *watchdog.PanicError", got)
	}
	if !errors.Is(pe, boom) || !strings.Contains(string(pe.Stack), "TestPanicReRaisedOnCaller") {
		t.Errorf("panic error %v; stack:\n%s", pe.Value, pe.Stack)
	}
}

// A panic in work already abandoned at its budget is dropped.
func TestLatePanicDropped(t *testing.T) {
	release := make(chan struct{})
	finished := make(chan struct{})
	err := watchdog.Do(context.Background(), "work", 10*time.Millisecond, func(context.Context) error {
		defer close(finished)
		<-release
		panic("late")
	})
	if !errors.Is(err, watchdog.ErrTimeout) {
		t.Fatalf("err = %v, want a timeout", err)
	}
	close(release)
	<-finished // the process is still here after the late panic
}
