package llm

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// Sentinels matched with errors.Is.
var (
	// ErrConfig marks an invalid Config.
	ErrConfig = errors.New("llm: invalid configuration")
	// ErrUnauthorized marks a 401 or 403 answer: the key is missing, wrong
	// or lacks access to the model.
	ErrUnauthorized = errors.New("llm: the model server refused the credentials")
	// ErrUnreachable marks a connection that could not be made: refused,
	// unknown host, no route.
	ErrUnreachable = errors.New("llm: the model server is unreachable")
	// ErrRateLimited marks a 429 answer that outlasted the retries.
	ErrRateLimited = errors.New("llm: rate limited by the model server")
)

// Error is an error answered by the model server, with the provider's
// status and message.
type Error struct {
	// Status is the HTTP status; 0 for an error sent inside the stream.
	Status int
	// Code is the provider's error code, e.g. "rate_limit_exceeded".
	Code string
	// Message is the provider's message, with the API key removed.
	Message string
	// Retryable reports whether the failure is transient (429, 5xx):
	// retrying later may succeed. The client's own retries are over.
	Retryable bool
	// Attempts is how many times the request was sent.
	Attempts int
	// Err is the underlying error of the client library.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Status > 0 {
		fmt.Fprintf(&b, "model server returned %d %s", e.Status, http.StatusText(e.Status))
	} else {
		b.WriteString("model server sent an error in the stream")
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (gave up after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is matches ErrUnauthorized for 401 and 403 and ErrRateLimited for 429.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	}
	return false
}

// retryableStatus reports whether a status is worth another try.
func retryableStatus(status int) bool {
	return status == http.StatusTooManyRequests ||
		(status >= 500 && status <= 599 && status != http.StatusNotImplemented)
}

// classify turns an error of the client library into an *Error, an
// ErrUnreachable error or a plain wrapped error.
func (c *Client) classify(err error, attempts int) error {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		e := &Error{Status: apiErr.HTTPStatusCode, Message: c.redact(apiErr.Message), Attempts: attempts, Err: err}
		if apiErr.Code != nil {
			e.Code = fmt.Sprint(apiErr.Code)
		}
		e.Retryable = retryableStatus(e.Status)
		return e
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		msg := strings.TrimSpace(string(reqErr.Body))
		if msg == "" && reqErr.Err != nil {
			msg = reqErr.Err.Error()
		}
		return &Error{Status: reqErr.HTTPStatusCode, Message: c.redact(clip(msg, 300)), Attempts: attempts,
			Retryable: retryableStatus(reqErr.HTTPStatusCode), Err: err}
	}
	if cannotConnect(err) {
		return fmt.Errorf("%w: cannot reach %s (%w); is the server running? e.g. `ollama serve`, or set --base-url",
			ErrUnreachable, c.cfg.BaseURL, netCause(err))
	}
	return fmt.Errorf("model request failed: %w", err)
}

// cannotConnect reports whether err means no connection could be made:
// refused, unknown host, no route, dial failure.
func cannotConnect(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// netCause strips the *url.Error layer, whose text repeats the URL.
func netCause(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}

// redact removes the API key from a text that may be shown or logged.
func (c *Client) redact(s string) string { return redactKey(s, c.cfg.APIKey) }

func redactKey(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[REDACTED]")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
