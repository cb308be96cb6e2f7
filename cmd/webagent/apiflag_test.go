package main

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/modelserver"
)

// An --api the command does not know, one the server does not speak, or
// its key missing or refused, is a usage error (exit 2) said at once,
// before a browser starts.
func TestAPIFlagErrors(t *testing.T) {
	t.Parallel()
	chat := httptest.NewServer(http.NotFoundHandler()) // an OpenAI-compatible server has no /v1/messages
	t.Cleanup(chat.Close)
	gem, err := modelserver.Start(modelserver.Script(), modelserver.WithAPIKey("AIza-right-key-000"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = gem.Close() })
	cases := []struct {
		name  string
		args  []string
		wants string
	}{
		{"unknown", []string{"--api", "bedrock"}, "use chat, anthropic, responses or gemini"},
		{"not-gemini", []string{"--api", "gemini", "--api-key", "k", "--base-url", chat.URL + "/v1"}, "not Google's Gemini API"},
		{"gemini-without-key", []string{"--api", "gemini"}, "pass --api-key KEY or set GEMINI_API_KEY"},
		{"gemini-key-refused", []string{"--api", "gemini", "--api-key", "AIza-wrong-key-000", "--base-url", gem.GeminiBaseURL()},
			"refused the API key that was sent (400: API key not valid"},
		{"browser-on-gemini", []string{"--tools", "browser", "--api", "gemini"}, "--tools browser is Claude's browser use tool: it needs --api anthropic"},
		{"not-anthropic", []string{"--api", "anthropic", "--api-key", "k", "--base-url", chat.URL + "/v1"}, "not the Anthropic Messages API"},
		{"not-responses", []string{"--api", "responses", "--api-key", "k", "--base-url", chat.URL + "/v1"}, "not OpenAI's Responses API"},
		{"tools-unknown", []string{"--tools", "vendor"}, "use webagent, native or browser"},
		{"browser-on-responses", []string{"--tools", "browser", "--api", "responses"}, "--tools browser is Claude's browser use tool: it needs --api anthropic"},
		{"native-on-chat", []string{"--tools", "native", "--base-url", chat.URL + "/v1"}, "--tools native needs an API with a vendor's computer tool: --api anthropic"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			args := append([]string{"run", "--model", "m", "--url", "http://127.0.0.1:1/"}, tc.args...)
			code, _, stderr := runEnv(t, []string{"ANTHROPIC_API_KEY=", "GEMINI_API_KEY="}, "", append(args, "a task")...)
			if code != 2 || !strings.Contains(stderr, tc.wants) {
				t.Fatalf("exit %d, stderr %q; want 2 with %q", code, stderr, tc.wants)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %s", took)
			}
		})
	}
}

// TestChooseAPI: --api wins; else the base URL's host names the API, and
// says so in the log; Gemini's OpenAI-compatible endpoint is chat.
func TestChooseAPI(t *testing.T) {
	t.Parallel()
	cases := []struct{ api, base, want string }{
		{"", "https://api.anthropic.com", apiAnthropic},
		{"", "https://generativelanguage.googleapis.com/v1beta", apiGemini},
		{"", "https://generativelanguage.googleapis.com/v1beta/openai/", apiChat},
		{"", "http://127.0.0.1:8080/v1", apiChat},
		{apiResponses, "https://generativelanguage.googleapis.com/v1beta", apiResponses},
	}
	for _, c := range cases {
		var logs strings.Builder
		got := chooseAPI(c.api, c.base, slog.New(slog.NewTextHandler(&logs, nil)))
		if got != c.want {
			t.Errorf("chooseAPI(%q, %q) = %q, want %q", c.api, c.base, got, c.want)
		}
		if inferred := strings.Contains(logs.String(), "inferred from --base-url"); inferred != (c.api == "" && got != apiChat) {
			t.Errorf("%q: log %q", c.base, logs.String())
		}
	}
}
