package anthropic

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// Defaults of Config.
const (
	// DefaultBaseURL is Anthropic's API root; the client adds /v1/messages.
	DefaultBaseURL = "https://api.anthropic.com"
	// DefaultMaxTokens is max_tokens when Config.MaxTokens is 0: the API
	// requires it.
	DefaultMaxTokens = 4096
	// Version is the anthropic-version header sent with every request.
	Version = "2023-06-01"
)

// Config configures a Client. Its fields mean what llm.Config's do.
type Config struct {
	// BaseURL is the API root, e.g. "https://api.anthropic.com" (a
	// trailing /v1 is dropped); empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as x-api-key; empty sends none.
	APIKey string
	// Model names the model, e.g. "claude-sonnet-4-5".
	Model string
	// MaxTokens is max_tokens; 0 means DefaultMaxTokens.
	MaxTokens int
	// ThinkingBudget turns extended thinking on with this many
	// budget_tokens (at least 1024, below MaxTokens); 0 leaves it off.
	ThinkingBudget int
	// Temperature and TopP are sent exactly as set; nil leaves them to the
	// API's default.
	Temperature *float32
	TopP        *float32
	// Inactivity ends a stream after which nothing has arrived for this
	// long, waiting for the response headers included; 0 disables it.
	Inactivity time.Duration
	// MaxRetries, RetryBaseDelay and MaxRetryDelay: as llm.Config's (0
	// means llm's default; a negative MaxRetries disables retries).
	MaxRetries     int
	RetryBaseDelay time.Duration
	MaxRetryDelay  time.Duration
	// Logger receives retry warnings and debug traces, never the key.
	Logger *slog.Logger
	// HTTPClient sends the requests; its Timeout must be 0.
	HTTPClient *http.Client
}

// normalize checks cfg and fills in its defaults, and returns the
// settings of its requests as used; every problem wraps llm.ErrConfig.
func (cfg Config) normalize() (Config, httpretry.Settings, error) {
	p := &httpretry.Problems{Kind: llm.ErrConfig}
	if cfg.Model == "" {
		p.Add("no model given: pass --model (e.g. claude-sonnet-4-5)")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimSuffix(strings.TrimRight(cfg.BaseURL, "/"), "/v1")
	if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.Add("base URL %q is not an absolute http(s) URL (e.g. %s)", httpretry.RedactURL(cfg.BaseURL), DefaultBaseURL)
	}
	if cfg.MaxTokens < 0 {
		p.Add("MaxTokens is %d: it must not be negative", cfg.MaxTokens)
	}
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	if cfg.ThinkingBudget != 0 && (cfg.ThinkingBudget < 1024 || cfg.ThinkingBudget >= cfg.MaxTokens) {
		p.Add("ThinkingBudget is %d: it must be at least 1024 and below MaxTokens (%d)", cfg.ThinkingBudget, cfg.MaxTokens)
	}
	send := httpretry.Settings{Inactivity: cfg.Inactivity, MaxRetries: cfg.MaxRetries, RetryBaseDelay: cfg.RetryBaseDelay,
		MaxRetryDelay: cfg.MaxRetryDelay, HTTPClient: cfg.HTTPClient}.Normalize(p)
	return cfg, send, p.Err()
}
