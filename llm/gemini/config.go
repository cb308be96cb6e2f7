package gemini

import (
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/internal/httpretry"
)

// Defaults of Config.
const (
	// DefaultBaseURL is the Gemini API's root with its version; the client
	// adds /models/{model}:streamGenerateContent.
	DefaultBaseURL = "https://generativelanguage.googleapis.com/v1beta"
	// DefaultVersion is the API version added to a base URL that names
	// none.
	DefaultVersion = "v1beta"
	// KeyEnv is the variable the command reads the key from.
	KeyEnv = "GEMINI_API_KEY"
)

// Config configures a Client. Its fields mean what llm.Config's do; the
// errors of a bad one wrap llm.ErrConfig.
type Config struct {
	// BaseURL is the API root with its version, e.g.
	// "https://generativelanguage.googleapis.com/v1beta"; one without a
	// version (its last path segment v1, v1beta, v1alpha, ...) gets
	// DefaultVersion. Empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as the x-goog-api-key header, never in the URL. The
	// Gemini API needs one; a server on loopback may take any.
	APIKey string
	// Model names the model, e.g. "gemini-2.5-computer-use-preview-10-2025".
	Model string
	// Inactivity ends a stream after which nothing has arrived for this
	// long, waiting for the response headers included; 0 disables it.
	Inactivity time.Duration
	// MaxRetries, RetryBaseDelay and MaxRetryDelay: as llm.Config's (0
	// means llm's default; a negative MaxRetries disables retries).
	MaxRetries     int
	RetryBaseDelay time.Duration
	MaxRetryDelay  time.Duration
	// Temperature, TopP and MaxTokens (maxOutputTokens) are sent exactly
	// as set, 0 included; nil leaves them to the server.
	Temperature *float32
	TopP        *float32
	MaxTokens   *int
	// ThinkingLevel ("low", "high") or ThinkingBudget (tokens; -1 lets the
	// model decide) set thinkingConfig, with the thoughts' summaries
	// asked for (includeThoughts) and kept as the reply's Reasoning. Both
	// empty leave thinking to the model's default.
	ThinkingLevel  string
	ThinkingBudget *int
	// Logger receives retry warnings and debug traces, never the key.
	Logger *slog.Logger
	// HTTPClient sends the requests; nil uses one of its own. Its Timeout
	// must be 0: bound calls with their context and Inactivity.
	HTTPClient *http.Client

	root    string // BaseURL without its version
	version string
}

var versionSegment = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]*)?$`)

// normalize checks cfg and fills in its defaults, and returns the
// settings of its requests as used.
func (cfg Config) normalize() (Config, httpretry.Settings, error) {
	p := &httpretry.Problems{Kind: llm.ErrConfig}
	if cfg.Model == "" {
		p.Add("no model given: pass --model (e.g. gemini-2.5-flash) or set WEBAGENT_MODEL")
	}
	if cfg.APIKey == "" {
		p.Add("no API key given: pass --api-key or set %s", KeyEnv)
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	u, err := url.Parse(cfg.BaseURL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		p.Add("base URL %q is not an absolute http(s) URL (e.g. %s)", httpretry.RedactURL(cfg.BaseURL), DefaultBaseURL)
	case u.Query().Has("key"):
		p.Add("base URL carries a key (?key=): give the key with --api-key or %s, which the client sends as a header", KeyEnv)
	default:
		cfg.root, cfg.version = cfg.BaseURL, DefaultVersion
		if i := strings.LastIndex(u.Path, "/"); i >= 0 && versionSegment.MatchString(u.Path[i+1:]) {
			cfg.version = u.Path[i+1:]
			cfg.root = strings.TrimSuffix(cfg.BaseURL, "/"+cfg.version)
		} else {
			cfg.BaseURL += "/" + DefaultVersion
		}
	}
	send := httpretry.Settings{Inactivity: cfg.Inactivity, MaxRetries: cfg.MaxRetries, RetryBaseDelay: cfg.RetryBaseDelay,
		MaxRetryDelay: cfg.MaxRetryDelay, HTTPClient: cfg.HTTPClient}.Normalize(p)
	return cfg, send, p.Err()
}
