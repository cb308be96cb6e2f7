package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/watchdog"
)

// The tests of this file are serial (no t.Parallel): their bounds are
// sub-second windows of a stream served in this process, which the
// parallel tests' load would stretch; they run alone, before those.

// TestDeadlineEndsStalledCall: the caller's deadline ends a server that
// stalls before its headers or in the middle of the stream, and the
// connection is closed.
func TestDeadlineEndsStalledCall(t *testing.T) {
	const deadline = 500 * time.Millisecond
	for _, fault := range []modelserver.Fault{modelserver.StallMidStream, modelserver.NoHeaders} {
		t.Run(fault.String(), func(t *testing.T) {
			srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: fault}))
			c := newClient(t, srv, llm.Config{Inactivity: llm.DefaultInactivity})
			// The bound counts from the deadline's start: a start taken
			// after it would see the end come early under load.
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			_, err := c.Complete(ctx, simpleRequest())
			within(t, "Complete", time.Since(start), deadline, deadline+slack)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want DeadlineExceeded", err)
			}
			if errors.Is(err, watchdog.ErrTimeout) {
				t.Errorf("err matches ErrTimeout: %v", err)
			}
			t.Logf("error: %v", err)
			rec := srv.Requests()[0]
			waitGone(t, rec, 2*time.Second)
			within(t, "server saw the client go away", rec.GoneAt().Sub(start), deadline, deadline+slack)
		})
	}
}

// TestDripEndedByDeadline: a stream that never finishes but never goes
// silent does not trip the inactivity window; the deadline ends it.
func TestDripEndedByDeadline(t *testing.T) {
	const (
		window   = 300 * time.Millisecond
		deadline = time.Second
	)
	srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.Drip, Every: 100 * time.Millisecond}))
	c := newClient(t, srv, llm.Config{Inactivity: window})
	safety := ctxWithTimeout(t, 3*time.Second)
	start := time.Now() // before the deadline starts: it cannot end early
	ctx, cancel := context.WithTimeout(safety, deadline)
	defer cancel()
	_, err := c.Complete(ctx, simpleRequest())
	within(t, "Complete", time.Since(start), deadline, deadline+slack)
	if errors.Is(err, watchdog.ErrTimeout) {
		t.Errorf("inactivity window tripped on a dripping stream: %v", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) || safety.Err() != nil {
		t.Errorf("err = %v, want the 1s deadline (safety ctx: %v)", err, safety.Err())
	}
	waitGone(t, srv.Requests()[0], 2*time.Second)
}

// TestInactivityEndsSilentStream: without a deadline, a stream that goes
// silent, before or after its headers, ends after the window.
func TestInactivityEndsSilentStream(t *testing.T) {
	const window = 300 * time.Millisecond
	for _, tt := range []struct {
		fault modelserver.Fault
		says  string
	}{
		{modelserver.StallMidStream, "stream went silent"},
		{modelserver.NoHeaders, "no response within"},
	} {
		t.Run(tt.fault.String(), func(t *testing.T) {
			srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: tt.fault}))
			c := newClient(t, srv, llm.Config{Inactivity: window})
			safety := ctxWithTimeout(t, 3*time.Second)
			start := time.Now()
			_, err := c.Complete(safety, simpleRequest())
			within(t, "Complete", time.Since(start), window, window+slack)
			if !errors.Is(err, watchdog.ErrTimeout) {
				t.Fatalf("err = %v, want watchdog.ErrTimeout", err)
			}
			var idle *watchdog.IdleError
			if !errors.As(err, &idle) || idle.Window != window {
				t.Errorf("err = %#v", err)
			}
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || safety.Err() != nil {
				t.Errorf("err = %v also matches a context error", err)
			}
			if !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "300ms") {
				t.Errorf("message = %q", err)
			}
			t.Logf("error: %v", err)
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("silence was retried: %d requests", n)
			}
			waitGone(t, srv.Requests()[0], 2*time.Second)
		})
	}
}

