package gemini

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"unicode/utf8"

	"google.golang.org/genai"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// The Gemini API's errors are Google's: {"error": {"code": 400, "message":
// ..., "status": "INVALID_ARGUMENT", "details": [{"@type":
// "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}]}}.
// A key that is not valid is a 400 with the reason API_KEY_INVALID, which
// is llm.KindAuth here as a 401 is elsewhere.

// apiError is the error object of a body or of an event of the stream.
type apiError struct {
	Code    int              `json:"code"`
	Message string           `json:"message"`
	Status  string           `json:"status"`
	Details []map[string]any `json:"details"`
}

// errorBody reads {"error": {...}} (or a list of them, as the API answers
// some streamed requests).
func errorBody(b []byte) apiError {
	var list []json.RawMessage
	if json.Unmarshal(b, &list) == nil && len(list) > 0 {
		b = list[0]
	}
	var e struct {
		Error apiError `json:"error"`
	}
	_ = json.Unmarshal(b, &e)
	return e.Error
}

// reason is the ErrorInfo reason of the details, e.g. API_KEY_INVALID.
func (e apiError) reason() string {
	for _, d := range e.Details {
		if r, ok := d["reason"].(string); ok && r != "" {
			return r
		}
	}
	return ""
}

// kindOf classifies an error of the API by its status name, reason and
// HTTP status.
func kindOf(status int, e apiError) llm.Kind {
	low := strings.ToLower(e.Message)
	switch {
	case e.reason() == "API_KEY_INVALID" || strings.Contains(low, "api key not valid") ||
		e.Status == "UNAUTHENTICATED" || e.Status == "PERMISSION_DENIED" ||
		status == http.StatusUnauthorized || status == http.StatusForbidden:
		return llm.KindAuth
	case e.Status == "RESOURCE_EXHAUSTED" || status == http.StatusTooManyRequests:
		return llm.KindRateLimit
	case strings.Contains(low, "token count") && strings.Contains(low, "exceeds") ||
		strings.Contains(low, "input token") && strings.Contains(low, "limit") || strings.Contains(low, "context window"):
		return llm.KindContextTooLarge
	case e.Status == "UNAVAILABLE" || e.Status == "INTERNAL" || e.Status == "DEADLINE_EXCEEDED" || status >= 500:
		return llm.KindProviderDown
	case status >= 400 || e.Status != "":
		return llm.KindBadRequest
	}
	return llm.KindProviderDown
}

// newError is the *llm.Error of an error the API answered: status 0 for
// one sent inside the stream.
func (c *Client) newError(status int, e apiError, attempts int) *llm.Error {
	msg := strings.TrimSpace(e.Message)
	if msg == "" {
		msg = http.StatusText(cmpInt(status, e.Code))
	}
	k := kindOf(cmpInt(status, e.Code), e)
	code := e.Status
	if r := e.reason(); r != "" {
		code = r
	}
	retry := (k == llm.KindProviderDown || k == llm.KindRateLimit) && (status == 0 || httpretry.RetryableStatus(status))
	return &llm.Error{Status: status, Code: code, Message: c.redact(clip(msg, 2000)), Kind: k, Retryable: retry, Attempts: attempts}
}

func cmpInt(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// classify explains an error of a call: the API's (an *llm.Error), no
// connection (llm.ErrUnreachable), a stream that broke off (a retryable
// *llm.Error), or the transport's. inStream says a 2xx response arrived.
func (c *Client) classify(err error, attempts int, inStream bool) error {
	var le *llm.Error
	if errors.As(err, &le) {
		return err
	}
	var ae genai.APIError
	if errors.As(err, &ae) {
		status := ae.Code
		if inStream {
			status = 0
		}
		return c.newError(status, apiError{Code: ae.Code, Message: ae.Message, Status: ae.Status, Details: ae.Details}, attempts)
	}
	var dnsErr *net.DNSError
	var opErr *net.OpError
	if errors.As(err, &dnsErr) || (errors.As(err, &opErr) && opErr.Op == "dial") {
		return fmt.Errorf("%w: cannot reach %s (%w); is the model server still running at that address?",
			llm.ErrUnreachable, c.cfg.BaseURL, err) // the key is a header, never in the URL the error names
	}
	if inStream && httpretry.Transient(err) {
		return &llm.Error{Kind: llm.KindProviderDown, Retryable: true, Attempts: attempts,
			Message: "the stream broke off: " + c.redact(err.Error()), Err: err}
	}
	return fmt.Errorf("model request failed: %w", err)
}

// redact removes the key from a text that may be shown or logged.
func (c *Client) redact(s string) string { return redact(s, c.cfg.APIKey) }

func redact(s, key string) string {
	if len(key) < 8 { // a placeholder of a local server
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
