package llm_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// The tests of this file that check a delay against a bound (within) are
// serial (no t.Parallel): they run alone, before the parallel tests, whose
// load would stretch a sub-second bound.

// fast retries keep the tests short where the delay itself is not tested.
var fast = llm.Config{RetryBaseDelay: 5 * time.Millisecond, MaxRetryDelay: 50 * time.Millisecond}

func TestRetryAfterIsHonoured(t *testing.T) {
	srv := startServer(t, modelserver.Script(
		modelserver.Turn{Fault: modelserver.RateLimited, RetryAfter: time.Second},
		modelserver.Turn{Text: "ok"},
	))
	c := newClient(t, srv, llm.Config{RetryBaseDelay: time.Millisecond})
	start := time.Now()
	reply, err := c.Complete(ctxWithTimeout(t, 10*time.Second), simpleRequest())
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != "ok" {
		t.Errorf("reply = %+v", reply)
	}
	within(t, "429 with Retry-After: 1, then success", took, 950*time.Millisecond, time.Second+slack)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	gap := reqs[1].Start.Sub(reqs[0].Start)
	within(t, "gap between the attempts", gap, 950*time.Millisecond, time.Second+slack)
}

func TestRetriedFailuresThenSuccess(t *testing.T) {
	for _, fault := range []modelserver.Turn{
		{Fault: modelserver.ServerError},
		{Fault: modelserver.ServerError, Status: 503},
		{Fault: modelserver.Reset},
		{Fault: modelserver.RateLimited},
	} {
		t.Run(fault.Fault.String(), func(t *testing.T) {
			srv := startServer(t, modelserver.Script(fault, modelserver.Turn{Text: "ok", ToolCalls: []modelserver.Call{{Name: "back", Args: "{}"}}}))
			c := newClient(t, srv, fast)
			start := time.Now()
			reply, err := c.Complete(ctxWithTimeout(t, 10*time.Second), simpleRequest())
			if err != nil {
				t.Fatal(err)
			}
			if reply.Content != "ok" || len(reply.ToolCalls) != 1 {
				t.Errorf("reply = %+v", reply)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("%d requests, want 2", n)
			}
			// The retried request carries the same body.
			if a, b := srv.Requests()[0].Req.Raw, srv.Requests()[1].Req.Raw; string(a) != string(b) {
				t.Errorf("bodies differ:\n%s\n%s", a, b)
			}
			within(t, "one retry", time.Since(start), 0, 50*time.Millisecond+slack)
		})
	}
}

func TestUnauthorizedFailsAtOnce(t *testing.T) {
	for _, status := range []int{401, 403} {
		srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.Unauthorized, Status: status}))
		c := newClient(t, srv, llm.Config{APIKey: "sk-wrong"})
		start := time.Now()
		_, err := c.Complete(ctxWithTimeout(t, 10*time.Second), simpleRequest())
		within(t, "401", time.Since(start), 0, 500*time.Millisecond)
		if !errors.Is(err, llm.ErrUnauthorized) {
			t.Fatalf("err = %v, want ErrUnauthorized", err)
		}
		var e *llm.Error
		if !errors.As(err, &e) || e.Status != status || e.Retryable {
			t.Errorf("err = %#v", err)
		}
		if status == 401 && (!strings.HasPrefix(err.Error(), "model server returned 401 Unauthorized: invalid api key") ||
			!strings.Contains(err.Error(), "check --api-key") || e.Kind != llm.KindAuth) {
			t.Errorf("message = %q", err.Error())
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	}
}

func TestBadRequestNotRetried(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 404} {
		srv := startServer(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
			return modelserver.Turn{Status: status, Text: "model 'nope' not found"}
		}))
		c := newClient(t, srv, fast)
		_, err := c.Complete(context.Background(), simpleRequest())
		var e *llm.Error
		if !errors.As(err, &e) || e.Status != status || e.Message != "model 'nope' not found" || e.Retryable {
			t.Errorf("err = %v", err)
		}
		if errors.Is(err, llm.ErrUnauthorized) || errors.Is(err, llm.ErrRateLimited) || errors.Is(err, llm.ErrUnreachable) {
			t.Errorf("%d matched a sentinel: %v", status, err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d: %d requests, want 1", status, n)
		}
	}
}

func TestRateLimitedForever(t *testing.T) {
	t.Parallel()
	srv := startServer(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{Fault: modelserver.RateLimited}
	}))
	cfg := fast
	cfg.MaxRetries = 2
	c := newClient(t, srv, cfg)
	_, err := c.Complete(ctxWithTimeout(t, 10*time.Second), simpleRequest())
	if !errors.Is(err, llm.ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	var e *llm.Error
	if !errors.As(err, &e) || e.Attempts != 3 || e.Code != "rate_limit_exceeded" || !e.Retryable {
		t.Errorf("err = %#v", e)
	}
	if !strings.Contains(err.Error(), "429") || !strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Errorf("message = %q", err)
	}
	if n := len(srv.Requests()); n != cfg.MaxRetries+1 {
		t.Errorf("%d requests, want %d", n, cfg.MaxRetries+1)
	}
}