// TestSlowHealthyStream: chunks that keep coming reset the window, so a
// stream longer than the window completes.
func TestSlowHealthyStream(t *testing.T) {
	const window = 300 * time.Millisecond
	srv := startServer(t, modelserver.Script(modelserver.Turn{
		Text:      "twelve pieces of text, slowly",
		ChunkSize: 3,
		Every:     80 * time.Millisecond,
	}))
	c := newClient(t, srv, llm.Config{Inactivity: window})
	start := time.Now()
	reply, err := c.Complete(ctxWithTimeout(t, 5*time.Second), simpleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != "twelve pieces of text, slowly" {
		t.Errorf("Content = %q", reply.Content)
	}
	if took := time.Since(start); took < 2*window {
		t.Errorf("stream took %s, not longer than the window: the test proves nothing", took)
	}
}

// TestInactivityDoesNotCountBackoff: a Retry-After longer than the window
// is not silence.
func TestInactivityDoesNotCountBackoff(t *testing.T) {
	srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.RateLimited, RetryAfter: time.Second}, modelserver.Turn{Text: "ok"}))
	c := newClient(t, srv, llm.Config{Inactivity: 300 * time.Millisecond})
	if _, err := c.Complete(ctxWithTimeout(t, 5*time.Second), simpleRequest()); err != nil {
		t.Fatal(err)
	}
}

// TestCancelMidStream: the caller's cancel ends a dripping stream at once.
func TestCancelMidStream(t *testing.T) {
	srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.Drip, Every: 50 * time.Millisecond}))
	c := newClient(t, srv, llm.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, simpleRequest())
		done <- err
	}()
	rec, err := srv.WaitRequest(ctxWithTimeout(t, 5*time.Second), 0)
	if err != nil {
		t.Fatal(err)
	}
	cancelled := time.Now()
	cancel()
	timer := time.NewTimer(2 * time.Second)
	defer timer.Stop()
	select {
	case err := <-done:
		within(t, "return after cancel", time.Since(cancelled), 0, slack)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	case <-timer.C:
		t.Fatal("Complete did not return after cancel")
	}
	waitGone(t, rec, 2*time.Second)
}

// TestCauseIsKept: a deadline set with a cause (the agent's iteration
// watchdog) is reported with that cause.
func TestCauseIsKept(t *testing.T) {
	srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.NoHeaders}))
	c := newClient(t, srv, llm.Config{})
	_, err := watchdog.Run(context.Background(), "iteration 1", 200*time.Millisecond,
		func(ctx context.Context) (struct{}, error) {
			_, err := c.Complete(ctx, simpleRequest())
			if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, watchdog.ErrTimeout) {
				t.Errorf("inner err = %v", err)
			}
			return struct{}{}, err
		})
	if !errors.Is(err, watchdog.ErrTimeout) {
		t.Errorf("err = %v", err)
	}
	waitGone(t, srv.Requests()[0], 2*time.Second)
}

// TestKeepAliveComments: SSE comment lines neither trip the library's
// empty-message limit (300) nor count as silence.
func TestKeepAliveComments(t *testing.T) {
	srv := startServer(t, modelserver.Script(
		modelserver.Turn{Text: "after many keep-alives", KeepAlive: 1000},
		modelserver.Turn{Text: "after slow keep-alives", KeepAlive: 7, Every: 100 * time.Millisecond},
	))
	c := newClient(t, srv, llm.Config{Inactivity: 300 * time.Millisecond})
	for _, want := range []string{"after many keep-alives", "after slow keep-alives"} {
		reply, err := c.Complete(ctxWithTimeout(t, 5*time.Second), simpleRequest())
		if err != nil {
			t.Fatal(err)
		}
		if reply.Content != want {
			t.Errorf("Content = %q, want %q", reply.Content, want)
		}
	}
}
