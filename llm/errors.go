package llm

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
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
	// ErrContextTooLarge marks a provider error saying the conversation
	// does not fit the model's context.
	ErrContextTooLarge = errors.New("llm: the conversation does not fit the model's context")
	// ErrToolsUnsupported marks a server that refuses tools; the client
	// then switches to prompt mode unless ToolMode is ToolModeNative.
	ErrToolsUnsupported = errors.New("llm: the model server does not accept tools")
)

// Error is an error answered by the model server, with the provider's
// status and message.
type Error struct {
	// Status is the HTTP status; 0 for an error sent inside the stream.
	Status int
	// Code is the provider's error code, e.g. "rate_limit_exceeded".
	Code string
	// Message is the provider's message, verbatim but for the API key.
	Message string
	// Kind classifies the error (context too large, rate limit, ...).
	Kind Kind
	// Retryable reports whether the failure is transient (429, 5xx, a
	// provider failure mid-stream): retrying later may succeed. The
	// client's own retries are over.
	Retryable bool
	// Attempts is how many times the request was sent.
	Attempts int
	// Err is an underlying error, if any.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Kind == KindMalformed:
		b.WriteString("model server sent an unreadable reply")
	case e.Status > 0:
		fmt.Fprintf(&b, "model server returned %d %s", e.Status, http.StatusText(e.Status))
	default:
		b.WriteString("model server sent an error in the stream")
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Code != "" && !strings.Contains(e.Message, e.Code) {
		fmt.Fprintf(&b, " [code %s]", e.Code)
	}
	if h := e.Kind.Hint(); h != "" && e.Kind != KindMalformed {
		fmt.Fprintf(&b, " (%s: %s)", strings.ReplaceAll(string(e.Kind), "_", " "), h)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (gave up after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is matches ErrUnauthorized, ErrRateLimited, ErrContextTooLarge and
// ErrToolsUnsupported by kind.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.Kind == KindAuth || e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	case ErrRateLimited:
		return e.Kind == KindRateLimit || e.Status == http.StatusTooManyRequests
	case ErrContextTooLarge:
		return e.Kind == KindContextTooLarge
	case ErrToolsUnsupported:
		return e.Kind == KindToolsUnsupported
	}
	return false
}

// newError builds the *Error of a provider's error: status 0 for an error
// sent in the stream.
func (c *Client) newError(status int, pe providerError, attempts int) *Error {
	if status == 0 && pe.Status != 0 && pe.Status != 200 {
		// An in-stream error names its status only in its code; keep it
		// for classification, the error still says "in the stream".
		k := classifyKind(pe.Status, pe.Code, pe.Type, pe.Message)
		return &Error{Code: pe.Code, Message: c.redact(clip(pe.Message, 2000)), Kind: k,
			Retryable: retryableKind(k, pe.Status), Attempts: attempts}
	}
	k := classifyKind(status, pe.Code, pe.Type, pe.Message)
	return &Error{Status: status, Code: pe.Code, Message: c.redact(clip(pe.Message, 2000)), Kind: k,
		Retryable: retryableKind(k, status), Attempts: attempts}
}

// responseError reads a failed response's body and closes it.
func (c *Client) responseError(resp *http.Response, attempts int) *Error {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	pe, ok := parseProviderError(body)
	if !ok {
		pe.Message = strings.TrimSpace(string(body))
		if pe.Message == "" {
			pe.Message = resp.Status
		}
	}
	return c.newError(resp.StatusCode, pe, attempts)
}

// classify explains a transport error: ErrUnreachable when no connection
// could be made, else a plain wrapped error.
func (c *Client) classify(err error, attempts int) error {
	var e *Error
	if errors.As(err, &e) {
		if e.Attempts == 0 {
			e.Attempts = attempts
		}
		return err
	}
	if cannotConnect(err) {
		return fmt.Errorf("%w: cannot reach %s (%w); is the model server still running at that address?",
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

// minRedact is the shortest key that is redacted: a shorter one ("x",
// "ollama") is a placeholder of a local server, and replacing it would
// garble every message ("ma[REDACTED]imum").
const minRedact = 8

func redactKey(s, key string) string {
	if len(key) < minRedact {
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