func TestServerErrorForever(t *testing.T) {
	t.Parallel()
	srv := startServer(t, modelserver.Script()) // answers 500 "the script ran out"
	c := newClient(t, srv, fast)
	_, err := c.Complete(context.Background(), simpleRequest())
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != 500 || !e.Retryable || !strings.Contains(e.Message, "script ran out") {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != llm.DefaultMaxRetries+1 {
		t.Errorf("%d requests, want %d", n, llm.DefaultMaxRetries+1)
	}
}

func TestRetriesDisabled(t *testing.T) {
	t.Parallel()
	srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.ServerError}, modelserver.Turn{Text: "ok"}))
	cfg := fast
	cfg.MaxRetries = -1
	c := newClient(t, srv, cfg)
	if _, err := c.Complete(context.Background(), simpleRequest()); err == nil {
		t.Error("no error")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestRetrySleepEndsWithContext cancels the call while it waits out a long
// Retry-After.
func TestRetrySleepEndsWithContext(t *testing.T) {
	srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.RateLimited, RetryAfter: 20 * time.Second}))
	sink := newLogSink("retrying")
	c := newClient(t, srv, llm.Config{Logger: slog.New(slog.NewJSONHandler(sink, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, simpleRequest())
		done <- err
	}()
	safety := time.NewTimer(5 * time.Second)
	defer safety.Stop()
	select {
	case <-sink.seen: // the client is about to sleep
	case <-safety.C:
		t.Fatal("no retry logged")
	}
	if !strings.Contains(sink.String(), `"retry_in":20000`) {
		t.Errorf("Retry-After not used for the delay: %s", sink)
	}
	cancelled := time.Now()
	cancel()
	select {
	case err := <-done:
		within(t, "return after cancel during a retry sleep", time.Since(cancelled), 0, 100*time.Millisecond+slack/2)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-safety.C:
		t.Fatal("Complete still sleeping after cancel")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestMaxRetryDelayCapsRetryAfter(t *testing.T) {
	srv := startServer(t, modelserver.Script(modelserver.Turn{Fault: modelserver.RateLimited, RetryAfter: time.Hour}, modelserver.Turn{Text: "ok"}))
	c := newClient(t, srv, llm.Config{MaxRetryDelay: 100 * time.Millisecond})
	start := time.Now()
	if _, err := c.Complete(ctxWithTimeout(t, 10*time.Second), simpleRequest()); err != nil {
		t.Fatal(err)
	}
	within(t, "Retry-After: 3600 capped at 100ms", time.Since(start), 100*time.Millisecond, 100*time.Millisecond+slack)
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	addr := closedPort(t)
	for _, retries := range []int{-1, 2} {
		cfg := fast
		cfg.BaseURL, cfg.Model, cfg.MaxRetries = "http://"+addr+"/v1", "m", retries
		c, err := llm.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Complete(ctxWithTimeout(t, 10*time.Second), simpleRequest())
		if !errors.Is(err, llm.ErrUnreachable) {
			t.Errorf("retries %d: err = %v, want ErrUnreachable", retries, err)
		} else if !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "still running") {
			t.Errorf("message = %q", err)
		}
	}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestKeyNeverLogged runs a retried request whose error message even
// echoes the key, with debug logging on.
func TestKeyNeverLogged(t *testing.T) {
	t.Parallel()
	const key = "sk-test-SECRET-0123456789"
	srv := startServer(t, modelserver.Script(
		modelserver.Turn{Fault: modelserver.ServerError, Text: "upstream failed for key " + key},
		modelserver.Turn{Fault: modelserver.Reset},
		modelserver.Turn{Text: "ok"},
		modelserver.Turn{Status: 400, Text: "bad request from " + key},
	), modelserver.WithAPIKey(key))
	sink := newLogSink("")
	cfg := fast
	cfg.APIKey = key
	cfg.Logger = slog.New(slog.NewJSONHandler(sink, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newClient(t, srv, cfg)
	if _, err := c.Complete(context.Background(), simpleRequest()); err != nil {
		t.Fatal(err)
	}
	_, err := c.Complete(context.Background(), simpleRequest())
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Errorf("error = %v", err)
	}
	logs := sink.String()
	if strings.Count(logs, "retrying") != 2 {
		t.Errorf("want 2 retries logged:\n%s", logs)
	}
	for _, secret := range []string{key, "SECRET", "Bearer", "Authorization"} {
		if strings.Contains(logs, secret) {
			t.Errorf("log contains %q:\n%s", secret, logs)
		}
	}
	t.Logf("logs:\n%s", logs)
}
