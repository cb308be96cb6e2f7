package llm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestAssemblerWithoutIndexes(t *testing.T) {
	t.Parallel()
	// Some servers send no index: a new ID starts a new call.
	var a assembler
	frag := func(js string) wireChunk {
		var c wireChunk
		if err := json.Unmarshal([]byte(`{"choices":[{"delta":{"tool_calls":[`+js+`]}}]}`), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	a.add(frag(`{"id":null,"function":{"name":"click","arguments":"{\"ref\""}}`))
	a.add(frag(`{"function":{"arguments":":\"e1\"}"}}`))
	a.add(frag(`{"id":"b","type":null,"function":{"name":"back","arguments":{}}}`))
	a.finish = "tool_calls"
	r, _, err := a.finishReply()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ToolCalls) != 2 || r.ToolCalls[0].Name != "click" || r.ToolCalls[0].Arguments != `{"ref":"e1"}` ||
		r.ToolCalls[0].ID != "" || r.ToolCalls[1].ID != "b" || r.ToolCalls[1].Arguments != "{}" {
		t.Errorf("calls = %+v", r.ToolCalls)
	}
}

func TestRedactOnlyLongKeys(t *testing.T) {
	t.Parallel()
	const msg = "This model's maximum context length is 8192 tokens for ollama"
	for _, key := range []string{"x", "ollama", "sk-1234"} {
		if got := redactKey(msg, key); got != msg {
			t.Errorf("key %q: %q", key, got)
		}
	}
	if got := redactKey("bad key sk-12345678", "sk-12345678"); got != "bad key [REDACTED]" {
		t.Errorf("8-char key: %q", got)
	}
}

func TestFirstValue(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"ref":"e1"}{"ref":"e1"}`:  `{"ref":"e1"}`,
		`{"ref":"e1"} {"ref":"e2"}`: `{"ref":"e1"}`,
		`{"ref":"e1"}`:              `{"ref":"e1"}`,
		`{"ref"`:                    `{"ref"`,
		``:                          ``,
	} {
		if got := firstValue(in); got != want {
			t.Errorf("firstValue(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestClassifyRealMessages: providers' own error bodies, by kind.
func TestClassifyRealMessages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		body   string
		want   Kind
	}{
		{400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, KindContextTooLarge},
		{400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`, KindContextTooLarge},
		{400, `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens","type":"BadRequestError","param":null,"code":400}`, KindContextTooLarge},
		{400, `{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error","param":null,"code":null}}`, KindToolsUnsupported},
		{400, `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","code":400}`, KindToolsUnsupported},
		{500, `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`, KindToolsUnsupported},
		{429, `{"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000.","type":"tokens","code":"rate_limit_exceeded"}}`, KindRateLimit},
		{429, `[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]`, KindRateLimit},
		{401, `{"error":{"message":"Incorrect API key provided: sk-abc.","type":"invalid_request_error","code":"invalid_api_key"}}`, KindAuth},
		{403, `{"error":{"code":403,"message":"Permission denied","status":"PERMISSION_DENIED"}}`, KindAuth},
		{529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, KindProviderDown},
		{503, `upstream connect error or disconnect/reset before headers`, KindProviderDown},
		{400, `{"detail":"Model gpt-x not found"}`, KindBadRequest},
	} {
		pe, ok := parseProviderError([]byte(tc.body))
		if !ok {
			pe.Message = tc.body
		}
		if got := classifyKind(tc.status, pe.Code, pe.Type, pe.Message); got != tc.want {
			t.Errorf("%d %s: kind %s, want %s (message %q)", tc.status, tc.body, got, tc.want, pe.Message)
		}
		if pe.Message == "" {
			t.Errorf("%s: no message read", tc.body)
		}
	}
}

// The cache key goes to OpenAI as prompt_cache_key, and to no other
// server, which may refuse a field it does not know.
func TestPromptCacheKey(t *testing.T) {
	t.Parallel()
	req := contract.Request{Messages: []contract.Message{{Role: contract.RoleUser, Content: "hi"}}, CacheKey: "webagent-1"}
	for base, want := range map[string]bool{"https://api.openai.com/v1": true, "http://127.0.0.1:11434/v1": false} {
		c, err := New(Config{BaseURL: base, Model: "m", APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		w, err := c.buildRequest(req, false)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(w)
		if got := strings.Contains(string(b), `"prompt_cache_key":"webagent-1"`); got != want {
			t.Errorf("%s: prompt_cache_key sent %v, want %v: %s", base, got, want, b)
		}
	}
}
