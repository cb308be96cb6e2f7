package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// rawClient returns a client of a server that answers every request with
// the turns given, in order.
func rawClient(t *testing.T, cfg llm.Config, turns ...modelserver.Turn) (*llm.Client, *modelserver.Server) {
	t.Helper()
	srv := startServer(t, modelserver.Script(turns...))
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = -1
	}
	return newClient(t, srv, cfg), srv
}

// TestStreamEdgeCases: SSE forms beyond the dialects of the conformance
// test, each read as the user needs.
func TestStreamEdgeCases(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		body     string
		content  string
		calls    string // name(args) of the calls, joined by ";"
		reason   string
		usage    int
		kind     llm.Kind // an *Error of this kind
		retry    bool
		malform  bool // an error matching contract.ErrMalformedReply
		contains string
	}{
		{name: "event error", body: "event: error\ndata: {\"message\":\"engine overloaded\"}\n\n",
			kind: llm.KindProviderDown, retry: true, contains: "engine overloaded"},
		{name: "error field as text", body: ": ping\n\nerror: model crashed while loading\n\n",
			kind: llm.KindProviderDown, retry: true, contains: "model crashed while loading"},
		{name: "data over two lines", body: "data: {\"choices\":[{\"delta\":\n" + `data: {"content":"hi"}}]}` + "\n\ndata: [DONE]\n\n", content: "hi"},
		{name: "plain JSON completion", body: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"ok","tool_calls":[{"id":"c1","type":"function","function":{"name":"click","arguments":"{\"ref\":\"e1\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`,
			content: "ok", calls: `click({"ref":"e1"})`, usage: 7},
		{name: "JSON lines", body: `{"choices":[{"delta":{"content":"a"}}]}` + "\n" + `{"choices":[{"delta":{"content":"b"},"finish_reason":"stop"}]}` + "\n", content: "ab"},
		{name: "plain JSON error body with status 200", body: "{\"error\": {\n  \"message\": \"model not found\",\n  \"code\": 404\n}}\n",
			kind: llm.KindBadRequest, contains: "model not found"},
		{name: "cut at the token limit mid-call", body: `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"click","arguments":"{\"ref\":"}}]}}]}` + "\n\n" +
			`data: {"choices":[{"delta":{},"finish_reason":"length"}]}` + "\n\ndata: [DONE]\n\n", malform: true, contains: "token limit"},
		{name: "body ends mid-call", body: `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"click","arguments":"{\"ref\":"}}]}}]}` + "\n\n",
			malform: true, contains: "the stream ended"},
		{name: "content filter", body: `data: {"choices":[{"delta":{"content":"I"},"finish_reason":"content_filter"}]}` + "\n\n",
			kind: llm.KindRefused, contains: "content_filter"},
		{name: "reasoning and usage with choices", body: `data: {"choices":[{"delta":{"reasoning_content":"think "}}]}` + "\n\n" +
			`data: {"choices":[{"delta":{"reasoning_content":"hard","content":"done"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":4}}` + "\n\n",
			content: "done", reason: "think hard", usage: 7},
		{name: "content as parts", body: `data: {"choices":[{"delta":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]}` + "\n\ndata: [DONE]\n\n", content: "ab"},
		{name: "legacy function_call", body: `data: {"choices":[{"delta":{"function_call":{"name":"click","arguments":"{\"ref\":\"e2\"}"}},"finish_reason":"function_call"}]}` + "\n\n",
			calls: `click({"ref":"e2"})`},
		{name: "garbage", body: "data: {not json\n\n", malform: true, contains: "{not json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, srv := rawClient(t, llm.Config{}, modelserver.Turn{Raw: []byte(tc.body), ChunkSize: 11})
			reply, err := c.Complete(ctxWithTimeout(t, 5*time.Second), simpleRequest())
			switch {
			case tc.kind != "":
				var e *llm.Error
				if !errors.As(err, &e) || e.Kind != tc.kind || e.Retryable != tc.retry || !strings.Contains(err.Error(), tc.contains) {
					t.Fatalf("err = %v (%#v), want kind %s retryable %v saying %q", err, e, tc.kind, tc.retry, tc.contains)
				}
			case tc.malform:
				if !errors.Is(err, contract.ErrMalformedReply) || !strings.Contains(err.Error(), tc.contains) {
					t.Fatalf("err = %v, want a malformed reply saying %q", err, tc.contains)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				var calls []string
				for _, c := range reply.ToolCalls {
					calls = append(calls, c.Name+"("+c.Arguments+")")
				}
				if reply.Content != tc.content || strings.Join(calls, ";") != tc.calls || reply.Reasoning != tc.reason ||
					reply.Usage.TotalTokens != tc.usage {
					t.Errorf("reply = %+v", reply)
				}
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests", n)
			}
		})
	}
}

func TestCallsInTextOnlyForOfferedTools(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		`The price is {"amount": 3, "currency": "EUR"}.`,
		"```json\n{\"name\": \"fly\", \"arguments\": {}}\n```",
		`[1, 2, 3]`,
	} {
		c, _ := rawClient(t, llm.Config{}, modelserver.Turn{Text: text})
		reply, err := c.Complete(context.Background(), simpleRequest())
		if err != nil {
			t.Fatal(err)
		}
		if len(reply.ToolCalls) != 0 || reply.Content != text {
			t.Errorf("%q read as %+v", text, reply)
		}
	}
	c, _ := rawClient(t, llm.Config{}, modelserver.Turn{Text: `Sure. {"name": "click", "parameters": {"ref": "e4"}} and {"x": 1}`})
	reply, err := c.Complete(context.Background(), simpleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Arguments != `{"ref":"e4"}` || reply.Content != `Sure.  and {"x": 1}` {
		t.Errorf("reply = %+v", reply)
	}
}

// TestPromptModeRequest: with --tool-mode prompt, no tools go over the
// wire; they are described in the system message, and earlier calls and
// results are written as text.
func TestPromptModeRequest(t *testing.T) {
	t.Parallel()
	c, srv := rawClient(t, llm.Config{ToolMode: llm.ToolModePrompt},
		modelserver.Turn{Text: "<tool_call>{\"name\": \"click\", \"arguments\": {\"ref\": \"e9\"}}</tool_call>"})
	req := contract.Request{
		Messages: []contract.Message{
			{Role: contract.RoleSystem, Content: "You drive a browser."},
			{Role: contract.RoleUser, Content: "sign in"},
			{Role: contract.RoleAssistant, Content: "Clicking.", ToolCalls: []contract.ToolCall{{ID: "call_a", Name: "click", Arguments: `{"ref":"e1"}`}}},
			{Role: contract.RoleTool, ToolCallID: "call_a", Content: "clicked"},
		},
		Tools: []contract.ToolDef{clickTool},
	}
	reply, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Name != "click" || reply.ToolCalls[0].Arguments != `{"ref":"e9"}` {
		t.Errorf("reply = %+v", reply)
	}
	got := srv.Requests()[0].Req
	if len(got.Tools) != 0 || strings.Contains(string(got.Raw), `"tools"`) {
		t.Errorf("tools sent natively: %s", got.Raw)
	}
	if !strings.Contains(got.Messages[0].Content, "- click: Click an element by ref") {
		t.Errorf("system message = %q", got.Messages[0].Content)
	}
	if m := got.Messages[2]; m.Role != "assistant" || len(m.ToolCalls) != 0 ||
		m.Content != "Clicking.\n<tool_call>{\"name\":\"click\",\"arguments\":{\"ref\":\"e1\"}}</tool_call>" {
		t.Errorf("assistant message sent as %+v", m)
	}
	if m := got.Messages[3]; m.Role != "user" || m.Content != "Result of click: clicked" {
		t.Errorf("tool result sent as %+v", m)
	}
}

// TestParametersSentExactly: zero values the user set are sent as zero;
// unset ones are not sent.
func TestParametersSentExactly(t *testing.T) {
	t.Parallel()
	zero, zeroI := float32(0), 0
	max := 256
	c, srv := rawClient(t, llm.Config{Temperature: &zero, TopP: &zero, Seed: &zeroI, MaxTokens: &max}, modelserver.Turn{Text: "ok"})
	if _, err := c.Complete(context.Background(), simpleRequest()); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(srv.Requests()[0].Req.Raw, &body); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]float64{"temperature": 0, "top_p": 0, "seed": 0, "max_tokens": 256} {
		if v, ok := body[k].(float64); !ok || v != want {
			t.Errorf("%s sent as %v, want %v", k, body[k], want)
		}
	}
	c, srv = rawClient(t, llm.Config{}, modelserver.Turn{Text: "ok"})
	if _, err := c.Complete(context.Background(), simpleRequest()); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"temperature", "top_p", "seed", "max_tokens"} {
		if strings.Contains(string(srv.Requests()[0].Req.Raw), `"`+k+`"`) {
			t.Errorf("unset %s was sent: %s", k, srv.Requests()[0].Req.Raw)
		}
	}
}

