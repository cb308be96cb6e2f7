package llm

import (
	"strings"
)

// The retries themselves (Retry-After, back-off, each attempt's
// inactivity window) are internal/httpretry's, shared with the clients of
// the other APIs; what is chat completions' own is reading a failed body.

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
