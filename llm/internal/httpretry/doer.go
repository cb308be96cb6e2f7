package httpretry

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/webagent/webagent/watchdog"
)

// HTTPDoer sends one HTTP request; *http.Client is one.
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// Doer sends a request again after a 429, a 5xx (501 aside) or a
// connection failure, but only while no 2xx response has arrived: a stream
// that has started is never replayed. Each attempt made for a call that
// carries a Watch (WithWatch) runs under its own inactivity window, so
// that a back-off sleep is not counted as silence, and the attempt kept
// hands its window to the stream reader. The last failed response is
// returned as is, for the SDK to decode the provider's error from it.
type Doer struct {
	Next       HTTPDoer
	MaxRetries int
	BaseDelay  time.Duration
	MaxDelay   time.Duration
	Log        *slog.Logger
	// Redact removes secrets (the API key) from a logged reason.
	Redact func(string) string
	// Final, when set, reads a failed response's body and reports that no
	// retry can fix it (the context is too large, tools are refused): the
	// response is then returned at once.
	Final func(status int, body []byte) bool
	// Reason, when set, is the provider's message in a failed body.
	Reason func(body []byte, status string) string
}

// Do sends req as described on Doer.
func (d *Doer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	w := WatchFrom(ctx)
	for attempt := 1; ; attempt++ {
		areq, err := rewind(req, attempt)
		if err != nil {
			return nil, err
		}
		actx := ctx
		if w != nil {
			if actx, err = w.attempt(ctx); err != nil {
				return nil, err
			}
		}
		resp, err := d.Next.Do(areq.WithContext(actx))
		if err == nil && resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			if w != nil {
				w.Streaming = true
				resp.Body = &TouchBody{ReadCloser: resp.Body, In: w.in}
			}
			return resp, nil
		}
		delay, retry := d.plan(ctx, actx, req, resp, err, attempt)
		if !retry {
			return resp, err
		}
		var reason string
		if err != nil {
			reason = err.Error()
		} else {
			body := readBody(resp) // closes the failed response's body
			if d.Final != nil && d.Final(resp.StatusCode, body) {
				resp.Body = io.NopCloser(bytes.NewReader(body))
				return resp, nil
			}
			reason = d.reason(body, resp.Status)
		}
		d.logRetry(req, resp, attempt, delay, reason)
		if w != nil {
			w.Stop()
		}
		if err := Sleep(ctx, delay); err != nil {
			return nil, fmt.Errorf("waiting %s to send the model request again: %w", delay, err)
		}
	}
}

func (d *Doer) reason(body []byte, status string) string {
	if d.Reason != nil {
		return d.Reason(body, status)
	}
	if msg := strings.TrimSpace(string(body)); msg != "" {
		return msg
	}
	return status
}

func (d *Doer) logRetry(req *http.Request, resp *http.Response, attempt int, delay time.Duration, reason string) {
	if d.Redact != nil {
		reason = d.Redact(reason)
	}
	if len(reason) > 300 {
		reason = reason[:300] + "…"
	}
	attrs := []any{"attempt", attempt, "max_attempts", d.MaxRetries + 1,
		"url", req.URL.Redacted(), "retry_in", delay, "reason", reason}
	if resp != nil {
		attrs = append(attrs, "status", resp.StatusCode)
	}
	log := d.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log.Warn("model request failed; retrying", attrs...)
}

// plan decides whether a failed attempt is sent again and after how long.
func (d *Doer) plan(ctx, actx context.Context, req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, bool) {
	if attempt > d.MaxRetries || ctx.Err() != nil || actx.Err() != nil || !replayable(req) {
		return 0, false
	}
	if err != nil {
		return Backoff(d.BaseDelay, d.MaxDelay, attempt), Transient(err)
	}
	if !RetryableStatus(resp.StatusCode) {
		return 0, false
	}
	if wait, ok := After(resp.Header, time.Now()); ok {
		return min(wait, d.MaxDelay), true
	}
	return Backoff(d.BaseDelay, d.MaxDelay, attempt), true
}

// RetryableStatus reports whether a status is worth another try: 429 and
// every 5xx but 501.
func RetryableStatus(status int) bool {
	return status == http.StatusTooManyRequests ||
		(status >= 500 && status <= 599 && status != http.StatusNotImplemented)
}

// replayable reports whether the request's body can be sent again.
func replayable(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

// rewind returns req for the first attempt, else a copy with a fresh body.
func rewind(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 1 || req.GetBody == nil {
		return req, nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, fmt.Errorf("re-reading the request body for a retry: %w", err)
	}
	r := req.Clone(req.Context())
	r.Body = body
	return r, nil
}

// readBody reads (at most 64 KiB of) a failed response's body and closes
// it.
func readBody(resp *http.Response) []byte {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return body
}

// Watch links one model call with the attempts a Doer makes for it: each
// attempt runs under its own inactivity window of Window (0: none), and
// the attempt kept hands its window to the stream reader. One goroutine
// uses it: the Doer runs inside the call's use of the SDK.
type Watch struct {
	Window    time.Duration
	Attempts  int  // attempts made so far
	Streaming bool // a 2xx response arrived
	ctx       context.Context
	in        *watchdog.Inactivity
}

type watchKey struct{}

// WithWatch returns ctx carrying w, for the Doer to find.
func WithWatch(ctx context.Context, w *Watch) context.Context {
	return context.WithValue(ctx, watchKey{}, w)
}

// WatchFrom returns the Watch ctx carries, or nil.
func WatchFrom(ctx context.Context) *Watch {
	w, _ := ctx.Value(watchKey{}).(*Watch)
	return w
}

// attempt starts a new attempt's window under parent and releases the
// previous one.
func (w *Watch) attempt(parent context.Context) (context.Context, error) {
	w.Stop()
	ctx, in, err := watchdog.NewInactivity(parent, "model server", w.Window)
	if err != nil {
		return nil, err
	}
	w.ctx, w.in = ctx, in
	w.Attempts++
	return ctx, nil
}

// Stop releases the current attempt's window and cancels its context,
// which closes its connection.
func (w *Watch) Stop() {
	if w != nil && w.in != nil {
		w.in.Stop()
	}
}

// Idle is the *watchdog.IdleError when the current attempt's window fired,
// else nil.
func (w *Watch) Idle() error { return IdleCause(w.ctx) }

// Stopped explains a failed call when the fault is not the server's
// answer: the caller's ctx ended, or the current attempt's inactivity
// window fired (before a response or in the middle of a stream). It
// returns nil when neither happened, and the caller classifies the
// server's error.
func (w *Watch) Stopped(ctx context.Context) error {
	if ctx.Err() != nil {
		return fmt.Errorf("model request stopped: %w", CtxErr(ctx))
	}
	if idle := w.Idle(); idle != nil {
		if !w.Streaming {
			return fmt.Errorf("model server sent no response within the %s inactivity window: %w", w.Window, idle)
		}
		return fmt.Errorf("model stream went silent for the %s inactivity window: %w", w.Window, idle)
	}
	return nil
}
