package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"unicode/utf8"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/webagent/webagent/llm"
)

// kinds maps the API's error types to llm's kinds.
var kinds = map[string]llm.Kind{
	"authentication_error":  llm.KindAuth,
	"permission_error":      llm.KindAuth,
	"rate_limit_error":      llm.KindRateLimit,
	"overloaded_error":      llm.KindProviderDown,
	"api_error":             llm.KindProviderDown,
	"timeout_error":         llm.KindProviderDown,
	"request_too_large":     llm.KindContextTooLarge,
	"invalid_request_error": llm.KindBadRequest,
	"not_found_error":       llm.KindBadRequest,
	"billing_error":         llm.KindRateLimit,
}

// kindOf classifies an error of the API: its type first, then its status,
// and "prompt is too long" as the context it does not fit.
func kindOf(status int, typ, msg string) llm.Kind {
	low := strings.ToLower(msg)
	switch {
	case strings.Contains(low, "prompt is too long") || strings.Contains(low, "context window"):
		return llm.KindContextTooLarge
	case kinds[typ] != "":
		return kinds[typ]
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return llm.KindAuth
	case status == http.StatusTooManyRequests:
		return llm.KindRateLimit
	case status >= 500 || status == 0:
		return llm.KindProviderDown
	}
	return llm.KindBadRequest
}

// apiError turns the SDK's error into an *llm.Error. inStream says the
// error came as an "error" event of a 2xx stream: its Status is 0, as
// llm's are.
func (c *Client) apiError(ae *sdk.Error, inStream bool, attempts int) *llm.Error {
	typ := string(ae.Type())
	msg := ae.Message
	if msg == "" {
		msg = strings.TrimSpace(ae.RawJSON())
	}
	if msg == "" {
		msg = http.StatusText(ae.StatusCode)
	}
	status := ae.StatusCode
	if inStream {
		status = 0
	}
	k := kindOf(status, typ, msg)
	retryable := (k == llm.KindProviderDown || k == llm.KindRateLimit) &&
		(status == 0 || status == http.StatusTooManyRequests || (status >= 500 && status != http.StatusNotImplemented))
	return &llm.Error{Status: status, Code: typ, Message: c.redact(clip(msg, 2000)), Kind: k,
		Retryable: retryable, Attempts: attempts}
}

// classify explains an error of a call that did not come from the API.
func (c *Client) classify(err error, attempts int, inStream bool) error {
	var le *llm.Error
	if errors.As(err, &le) {
		return err
	}
	var ae *sdk.Error
	if errors.As(err, &ae) {
		return c.apiError(ae, inStream || (ae.StatusCode >= 200 && ae.StatusCode <= 299), attempts)
	}
	var dnsErr *net.DNSError
	var opErr *net.OpError
	if errors.As(err, &dnsErr) || (errors.As(err, &opErr) && opErr.Op == "dial") {
		return fmt.Errorf("%w: cannot reach %s (%s); is the model server still running at that address?",
			llm.ErrUnreachable, c.cfg.BaseURL, c.redact(err.Error()))
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

// errorBody reads the API's error object, {"type":"error","error":{"type",
// "message"}}.
func errorBody(b []byte) (typ, msg string) {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &e) != nil {
		return "", ""
	}
	return e.Error.Type, e.Error.Message
}
