package anthropic

import (
	"errors"
	"fmt"
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

// normalize checks cfg and fills in its defaults; every problem wraps
// llm.ErrConfig.
func (cfg Config) normalize() (Config, error) {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{llm.ErrConfig}, args...)...))
	}
	if cfg.Model == "" {
		bad("no model given: pass --model (e.g. claude-sonnet-4-5)")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimSuffix(strings.TrimRight(cfg.BaseURL, "/"), "/v1")
	if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("base URL %q is not an absolute http(s) URL (e.g. %s)", httpretry.RedactURL(cfg.BaseURL), DefaultBaseURL)
	}
	if cfg.MaxTokens < 0 {
		bad("MaxTokens is %d: it must not be negative", cfg.MaxTokens)
	}
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	if cfg.ThinkingBudget != 0 && (cfg.ThinkingBudget < 1024 || cfg.ThinkingBudget >= cfg.MaxTokens) {
		bad("ThinkingBudget is %d: it must be at least 1024 and below MaxTokens (%d)", cfg.ThinkingBudget, cfg.MaxTokens)
	}
	if cfg.Inactivity < 0 || cfg.RetryBaseDelay < 0 || cfg.MaxRetryDelay < 0 {
		bad("Inactivity, RetryBaseDelay and MaxRetryDelay must not be negative")
	}
	if cfg.HTTPClient != nil && cfg.HTTPClient.Timeout != 0 {
		bad("HTTPClient.Timeout is %s: it must be 0, a whole-request timeout cuts long healthy streams", cfg.HTTPClient.Timeout)
	}
	if len(errs) > 0 {
		return cfg, errors.Join(errs...)
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = llm.DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.RetryBaseDelay == 0 {
		cfg.RetryBaseDelay = llm.DefaultRetryBaseDelay
	}
	if cfg.MaxRetryDelay == 0 {
		cfg.MaxRetryDelay = llm.DefaultMaxRetryDelay
	}
	return cfg, nil
}
