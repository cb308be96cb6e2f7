package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/webagent/webagent/llm/internal/httpretry"
)

// Defaults of Config.
const (
	// DefaultOpenAIBaseURL is used when an API key is given without a base
	// URL.
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	// DefaultInactivity is the stream inactivity window set by
	// ConfigFromEnv. The zero Config.Inactivity disables the window.
	DefaultInactivity = 60 * time.Second
	// DefaultMaxRetries is used when Config.MaxRetries is 0.
	DefaultMaxRetries = 3
	// DefaultRetryBaseDelay is used when Config.RetryBaseDelay is 0.
	DefaultRetryBaseDelay = 500 * time.Millisecond
	// DefaultMaxRetryDelay is used when Config.MaxRetryDelay is 0.
	DefaultMaxRetryDelay = 30 * time.Second
)

// Config configures a Client.
type Config struct {
	// BaseURL is the API root, e.g. "http://localhost:11434/v1". When it
	// is empty and APIKey is set, DefaultOpenAIBaseURL is used.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends no Authorization
	// header (local servers).
	APIKey string
	// Model names the model, e.g. "gpt-4o-mini" or "llama3.1".
	Model string
	// Inactivity ends a stream after which nothing has arrived for this
	// long (waiting for the response headers included). 0 disables it;
	// ConfigFromEnv sets DefaultInactivity. Negative is a configuration
	// error.
	Inactivity time.Duration
	// MaxRetries is how many times a request that failed before its
	// stream started (429, 5xx, connection refused or reset) is sent
	// again. 0 means DefaultMaxRetries; a negative value disables retries.
	MaxRetries int
	// RetryBaseDelay is the first back-off; it doubles on each retry,
	// with jitter. 0 means DefaultRetryBaseDelay.
	RetryBaseDelay time.Duration
	// MaxRetryDelay caps one back-off sleep, Retry-After included. 0 means
	// DefaultMaxRetryDelay.
	MaxRetryDelay time.Duration
	// Temperature, TopP, MaxTokens and Seed are sent exactly as set, 0
	// included; nil leaves them to the server's default.
	Temperature *float32
	TopP        *float32
	MaxTokens   *int
	Seed        *int
	// ToolMode is how tools are offered: ToolModeAuto (""), ToolModeNative
	// or ToolModePrompt.
	ToolMode string
	// Logger receives retry warnings and debug traces; never the API key.
	// Nil logs nothing.
	Logger *slog.Logger
	// HTTPClient sends the requests; nil uses a client of its own. Its
	// Timeout must be 0: a whole-request timeout cuts long healthy
	// streams. Bound calls with their context and Inactivity instead.
	HTTPClient *http.Client
}

// ConfigFromEnv returns a Config read from the environment:
// OPENAI_API_KEY, OPENAI_BASE_URL (DefaultOpenAIBaseURL when only a key is
// set, otherwise empty) and WEBAGENT_MODEL. Inactivity is
// DefaultInactivity; the other fields keep their defaults.
func ConfigFromEnv() Config {
	key := strings.TrimSpace(os.Getenv("OPENAI_API_KEY"))
	base := strings.TrimSpace(os.Getenv("OPENAI_BASE_URL"))
	if base == "" && key != "" {
		base = DefaultOpenAIBaseURL
	}
	return Config{
		BaseURL:    base,
		APIKey:     key,
		Model:      strings.TrimSpace(os.Getenv("WEBAGENT_MODEL")),
		Inactivity: DefaultInactivity,
	}
}

// normalize checks cfg and fills in its defaults. Every problem found is
// reported; each wraps ErrConfig.
func (cfg Config) normalize() (Config, error) {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...))
	}
	if cfg.Model == "" {
		bad("no model given: pass --model or set WEBAGENT_MODEL " +
			"(for a local Ollama server: --base-url http://localhost:11434/v1 --model llama3.1)")
	}
	if cfg.BaseURL == "" && cfg.APIKey != "" {
		cfg.BaseURL = DefaultOpenAIBaseURL
	}
	if cfg.BaseURL == "" {
		bad("no model server given: pass --base-url (for Ollama: --base-url http://localhost:11434/v1) "+
			"or set OPENAI_API_KEY to use %s", DefaultOpenAIBaseURL)
	} else if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("base URL %q is not an absolute http(s) URL (e.g. http://localhost:11434/v1)", httpretry.RedactURL(cfg.BaseURL))
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Inactivity < 0 {
		bad("Inactivity is %s: it must not be negative (0 disables the stream inactivity window)", cfg.Inactivity)
	}
	if cfg.RetryBaseDelay < 0 {
		bad("RetryBaseDelay is %s: it must not be negative (0 means %s)", cfg.RetryBaseDelay, DefaultRetryBaseDelay)
	}
	if cfg.MaxRetryDelay < 0 {
		bad("MaxRetryDelay is %s: it must not be negative (0 means %s)", cfg.MaxRetryDelay, DefaultMaxRetryDelay)
	}
	switch cfg.ToolMode {
	case "", ToolModeAuto, ToolModeNative, ToolModePrompt:
	default:
		bad("tool mode %q is not %q, %q or %q", cfg.ToolMode, ToolModeAuto, ToolModeNative, ToolModePrompt)
	}
	if cfg.HTTPClient != nil && cfg.HTTPClient.Timeout != 0 {
		bad("HTTPClient.Timeout is %s: it must be 0, a whole-request timeout cuts long healthy streams "+
			"(bound calls with their context and Config.Inactivity)", cfg.HTTPClient.Timeout)
	}
	if len(errs) > 0 {
		return cfg, errors.Join(errs...)
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.RetryBaseDelay == 0 {
		cfg.RetryBaseDelay = DefaultRetryBaseDelay
	}
	if cfg.MaxRetryDelay == 0 {
		cfg.MaxRetryDelay = DefaultMaxRetryDelay
	}
	return cfg, nil
}
