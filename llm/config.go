package llm

import (
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
	// DefaultMaxRetries (3) is used when Config.MaxRetries is 0.
	DefaultMaxRetries = httpretry.DefaultMaxRetries
	// DefaultRetryBaseDelay (500ms) is used when Config.RetryBaseDelay is
	// 0.
	DefaultRetryBaseDelay = httpretry.DefaultRetryBaseDelay
	// DefaultMaxRetryDelay (30s) is used when Config.MaxRetryDelay is 0.
	DefaultMaxRetryDelay = httpretry.DefaultMaxRetryDelay
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

// normalize checks cfg and fills in its defaults, and returns the
// settings of its requests as used. Every problem found is reported; each
// wraps ErrConfig.
func (cfg Config) normalize() (Config, httpretry.Settings, error) {
	p := &httpretry.Problems{Kind: ErrConfig}
	if cfg.Model == "" {
		p.Add("no model given: pass --model or set WEBAGENT_MODEL " +
			"(for a local Ollama server: --base-url http://localhost:11434/v1 --model llama3.1)")
	}
	if cfg.BaseURL == "" && cfg.APIKey != "" {
		cfg.BaseURL = DefaultOpenAIBaseURL
	}
	if cfg.BaseURL == "" {
		p.Add("no model server given: pass --base-url (for Ollama: --base-url http://localhost:11434/v1) "+
			"or set OPENAI_API_KEY to use %s", DefaultOpenAIBaseURL)
	} else if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.Add("base URL %q is not an absolute http(s) URL (e.g. http://localhost:11434/v1)", httpretry.RedactURL(cfg.BaseURL))
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	switch cfg.ToolMode {
	case "", ToolModeAuto, ToolModeNative, ToolModePrompt:
	default:
		p.Add("tool mode %q is not %q, %q or %q", cfg.ToolMode, ToolModeAuto, ToolModeNative, ToolModePrompt)
	}
	send := httpretry.Settings{Inactivity: cfg.Inactivity, MaxRetries: cfg.MaxRetries, RetryBaseDelay: cfg.RetryBaseDelay,
		MaxRetryDelay: cfg.MaxRetryDelay, HTTPClient: cfg.HTTPClient}.Normalize(p)
	return cfg, send, p.Err()
}
