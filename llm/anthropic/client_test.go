package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/anthropic"
	"github.com/webagent/webagent/watchdog"
)

const testKey = "sk-ant-test-0123456789"

func newClient(t *testing.T, url string, mod func(*anthropic.Config)) *anthropic.Client {
	t.Helper()
	cfg := anthropic.Config{BaseURL: url, APIKey: testKey, Model: "claude-test", Inactivity: 5 * time.Second,
		RetryBaseDelay: 10 * time.Millisecond, MaxRetryDelay: 50 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	c, err := anthropic.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

var clickTool = contract.ToolDef{Name: "click", Description: "Click an element.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"],"additionalProperties":false}`)}

// png is the header of a PNG: enough for its type to be read.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestCompleteRoundTrip(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any, _ int) {
		streamReply(w, "The button is e3.", "Clicking.", []call{{"click", `{"ref":"e3"}`}})
	})
	c := newClient(t, srv.URL, nil)
	req := contract.Request{Tools: []contract.ToolDef{clickTool}, Messages: []contract.Message{
		{Role: contract.RoleSystem, Content: "You drive a browser."},
		{Role: contract.RoleUser, Content: "Press the button."},
	}}
	reply, err := c.Complete(ctxFor(t, 10*time.Second), req)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != "Clicking." || reply.Reasoning != "The button is e3." || len(reply.ToolCalls) != 1 {
		t.Fatalf("reply %+v", reply)
	}
	tc := reply.ToolCalls[0]
	if tc.Name != "click" || tc.Arguments != `{"ref":"e3"}` || tc.ID == "" || !strings.Contains(string(tc.Extra), "sig-17") {
		t.Fatalf("call %+v", tc)
	}
	want := contract.Usage{PromptTokens: 200, CompletionTokens: 42, TotalTokens: 242, CachedTokens: 80}
	if reply.Usage != want {
		t.Errorf("usage %+v, want %+v", reply.Usage, want)
	}

	// The next turn: the reply, its result with a screenshot, a note.
	req.Messages = append(req.Messages,
		contract.Message{Role: contract.RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls},
		contract.Message{Role: contract.RoleTool, ToolCallID: tc.ID, Content: "clicked", Images: [][]byte{png}},
		contract.Message{Role: contract.RoleUser, Content: "The page now:", Images: [][]byte{png}})
	if _, err := c.Complete(ctxFor(t, 10*time.Second), req); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	checkRequest(t, reqs[1], tc.ID)
}

// checkRequest checks the documented shapes of a second turn's request.
func checkRequest(t *testing.T, r recorded, id string) {
	t.Helper()
	if r.header.Get("x-api-key") != testKey || r.header.Get("anthropic-version") != anthropic.Version {
		t.Errorf("headers %v", r.header)
	}
	b := r.body
	if b["model"] != "claude-test" || b["stream"] != true || b["max_tokens"] != float64(anthropic.DefaultMaxTokens) {
		t.Errorf("model, stream, max_tokens: %v %v %v", b["model"], b["stream"], b["max_tokens"])
	}
	got := func(v any) string { raw, _ := json.Marshal(v); return string(raw) }
	if s := got(b["system"]); s != `[{"cache_control":{"type":"ephemeral"},"text":"You drive a browser.","type":"text"}]` {
		t.Errorf("system %s", s)
	}
	tools := got(b["tools"])
	for _, w := range []string{`"input_schema":{`, `"required":["ref"]`, `"additionalProperties":false`, `"cache_control":{"type":"ephemeral"}`, `"name":"click"`} {
		if !strings.Contains(tools, w) {
			t.Errorf("tools %s lack %s", tools, w)
		}
	}
	msgs, _ := b["messages"].([]any)
	if len(msgs) != 3 {
		t.Fatalf("messages %s", got(msgs))
	}
	asst := got(msgs[1])
	for _, w := range []string{`"role":"assistant"`, `{"signature":"sig-17","thinking":"The button is e3.","type":"thinking"}`,
		`{"text":"Clicking.","type":"text"}`, `{"id":"` + id + `","input":{"ref":"e3"},"name":"click","type":"tool_use"}`} {
		if !strings.Contains(asst, w) {
			t.Errorf("assistant turn %s lacks %s", asst, w)
		}
	}
	if strings.Index(asst, `"thinking"`) > strings.Index(asst, `"tool_use"`) {
		t.Errorf("the thinking block is not first: %s", asst)
	}
	user := got(msgs[2])
	for _, w := range []string{`"role":"user"`, `"tool_use_id":"` + id + `"`, `"type":"tool_result"`,
		`{"source":{"data":"iVBORw0KGgoAAAANSUhEUg==","media_type":"image/png","type":"base64"},"type":"image"}`, `"The page now:"`} {
		if !strings.Contains(user, w) {
			t.Errorf("user turn %s lacks %s", user, w)
		}
	}
	if strings.Index(user, "tool_result") > strings.Index(user, "The page now:") {
		t.Errorf("the tool result is not first in its turn: %s", user)
	}
}

func TestUnauthorizedAtOnce(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any, _ int) {
		apiError(w, http.StatusUnauthorized, "authentication_error", "invalid x-api-key "+testKey)
	})
	_, err := newClient(t, srv.URL, nil).Complete(ctxFor(t, 10*time.Second), contract.Request{
		Messages: []contract.Message{{Role: contract.RoleUser, Content: "hi"}}})
	var e *llm.Error
	if !errors.Is(err, llm.ErrUnauthorized) || !errors.As(err, &e) || e.Kind != llm.KindAuth || e.Status != 401 {
		t.Fatalf("err %v (%#v)", err, err)
	}
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("the key is in the error: %v", err)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestOverloadedThenSuccessRetried(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any, n int) {
		if n == 0 {
			w.Header().Set("retry-after", "0")
			apiError(w, 529, "overloaded_error", "Overloaded")
			return
		}
		streamReply(w, "", "Hello.", nil)
	})
	reply, err := newClient(t, srv.URL, nil).Complete(ctxFor(t, 10*time.Second), contract.Request{
		Messages: []contract.Message{{Role: contract.RoleUser, Content: "hi"}}})
	if err != nil || reply.Content != "Hello." {
		t.Fatalf("reply %+v, err %v", reply, err)
	}
	if n := len(srv.requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestErrorEventInStream(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any, _ int) {
		send := sse(w)
		send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "m", "type": "message",
			"role": "assistant", "content": []any{}, "usage": map[string]any{"input_tokens": 1, "output_tokens": 0}}})
		send("error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": "Overloaded"}})
	})
	_, err := newClient(t, srv.URL, func(c *anthropic.Config) { c.MaxRetries = 1 }).Complete(ctxFor(t, 10*time.Second),
		contract.Request{Messages: []contract.Message{{Role: contract.RoleUser, Content: "hi"}}})
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindProviderDown || e.Status != 0 || !strings.Contains(e.Message, "Overloaded") {
		t.Fatalf("err %v", err)
	}
	if n := len(srv.requests()); n != 2 {
		t.Errorf("%d requests, want 2 (the stream's error is sent again once)", n)
	}
}

func TestSilentStreamEnds(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := newMessagesServer(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any, _ int) {
		send := sse(w)
		send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "m", "type": "message",
			"role": "assistant", "content": []any{}, "usage": map[string]any{"input_tokens": 1, "output_tokens": 0}}})
		select { // silent until the client hangs up
		case <-r.Context().Done():
		case <-release:
		}
	})
	window := 300 * time.Millisecond
	start := time.Now()
	_, err := newClient(t, srv.URL, func(c *anthropic.Config) { c.Inactivity = window }).Complete(ctxFor(t, 10*time.Second),
		contract.Request{Messages: []contract.Message{{Role: contract.RoleUser, Content: "hi"}}})
	took := time.Since(start)
	if !errors.Is(err, watchdog.ErrTimeout) || !strings.Contains(err.Error(), "went silent") {
		t.Fatalf("err %v", err)
	}
	if took < window || took > window+2*time.Second {
		t.Errorf("took %s, want about %s", took, window)
	}
}

func TestPing(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, nil)
	ctx := ctxFor(t, 10*time.Second)
	if err := newClient(t, srv.URL, nil).Ping(ctx); err != nil {
		t.Errorf("ping of a Messages API: %v", err)
	}
	if err := newClient(t, srv.URL, func(c *anthropic.Config) { c.APIKey = "" }).Ping(ctx); !errors.Is(err, llm.ErrUnauthorized) {
		t.Errorf("ping without a key: %v", err)
	}
	chat := newMessagesServer(t, nil) // an OpenAI-compatible server has no /v1/messages
	err := newClient(t, chat.URL+"/v1/chat", nil).Ping(ctx)
	if !errors.Is(err, anthropic.ErrNotMessagesEndpoint) || !strings.Contains(err.Error(), "--api chat") {
		t.Errorf("ping of a server without the API: %v", err)
	}
}

// TestConfigErrors: every problem at once, each naming the field and how
// to fix it, in the words the other clients use.
func TestConfigErrors(t *testing.T) {
	t.Parallel()
	_, err := anthropic.New(anthropic.Config{BaseURL: "localhost:8080", MaxTokens: -1, Inactivity: -1,
		RetryBaseDelay: -1, MaxRetryDelay: -1, HTTPClient: &http.Client{Timeout: time.Minute}})
	if !errors.Is(err, llm.ErrConfig) {
		t.Fatalf("error %v, want llm.ErrConfig", err)
	}
	for _, want := range []string{"no model", "not an absolute", "MaxTokens is -1",
		"Inactivity is -1ns: it must not be negative (0 disables", "RetryBaseDelay is -1ns: it must not be negative (0 means 500ms)",
		"MaxRetryDelay is -1ns: it must not be negative (0 means 30s)", "HTTPClient.Timeout is 1m0s: it must be 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}
