package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// An --api the command does not know, or one the server does not speak,
// is a usage error (exit 2) said at once, before a browser starts.
func TestAPIFlagErrors(t *testing.T) {
	t.Parallel()
	chat := httptest.NewServer(http.NotFoundHandler()) // an OpenAI-compatible server has no /v1/messages
	t.Cleanup(chat.Close)
	cases := []struct {
		name  string
		args  []string
		wants string
	}{
		{"unknown", []string{"--api", "gemini"}, "use chat, anthropic or responses"},
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
			code, _, stderr := runEnv(t, []string{"ANTHROPIC_API_KEY="}, "", append(args, "a task")...)
			if code != 2 || !strings.Contains(stderr, tc.wants) {
				t.Fatalf("exit %d, stderr %q; want 2 with %q", code, stderr, tc.wants)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %s", took)
			}
		})
	}
}
