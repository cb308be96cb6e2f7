package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/webagent/webagent/watchdog"
)

// doer is the SDK's HTTP client. The SDK's own retries are off: this one
// retries as package llm does (a capped Retry-After, warnings in the log)
// and gives each attempt its own inactivity window, which the SDK cannot.
type doer struct {
	next       *http.Client
	maxRetries int
	baseDelay  time.Duration
	maxDelay   time.Duration
	log        *slog.Logger
	key        string // only to scrub it from logged text
}

// watch links one call to Complete with its attempts: each runs under its
// own inactivity window, and the one kept hands it to the stream reader.
type watch struct {
	window    time.Duration
	ctx       context.Context
	in        *watchdog.Inactivity
	attempts  int
	streaming bool
}

type watchKey struct{}

func (w *watch) stop() {
	if w.in != nil {
		w.in.Stop()
	}
}

// idle returns the inactivity error when the current window fired.
func (w *watch) idle() error {
	if w.ctx == nil {
		return nil
	}
	if cause := context.Cause(w.ctx); errors.Is(cause, watchdog.ErrTimeout) {
		return cause
	}
	return nil
}

// Do sends req, again after a 429, a 5xx (529 included) or a connection
// failure, while no 2xx response has arrived.
func (d *doer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	w, _ := ctx.Value(watchKey{}).(*watch)
	if w == nil {
		w = &watch{}
	}
	for attempt := 1; ; attempt++ {
		areq, err := rewind(req, attempt)
		if err != nil {
			return nil, err
		}
		w.stop()
		actx, in, err := watchdog.NewInactivity(ctx, "model server", w.window)
		if err != nil {
			return nil, err
		}
		w.ctx, w.in = actx, in
		w.attempts++
		resp, err := d.next.Do(areq.WithContext(actx))
		if err == nil && resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			w.streaming = true
			resp.Body = &touchBody{ReadCloser: resp.Body, in: in}
			return resp, nil
		}
		delay, retry := d.plan(ctx, actx, req, resp, err, attempt)
		if !retry {
			return resp, err
		}
		reason := ""
		if err != nil {
			reason = err.Error()
		} else {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			_ = resp.Body.Close()
			reason = strings.TrimSpace(string(body))
			if reason == "" {
				reason = resp.Status
			}
		}
		d.log.Warn("model request failed; retrying", "attempt", attempt, "max_attempts", d.maxRetries+1,
			"url", req.URL.Redacted(), "retry_in", delay, "reason", clip(redact(reason, d.key), 300))
		w.stop()
		if err := sleep(ctx, delay); err != nil {
			return nil, fmt.Errorf("waiting %s to send the model request again: %w", delay, err)
		}
	}
}

// plan decides whether a failed attempt is sent again and after how long.
func (d *doer) plan(ctx, actx context.Context, req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, bool) {
	if attempt > d.maxRetries || ctx.Err() != nil || actx.Err() != nil || (req.Body != nil && req.GetBody == nil) {
		return 0, false
	}
	if err != nil {
		return d.backoff(attempt), transient(err)
	}
	s := resp.StatusCode
	if s != http.StatusTooManyRequests && (s < 500 || s == http.StatusNotImplemented) {
		return 0, false
	}
	if wait, ok := retryAfter(resp.Header); ok {
		return min(wait, d.maxDelay), true
	}
	return d.backoff(attempt), true
}

// backoff is base·2^(attempt-1), capped, drawn from its upper half.
func (d *doer) backoff(attempt int) time.Duration {
	delay := d.maxDelay
	if shift := attempt - 1; shift < 32 {
		delay = min(d.baseDelay<<shift, d.maxDelay)
	}
	half := delay / 2
	return half + rand.N(half+1)
}

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

func transient(err error) bool {
	for _, target := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED,
		syscall.EPIPE, io.EOF, io.ErrUnexpectedEOF} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// retryAfter reads retry-after-ms, then retry-after (seconds or a date).
func retryAfter(h http.Header) (time.Duration, bool) {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(h.Get("Retry-After-Ms")), 64); err == nil && ms >= 0 && ms < 1e12 {
		return time.Duration(ms * float64(time.Millisecond)), true
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 && secs < 1e9 {
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// touchBody restarts the inactivity window whenever bytes arrive (ping
// events included).
type touchBody struct {
	io.ReadCloser
	in *watchdog.Inactivity
}

func (b *touchBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.in.Touch()
	}
	return n, err
}
