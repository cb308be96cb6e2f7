package llm

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/webagent/webagent/llm/internal/httpretry"
)

// Kind classifies a provider's error so that the user gets a hint.
type Kind string

// The kinds of provider errors.
const (
	// KindContextTooLarge: the conversation does not fit the model's
	// context window.
	KindContextTooLarge Kind = "context_too_large"
	// KindRateLimit: too many requests or tokens, or a quota is used up.
	KindRateLimit Kind = "rate_limit"
	// KindAuth: the key is missing, wrong, or has no access to the model.
	KindAuth Kind = "auth"
	// KindProviderDown: the provider or its upstream failed (5xx,
	// overloaded, an error in the middle of the stream).
	KindProviderDown Kind = "provider_down"
	// KindToolsUnsupported: the server or model does not accept tools.
	KindToolsUnsupported Kind = "tools_unsupported"
	// KindRefused: the provider stopped the reply (content filter).
	KindRefused Kind = "refused"
	// KindBadRequest: any other request the server refused.
	KindBadRequest Kind = "bad_request"
	// KindMalformed: the server's answer could not be read.
	KindMalformed Kind = "malformed"
)

// hints say what to do about each kind.
var hints = map[Kind]string{
	KindContextTooLarge:  "the conversation does not fit the model's context: use a model with a larger context, lower --snapshot-tokens, or raise the server's context size (llama.cpp --ctx-size, Ollama num_ctx)",
	KindRateLimit:        "rate limited: wait, lower --workers, or raise the account's limits",
	KindAuth:             "check --api-key (or OPENAI_API_KEY) and that the key may use this model",
	KindProviderDown:     "the provider failed; try again later or another provider",
	KindToolsUnsupported: "the server refuses tools: use --tool-mode prompt, or a model/server with tool support (llama.cpp --jinja)",
	KindRefused:          "the provider refused to answer (content filter)",
	KindBadRequest:       "the server refused the request; check --model and the server's parameters",
	KindMalformed:        "the model is asked again; a server that keeps sending this is not OpenAI-compatible",
}

// Hint returns what to do about an error of kind k.
func (k Kind) Hint() string { return hints[k] }

// providerError is an error object as providers send it, in a body or in
// a stream: {"error":{"message","type","code"}}, {"error":"text"},
// {"object":"error","message",...} (vLLM), {"detail":"..."} (FastAPI),
// {"message":...}.
type providerError struct {
	Message string
	Code    string
	Type    string
	Status  int // a numeric code that looks like an HTTP status
}

// parseProviderError reads an error object from b. ok is false when b
// holds none.
func parseProviderError(b []byte) (providerError, bool) {
	var list []json.RawMessage // Gemini answers [{"error": {...}}]
	if json.Unmarshal(b, &list) == nil && len(list) > 0 {
		b = list[0]
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return providerError{}, false
	}
	if raw, ok := top["error"]; ok && !isNull(raw) {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			pe := providerError{Message: s}
			pe.fill(top)
			return pe, true
		}
		var inner map[string]json.RawMessage
		if json.Unmarshal(raw, &inner) == nil {
			pe := providerError{}
			pe.fill(inner)
			if pe.Message == "" {
				pe.Message = string(raw)
			}
			return pe, true
		}
		return providerError{Message: string(raw)}, true
	}
	var object string
	_ = json.Unmarshal(top["object"], &object)
	if object == "error" {
		pe := providerError{}
		pe.fill(top)
		return pe, true
	}
	if raw, ok := top["detail"]; ok && !isNull(raw) && top["choices"] == nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		return providerError{Message: s}, true
	}
	return providerError{}, false
}

// fill reads message, code, type and OpenRouter's metadata.raw.
func (pe *providerError) fill(m map[string]json.RawMessage) {
	if pe.Message == "" {
		_ = json.Unmarshal(m["message"], &pe.Message)
	}
	_ = json.Unmarshal(m["type"], &pe.Type)
	if raw := m["code"]; !isNull(raw) && len(raw) > 0 {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			pe.Code = s
		} else {
			pe.Code = string(raw)
		}
		if n, err := strconv.Atoi(pe.Code); err == nil && n >= 400 && n <= 599 {
			pe.Status = n
		}
	}
	if pe.Status == 0 {
		var n int
		if json.Unmarshal(m["status"], &n) == nil && n >= 400 && n <= 599 {
			pe.Status = n
		}
	}
	var meta struct {
		Raw json.RawMessage `json:"raw"`
	}
	if json.Unmarshal(m["metadata"], &meta) == nil && len(meta.Raw) > 0 && !isNull(meta.Raw) {
		var s string
		if json.Unmarshal(meta.Raw, &s) != nil {
			s = string(meta.Raw)
		}
		if s != "" && !strings.Contains(pe.Message, s) {
			pe.Message += " (upstream: " + clip(s, 300) + ")"
		}
	}
}

func isNull(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t == "" || t == "null"
}

// classifyKind decides the kind of an error from the HTTP status (0 in a
// stream), the provider's code and type, and its message.
func classifyKind(status int, code, typ, msg string) Kind {
	text := strings.ToLower(code + " " + typ + " " + msg)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(text, s) {
				return true
			}
		}
		return false
	}
	switch {
	case status == http.StatusTooManyRequests:
		return KindRateLimit
	case has("context length", "context_length", "context window", "maximum context", "context size",
		"exceed_context_size", "exceeds the available context", "too many tokens", "prompt is too long",
		"input is too long", "reduce the length", "n_ctx", "maximum number of tokens", "token limit"):
		return KindContextTooLarge
	case status == http.StatusUnauthorized || status == http.StatusForbidden ||
		has("invalid api key", "invalid_api_key", "incorrect api key", "unauthorized", "authentication", "permission_denied"):
		return KindAuth
	case status == http.StatusTooManyRequests || has("rate limit", "rate_limit", "too many requests", "quota", "resource_exhausted"):
		return KindRateLimit
	case has("does not support tools", "tools param requires", "tool choice requires", "tool_choice", "tools are not supported",
		"does not support function", "function calling is not", "tool use is not supported", "tools is not supported",
		"not support tool"):
		return KindToolsUnsupported
	case has("content_filter", "content filter", "safety"):
		return KindRefused
	case status >= 500 || has("overloaded", "unavailable", "server_error", "internal error", "internal server error",
		"bad gateway", "upstream", "timeout", "timed out"):
		return KindProviderDown
	case status >= 400:
		return KindBadRequest
	}
	return KindProviderDown
}

// retryableKind reports whether another try may succeed.
func retryableKind(k Kind, status int) bool {
	switch k {
	case KindRateLimit, KindProviderDown:
		return status == 0 || httpretry.RetryableStatus(status)
	}
	return false
}

// ProviderError returns the *Error of an error a model server answered, classified as
// this package classifies its own, so that a client of another API (package
// llm/responses) gives the loop the same kinds, hints and codes. status is the HTTP
// status, 0 for an error sent inside the stream; body is the error as the server sent
// it (any error object parseProviderError reads, or plain text); apiKey is removed from
// the message.
func ProviderError(status int, body []byte, apiKey string, attempts int) *Error {
	pe, ok := parseProviderError(body)
	if !ok {
		pe.Message = strings.TrimSpace(string(body))
		if pe.Message == "" && status > 0 {
			pe.Message = http.StatusText(status)
		}
	}
	c := &Client{cfg: Config{APIKey: apiKey}}
	return c.newError(status, pe, attempts)
}