func TestBadToolMode(t *testing.T) {
	t.Parallel()
	_, err := llm.New(llm.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", ToolMode: "sometimes"})
	if !errors.Is(err, llm.ErrConfig) || !strings.Contains(err.Error(), `"sometimes"`) {
		t.Errorf("err = %v", err)
	}
}

// TestUnfixable5xxNotRetried: a 500 that says the context is too large or
// tools are refused (older llama.cpp) is answered at once, not retried.
func TestUnfixable5xxNotRetried(t *testing.T) {
	// Serial, as the tests of timeout_test.go: "at once" is a sub-second bound.
	for body, kind := range map[string]llm.Kind{
		`{"error":{"code":500,"message":"the request exceeds the available context size, try increasing it","type":"server_error"}}`: llm.KindContextTooLarge,
		`{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`:                                 llm.KindToolsUnsupported,
	} {
		srv := startServer(t, modelserver.Script(modelserver.Turn{Status: 500, Raw: []byte(body)}, modelserver.Turn{Status: 500, Raw: []byte(body)}))
		c := newClient(t, srv, llm.Config{ToolMode: llm.ToolModeNative, RetryBaseDelay: time.Second})
		start := time.Now()
		_, err := c.Complete(ctxWithTimeout(t, 10*time.Second), simpleRequest())
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != kind || e.Status != 500 || e.Retryable {
			t.Errorf("err = %v (%#v), want a %s error", err, e, kind)
		}
		if n := len(srv.Requests()); n != 1 || time.Since(start) > 500*time.Millisecond {
			t.Errorf("%d requests in %s, want 1 at once", n, time.Since(start))
		}
	}
}

// TestCachedTokens: the cached part of the prompt, in OpenAI's and
// DeepSeek's forms, reaches the reply's usage, which prices it apart.
func TestCachedTokens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		turn modelserver.Turn
	}{
		{"openai", modelserver.Turn{Raw: []byte(`data: {"choices":[{"delta":{"content":"ok"},"finish_reason":"stop"}]}` + "\n\n" +
			`data: {"choices":[],"usage":{"prompt_tokens":1000,"completion_tokens":10,"total_tokens":1010,"prompt_tokens_details":{"cached_tokens":600}}}` + "\n\ndata: [DONE]\n\n")}},
		{"deepseek", modelserver.Turn{Raw: []byte(`data: {"choices":[{"delta":{"content":"ok"},"finish_reason":"stop"}],` +
			`"usage":{"prompt_tokens":1000,"completion_tokens":10,"total_tokens":1010,"prompt_cache_hit_tokens":600,"prompt_cache_miss_tokens":400}}` + "\n\ndata: [DONE]\n\n")}},
		{"modelserver", modelserver.Turn{Text: "ok", Usage: &modelserver.Usage{PromptTokens: 1000, CompletionTokens: 10, CachedTokens: 600}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := rawClient(t, llm.Config{}, tc.turn)
			reply, err := c.Complete(ctxWithTimeout(t, 5*time.Second), simpleRequest())
			if err != nil {
				t.Fatal(err)
			}
			want := contract.Usage{PromptTokens: 1000, CompletionTokens: 10, TotalTokens: 1010, CachedTokens: 600}
			if reply.Usage != want {
				t.Errorf("usage %+v, want %+v", reply.Usage, want)
			}
		})
	}
}

// TestImageType: a JPEG goes as image/jpeg, a PNG as image/png.
func TestImageType(t *testing.T) {
	t.Parallel()
	c, srv := rawClient(t, llm.Config{}, modelserver.Turn{Text: "ok"})
	jpeg := []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")
	req := contract.Request{Messages: []contract.Message{{Role: contract.RoleUser, Content: "look", Images: [][]byte{jpeg}}}}
	if _, err := c.Complete(ctxWithTimeout(t, 5*time.Second), req); err != nil {
		t.Fatal(err)
	}
	if raw := string(srv.Requests()[0].Req.Raw); !strings.Contains(raw, `"url":"data:image/jpeg;base64,`) {
		t.Errorf("request: %s", raw)
	}
}
