// Package httpretry is what webagent's model clients (chat completions,
// the Messages API, the Responses API, the Gemini API) share about
// sending a request: their Configs' settings of it (Settings: checked,
// with their defaults, in the same words for every client), when to send
// a failed request again, how long to wait first, and the inactivity
// window's part in reading a response. It is not API: only package llm
// and its subpackages import it.
package httpretry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/webagent/webagent/watchdog"
)

// Backoff is the jittered exponential delay before retry number attempt
// (1 for the first retry): base·2^(attempt-1), capped at limit, then drawn
// from its upper half so that clients started together spread out.
func Backoff(base, limit time.Duration, attempt int) time.Duration {
	delay := limit
	if shift := attempt - 1; shift >= 0 && shift < 32 {
		delay = min(base<<shift, limit)
	}
	half := delay / 2
	return half + rand.N(half+1)
}

// After reads how long a server asked the client to wait: retry-after-ms
// (OpenAI and Anthropic send it beside Retry-After, and it is the more
// precise), else Retry-After in seconds or as an HTTP date, counted from
// now. ok is false when h says nothing usable.
func After(h http.Header, now time.Time) (wait time.Duration, ok bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 && secs < 1e9 {
			return time.Duration(secs * float64(time.Second)), true
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0), true
		}
	}
	return 0, false
}

// Transient reports whether a transport error is worth another try: the
// connection was refused, reset or closed before the response was read.
func Transient(err error) bool {
	for _, target := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED,
		syscall.EPIPE, io.EOF, io.ErrUnexpectedEOF} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// Sleep waits for d or until ctx ends; then it returns CtxErr(ctx).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return CtxErr(ctx)
	}
}

// CtxErr returns ctx's error, with its cause when that says more.
func CtxErr(ctx context.Context) error {
	err := ctx.Err()
	if cause := context.Cause(ctx); cause != nil && cause != err {
		return fmt.Errorf("%w: %w", err, cause)
	}
	return err
}

// IdleCause is the *watchdog.IdleError that ended ctx when an inactivity
// window fired, else nil.
func IdleCause(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	if cause := context.Cause(ctx); errors.Is(cause, watchdog.ErrTimeout) {
		return cause
	}
	return nil
}

// TouchBody restarts an inactivity window whenever bytes of a response
// arrive, keep-alives (SSE comments, ping events) included.
type TouchBody struct {
	io.ReadCloser
	In *watchdog.Inactivity
}

// Read reads from the body and touches the window when bytes came.
func (b *TouchBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.In.Touch()
	}
	return n, err
}

// RedactURL hides a password in a URL, if it parses.
func RedactURL(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return s
}
