package llm

import (
	"bytes"
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

	openai "github.com/sashabaranov/go-openai"
)

// retryDoer is the openai.HTTPDoer of a Client. It sends a request again
// after a 429, a 5xx or a connection failure, but only while no 2xx
// response has arrived: a stream that has started is never replayed.
type retryDoer struct {
	next       openai.HTTPDoer
	maxRetries int
	baseDelay  time.Duration
	maxDelay   time.Duration
	log        *slog.Logger
	apiKey     string // only to scrub it from logged text
}

// Do sends req, retrying as described on retryDoer. Each attempt made for
// a call to Complete runs under its own inactivity window (see
// streamWatch). The last failed response is returned as is, so that the
// client library decodes the provider's error from it.
func (d *retryDoer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	watch := watchFrom(ctx)
	for attempt := 1; ; attempt++ {
		areq := req
		if attempt > 1 {
			var err error
			if areq, err = rewind(req); err != nil {
				return nil, err
			}
		}
		actx := ctx
		if watch != nil {
			var err error
			if actx, err = watch.attempt(ctx); err != nil {
				return nil, err
			}
			areq = areq.WithContext(actx)
		}

		resp, err := d.next.Do(areq)
		if err == nil && resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			if watch != nil {
				watch.streaming = true
				resp.Body = &touchBody{ReadCloser: resp.Body, in: watch.in}
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
			if !transientBody(resp.StatusCode, body) {
				// A 5xx that says what no retry can fix (the context is
				// too large, tools are refused): answered at once.
				resp.Body = io.NopCloser(bytes.NewReader(body))
				return resp, nil
			}
			reason = bodyMessage(body, resp.Status)
		}
		attrs := []any{"attempt", attempt, "max_attempts", d.maxRetries + 1,
			"url", req.URL.Redacted(), "retry_in", delay, "reason", clip(redactKey(reason, d.apiKey), 300)}
		if resp != nil {
			attrs = append(attrs, "status", resp.StatusCode)
		}
		d.log.Warn("model request failed; retrying", attrs...)
		if watch != nil {
			watch.stop()
		}
		if err := sleep(ctx, delay); err != nil {
			return nil, fmt.Errorf("waiting %s to send the model request again: %w", delay, err)
		}
	}
}

// plan decides whether a failed attempt is sent again and after how long.
func (d *retryDoer) plan(ctx, actx context.Context, req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, bool) {
	if attempt > d.maxRetries || ctx.Err() != nil || actx.Err() != nil || !replayable(req) {
		return 0, false
	}
	if err != nil {
		return d.backoff(attempt), transient(err)
	}
	if !retryableStatus(resp.StatusCode) {
		return 0, false
	}
	if wait, ok := retryAfter(resp.Header, time.Now()); ok {
		return min(wait, d.maxDelay), true
	}
	return d.backoff(attempt), true
}

// backoff is the jittered exponential delay before retry number attempt:
// base·2^(attempt-1), capped, then drawn from its upper half.
func (d *retryDoer) backoff(attempt int) time.Duration {
	delay := d.maxDelay
	if shift := attempt - 1; shift < 32 {
		delay = min(d.baseDelay<<shift, d.maxDelay)
	}
	half := delay / 2
	return half + rand.N(half+1)
}

// transient reports whether a transport error is worth another try: the
// connection was refused, reset or closed before the response headers.
func transient(err error) bool {
	for _, target := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED,
		syscall.EPIPE, io.EOF, io.ErrUnexpectedEOF} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// replayable reports whether the request's body can be sent again.
func replayable(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

// rewind returns a copy of req with a fresh body.
func rewind(req *http.Request) (*http.Request, error) {
	r := req.WithContext(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, fmt.Errorf("re-reading the request body for a retry: %w", err)
		}
		r.Body = body
	}
	return r, nil
}

// retryAfter reads Retry-After (seconds or an HTTP date) or, failing
// that, retry-after-ms.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 && secs < 1e9 {
			return time.Duration(secs * float64(time.Second)), true
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0), true
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	return 0, false
}

// readBody reads (at most 64 KiB of) a failed response's body and closes
// it.
func readBody(resp *http.Response) []byte {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return body
}

// transientBody reports whether a failed response is worth another try
// by what it says, not only its status.
func transientBody(status int, body []byte) bool {
	pe, _ := parseProviderError(body)
	if pe.Message == "" {
		pe.Message = string(body)
	}
	return retryableKind(classifyKind(status, pe.Code, pe.Type, pe.Message), status)
}

// bodyMessage is the provider's message in a failed response's body.
func bodyMessage(body []byte, status string) string {
	if pe, ok := parseProviderError(body); ok && pe.Message != "" {
		return pe.Message
	}
	if msg := strings.TrimSpace(string(body)); msg != "" {
		return msg
	}
	return status
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctxErr(ctx)
	}
}

// ctxErr returns ctx's error, with its cause when that says more.
func ctxErr(ctx context.Context) error {
	err := ctx.Err()
	if cause := context.Cause(ctx); cause != nil && cause != err {
		return fmt.Errorf("%w: %w", err, cause)
	}
	return err
}
