package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm/anthropic"
	"github.com/webagent/webagent/llm/gemini"
	"github.com/webagent/webagent/llm/responses"
)

// The APIs --api chooses from.
const (
	apiChat      = "chat"
	apiAnthropic = "anthropic"
	apiResponses = "responses"
	apiGemini    = "gemini"
)

// registerAPI adds --api, which only the commands that read it register.
func registerAPI(fs *flag.FlagSet, dst *string) {
	fs.Func("api", "the model's API: chat (OpenAI-compatible chat completions), anthropic (the Messages API; key from $ANTHROPIC_API_KEY or --api-key), responses (OpenAI's Responses API) or gemini (Google's Gemini API; key from $GEMINI_API_KEY or --api-key); default inferred from --base-url (api.anthropic.com is anthropic, generativelanguage.googleapis.com gemini), else chat",
		func(s string) error {
			switch s {
			case apiChat, apiAnthropic, apiResponses, apiGemini:
				*dst = s
				return nil
			}
			return fmt.Errorf("use %s, %s, %s or %s", apiChat, apiAnthropic, apiResponses, apiGemini)
		})
}

// The tool sets --tools chooses from.
const (
	toolsWebagent = "webagent"
	toolsNative   = "native"
	toolsBrowser  = "browser"
)

// registerTools adds --tools, beside --api on the commands that read it.
func registerTools(fs *flag.FlagSet, dst *string) {
	*dst = toolsWebagent
	fs.Func("tools", "the tools the model gets: webagent (webagent's own table, on every API), native (its vendor's computer tool, carried out by webagent's browser: --api anthropic, responses or gemini) or browser (Claude's browser use tool: --api anthropic)",
		func(s string) error {
			switch s {
			case toolsWebagent, toolsNative, toolsBrowser:
				*dst = s
				return nil
			}
			return fmt.Errorf("use %s, %s or %s", toolsWebagent, toolsNative, toolsBrowser)
		})
}

// nativeKind is the vendor's tool kind --tools asks for on api ("" for
// webagent's own tools), or a usage error when the API's vendor has none.
func nativeKind(tools, api string) (string, error) {
	switch {
	case tools == toolsNative && api == apiChat:
		return "", usagef("--tools native needs an API with a vendor's computer tool: --api %s (Claude's computer use), --api %s (OpenAI's computer tool) or --api %s (Gemini's computer use); chat completions have none",
			apiAnthropic, apiResponses, apiGemini)
	case tools == toolsBrowser && api != apiAnthropic:
		return "", usagef("--tools browser is Claude's browser use tool: it needs --api %s", apiAnthropic)
	case tools == toolsNative:
		return contract.NativeComputer, nil
	case tools == toolsBrowser:
		return contract.NativeBrowser, nil
	}
	return "", nil
}

// chooseAPI is --api, or the API the base URL names, said in the log.
func chooseAPI(api, baseURL string, log *slog.Logger) string {
	if api != "" {
		return api
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return apiChat
	}
	switch host := u.Hostname(); {
	case host == "api.anthropic.com" || strings.HasSuffix(host, ".anthropic.com"):
		log.Info("--api anthropic inferred from --base-url", "base_url", u.Redacted())
		return apiAnthropic
	case host == "generativelanguage.googleapis.com" && !strings.Contains(u.Path, "/openai"): // not its OpenAI-compatible endpoint
		log.Info("--api gemini inferred from --base-url", "base_url", u.Redacted())
		return apiGemini
	}
	return apiChat
}

// newModelAPI builds the model client of the API chosen and checks its
// endpoint, as newModel does for chat completions.
func newModelAPI(ctx context.Context, api string, m *modelFlags, log *slog.Logger) (contract.Model, error) {
	cfg := m.config(log)
	switch chooseAPI(api, m.baseURL, log) {
	case apiResponses:
		return newResponsesModel(ctx, m, log)
	case apiGemini:
		return newGeminiModel(ctx, m, log)
	case apiChat:
		return newModel(ctx, cfg)
	}
	acfg := anthropic.Config{BaseURL: m.baseURL, APIKey: m.apiKey, Model: cfg.Model, Inactivity: m.idle,
		Temperature: m.temperature, TopP: m.topP, Logger: log}
	if acfg.APIKey == "" {
		acfg.APIKey = strings.TrimSpace(os.Getenv("ANTHROPIC_API_KEY"))
	}
	if m.maxTokens != nil {
		acfg.MaxTokens = *m.maxTokens
	}
	if acfg.Model == "" {
		return nil, usagef("no model configured: pass --model NAME (e.g. --api anthropic --model claude-sonnet-4-5) or set WEBAGENT_MODEL")
	}
	client, err := anthropic.New(acfg)
	if err != nil {
		return nil, usagef("%v", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := client.Ping(pctx); err != nil {
		return nil, pingError(ctx, client.BaseURL(), acfg.APIKey != "", "ANTHROPIC_API_KEY", anthropic.ErrNotMessagesEndpoint, err)
	}
	return client, nil
}

// newResponsesModel builds a client of OpenAI's Responses API and checks
// its endpoint (POST /responses, the key) before the browser starts.
func newResponsesModel(ctx context.Context, m *modelFlags, log *slog.Logger) (contract.Model, error) {
	cfg := m.config(log)
	if cfg.Model == "" {
		return nil, usagef("no model configured: pass --model NAME (e.g. --api responses --model gpt-5.4) or set WEBAGENT_MODEL")
	}
	rc, err := responses.New(responses.Config{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, Inactivity: m.idle,
		Temperature: m.temperature, TopP: m.topP, MaxTokens: m.maxTokens, Logger: log})
	if err != nil {
		return nil, usagef("%v", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := rc.Ping(pctx); err != nil {
		return nil, pingError(ctx, rc.BaseURL(), cfg.APIKey != "", "OPENAI_API_KEY", responses.ErrNotResponsesEndpoint, err)
	}
	return rc, nil
}

// newGeminiModel builds a client of Google's Gemini API and checks its
// endpoint (POST models/{model}:generateContent, the key) before the
// browser starts. The key is --api-key or $GEMINI_API_KEY, never
// OPENAI_API_KEY.
func newGeminiModel(ctx context.Context, m *modelFlags, log *slog.Logger) (contract.Model, error) {
	cfg := m.config(log)
	gcfg := gemini.Config{BaseURL: m.baseURL, APIKey: m.apiKey, Model: cfg.Model, Inactivity: m.idle,
		Temperature: m.temperature, TopP: m.topP, MaxTokens: m.maxTokens, Logger: log}
	if gcfg.APIKey == "" {
		gcfg.APIKey = strings.TrimSpace(os.Getenv(gemini.KeyEnv))
	}
	switch {
	case gcfg.Model == "":
		return nil, usagef("no model configured: pass --model NAME (e.g. --api gemini --model gemini-2.5-flash) or set WEBAGENT_MODEL")
	case gcfg.APIKey == "":
		return nil, usagef("the Gemini API needs an API key: pass --api-key KEY or set %s", gemini.KeyEnv)
	}
	client, err := gemini.New(gcfg)
	if err != nil {
		return nil, usagef("%v", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := client.Ping(pctx); err != nil {
		return nil, pingError(ctx, client.BaseURL(), true, gemini.KeyEnv, gemini.ErrNotGeminiEndpoint, err)
	}
	return client, nil
}
