package responses

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// Config configures a Client. Its fields mean what llm.Config's do; the
// errors of a bad one wrap llm.ErrConfig.
type Config struct {
	// BaseURL is the API root; the client posts to BaseURL + "/responses".
	// Empty with an APIKey means llm.DefaultOpenAIBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends none.
	APIKey string
	// Model names the model, e.g. "gpt-5.4".
	Model string
	// Inactivity ends a stream after which nothing has arrived for this
	// long (waiting for the response headers included). 0 disables it.
	Inactivity time.Duration
	// MaxRetries is how many times a request that failed before its stream
	// started (429, 5xx, connection refused or reset), or whose stream
	// failed with a transient error, is sent again. 0 means
	// llm.DefaultMaxRetries; negative disables retries.
	MaxRetries int
	// RetryBaseDelay is the first back-off, doubled on each retry with
	// jitter; 0 means llm.DefaultRetryBaseDelay.
	RetryBaseDelay time.Duration
	// MaxRetryDelay caps one back-off, Retry-After included; 0 means
	// llm.DefaultMaxRetryDelay.
	MaxRetryDelay time.Duration
	// Temperature, TopP and MaxTokens (max_output_tokens) are sent exactly
	// as set, 0 included; nil leaves them to the server.
	Temperature *float32
	TopP        *float32
	MaxTokens   *int
	// ReasoningEffort ("minimal", "low", "medium", "high", ...) is sent as
	// reasoning.effort with a summary "auto"; empty sends no reasoning
	// settings.
	ReasoningEffort string
	// NoReasoningItems stops asking for the encrypted reasoning items
	// (include "reasoning.encrypted_content"), for a model that does not
	// reason and refuses the include.
	NoReasoningItems bool
	// PromptCacheKey is sent as prompt_cache_key. Empty derives one per
	// task: a hash of the model, the instructions and the first user
	// message, the same at every step of a run.
	PromptCacheKey string
	// ComputerPreview declares the older computer_use_preview tool (the
	// display's size, environment "browser", one action a call) in place
	// of the computer tool, for a model that knows only it.
	ComputerPreview bool
	// Logger receives retry warnings and debug traces, never the key.
	Logger *slog.Logger
	// HTTPClient sends the requests; nil uses one of its own. Its Timeout
	// must be 0: bound calls with their context and Inactivity.
	HTTPClient *http.Client
}

// normalize checks cfg and fills in its defaults, and returns the
// settings of its requests as used.
func (cfg Config) normalize() (Config, httpretry.Settings, error) {
	p := &httpretry.Problems{Kind: llm.ErrConfig}
	if cfg.Model == "" {
		p.Add("no model given: pass --model or set WEBAGENT_MODEL")
	}
	if cfg.BaseURL == "" && cfg.APIKey != "" {
		cfg.BaseURL = llm.DefaultOpenAIBaseURL
	}
	if cfg.BaseURL == "" {
		p.Add("no model server given: pass --base-url or set OPENAI_API_KEY to use %s", llm.DefaultOpenAIBaseURL)
	} else if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.Add("base URL %q is not an absolute http(s) URL (e.g. https://api.openai.com/v1)", httpretry.RedactURL(cfg.BaseURL))
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	send := httpretry.Settings{Inactivity: cfg.Inactivity, MaxRetries: cfg.MaxRetries, RetryBaseDelay: cfg.RetryBaseDelay,
		MaxRetryDelay: cfg.MaxRetryDelay, HTTPClient: cfg.HTTPClient}.Normalize(p)
	return cfg, send, p.Err()
}
