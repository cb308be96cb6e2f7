package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/chrometest"
)

// The conformance test: each provider dialect is replayed from a real HTTP
// server as the bytes that provider puts on the wire, and drives the real
// loop in a real Chromium through a sign-in task. Each ends as a user wants
// it to: the task done, or the provider's own message in the result with
// the right code. No half call is ever executed.

const (
	bankUser     = "ann"
	bankPassword = "correct-horse-battery"
	bankBalance  = "$1,234.56"
)

// chrome is one Chromium for the conformance cases, started on first use
// and closed by TestMain; each case has a tab of its own in it while it
// runs (chrometest.Shared.Tab).
var chrome chrometest.Shared

// bankPolicy decides the next reply from the observation, as a model
// would: sign in, then report the balance.
func bankPolicy(req *modelserver.ChatRequest) reply {
	obs := req.LastUser()
	if user, ok := modelserver.FindRef(obs, "textbox", "Username"); ok {
		pass, _ := modelserver.FindRef(obs, "textbox", "Password")
		signIn, _ := modelserver.FindRef(obs, "button", "Sign in")
		return reply{
			text:      "Signing in.",
			reasoning: "The page shows a sign-in form; I fill both fields and press Sign in.",
			calls: []wantCall{
				{"type", fmt.Sprintf(`{"ref":%q,"text":%q}`, user, bankUser)},
				{"type", fmt.Sprintf(`{"ref":%q,"text":"<secret>password</secret>"}`, pass)},
				{"click", fmt.Sprintf(`{"ref":%q}`, signIn)},
			},
		}
	}
	if strings.Contains(obs, "Everyday checking") && strings.Contains(obs, bankBalance) {
		return reply{reasoning: "The balance is shown.", calls: []wantCall{{"done", fmt.Sprintf(`{"answer":"The balance is %s."}`, bankBalance)}}}
	}
	return reply{calls: []wantCall{{"fail", `{"reason":"unexpected page"}`}}}
}

// conformanceCase is one dialect and what the user must see.
type conformanceCase struct {
	name    string
	dialect dialect
	// respond overrides the dialect: the raw turn for request n.
	respond func(t *testing.T, req *modelserver.ChatRequest, n int) modelserver.Turn
	cfg     func(*llm.Config)
	// For a failing provider: the code, a part of the provider's message,
	// and the kind.
	code     agent.Code
	says     string
	kind     llm.Kind
	maxReqs  int // at most this many requests (0: no check)
	check    func(t *testing.T, res *agent.Result, srv *modelserver.Server)
	notWants []string // must not appear in the result message
}

func TestProviderConformance(t *testing.T) {
	t.Parallel()
	cases := []conformanceCase{
		// The 15 dialects that worked before.
		{name: "openai", dialect: dialect{}},
		{name: "azure", dialect: dialect{azurePrelude: true, usage: "none",
			chunkExtra: map[string]any{"system_fingerprint": "fp_x"}}},
		{name: "ollama-old", dialect: dialect{noIndex: true, wholeArgs: true, finish: "stop", usage: "with-finish"}},
		{name: "ollama-new", dialect: dialect{wholeArgs: true, reasoningField: "reasoning", usage: "with-finish"}, check: reasoningKept},
		{name: "llama.cpp", dialect: dialect{contentNull: true, reasoningField: "reasoning_content", usage: "with-finish",
			chunkExtra: map[string]any{"timings": map[string]any{"prompt_n": 10}}}, check: reasoningKept},
		{name: "llama-cpp-python", dialect: dialect{crlf: true, wholeArgs: true, usage: "none"}},
		{name: "vllm", dialect: dialect{chunkExtra: map[string]any{"stop_reason": nil}}},
		{name: "gemini-2", dialect: dialect{noIndex: true, wholeArgs: true, finish: "stop", usage: "with-finish"}},
		{name: "deepseek", dialect: dialect{reasoningField: "reasoning_content", contentNull: true},
			respond: deepseekRefusesReasoning, check: reasoningKept},
		{name: "openrouter", dialect: dialect{comment: ": OPENROUTER PROCESSING", reasoningField: "reasoning",
			chunkExtra: map[string]any{"provider": "Fireworks"}}, check: reasoningKept},
		{name: "longcat", dialect: dialect{wholeArgs: true, usage: "every"}},
		{name: "mistral", dialect: dialect{wholeArgs: true, usage: "with-finish"}},
		{name: "groq", dialect: dialect{wholeArgs: true, usage: "x_groq"}},
		{name: "lm-studio", dialect: dialect{idEveryPiece: true, usage: "none"}},
		{name: "together", dialect: dialect{explicitNulls: true, usage: "with-finish"}},

		// The 7 that did not.
		{name: "llama.cpp-old-error-field", respond: llamaCppOldError,
			code: agent.CodeLLMError, says: "the request exceeds the available context size", kind: llm.KindContextTooLarge, maxReqs: 1},
		{name: "vllm-duplicated-arguments", dialect: dialect{dupFlush: true}},
		{name: "keep-alive-then-error-chunk", respond: keepAliveThenError,
			code: agent.CodeLLMError, says: "Rate limit exceeded: free-models-per-day", kind: llm.KindRateLimit, maxReqs: 4},
		{name: "gemini-3-thought-signature", dialect: dialect{signature: true, wholeArgs: true, noIndex: true, finish: "stop"},
			respond: geminiChecksSignatures},
		{name: "openrouter-midstream-error", respond: openrouterMidstream(1)},
		{name: "openrouter-midstream-error-persistent", respond: openrouterMidstream(100),
			code: agent.CodeLLMError, says: "Upstream error from Anthropic: Overloaded", kind: llm.KindProviderDown, maxReqs: 4},
		{name: "minimax-arguments-object", dialect: dialect{argsObject: true}},
		{name: "calls-in-text-fenced", dialect: dialect{textCalls: "fenced", usage: "none"}},
		{name: "calls-in-text-bare", dialect: dialect{textCalls: "bare", usage: "none"}},
		{name: "calls-in-text-tags", dialect: dialect{textCalls: "tags", usage: "none"}},
		{name: "calls-in-text-list", dialect: dialect{textCalls: "list", usage: "none"}},

		// Around them.
		{name: "tools-refused-auto-prompt-mode", respond: refusesTools, check: promptModeUsed},
		{name: "tools-refused-native-only", respond: refusesTools, cfg: func(c *llm.Config) { c.ToolMode = llm.ToolModeNative },
			code: agent.CodeLLMError, says: "tools param requires --jinja flag", kind: llm.KindToolsUnsupported, maxReqs: 1},
		{name: "openai-context-too-large-short-key", respond: contextTooLarge, cfg: func(c *llm.Config) { c.APIKey = "x" },
			code: agent.CodeLLMError, says: "This model's maximum context length is 8192 tokens", kind: llm.KindContextTooLarge, maxReqs: 1,
			notWants: []string{"REDACTED"}},
		{name: "temperature-zero", dialect: dialect{}, cfg: func(c *llm.Config) { zero := float32(0); c.Temperature = &zero },
			check: temperatureZeroSent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runConformance(t, chrome.Tab(t), tc)
		})
	}
}

func runConformance(t *testing.T, b *browser.Browser, tc conformanceCase) {
	bank := sites.NewBank(bankUser, bankPassword, bankBalance)
	site := httptest.NewServer(bank)
	defer site.Close()

	var mu sync.Mutex
	n := 0
	srv := startServer(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		mu.Lock()
		i := n
		n++
		mu.Unlock()
		if tc.respond != nil {
			return tc.respond(t, req, i)
		}
		return modelserver.Turn{Raw: tc.dialect.render(bankPolicy(req), i)}
	}))
	cfg := llm.Config{BaseURL: srv.BaseURL(), Model: "m", RetryBaseDelay: 20 * time.Millisecond, MaxRetryDelay: 100 * time.Millisecond,
		Inactivity: 10 * time.Second}
	if tc.cfg != nil {
		tc.cfg(&cfg)
	}
	model, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer model.CloseIdleConnections()
	a, err := agent.New(b, model, agent.WithIterationTimeout(30*time.Second), agent.WithMaxIterations(6))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res := a.Run(ctx, agent.Task{
		URL:         site.URL + "/",
		Instruction: fmt.Sprintf("Sign in as %q with the password <secret>password</secret> and tell me the balance.", bankUser),
		Secrets:     map[string]string{"password": bankPassword},
	})

	// Never a half call executed: every action that ran had arguments
	// that were one complete JSON object.
	for _, s := range res.Steps {
		for _, act := range s.Actions {
			if act.Error {
				t.Errorf("step %d: %s %s failed: %s", s.Iteration, act.Tool, act.Args, act.Outcome)
			}
		}
	}
	if tc.code == "" {
		if res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, bankBalance) {
			t.Fatalf("got %s: %s (answer %q); steps %+v", res.Code, res.Message, res.Answer, res.Steps)
		}
		if bank.Logins() != 1 {
			t.Errorf("the site saw %d sign-ins, want 1", bank.Logins())
		}
		if res.Iterations != 2 {
			t.Errorf("%d iterations, want 2", res.Iterations)
		}
		if tc.respond == nil && tc.dialect.usage != "none" && res.Usage.TotalTokens == 0 {
			t.Errorf("the usage the server sent was lost")
		}
	} else {
		if res.Code != tc.code || !strings.Contains(res.Message, tc.says) {
			t.Fatalf("got %s: %q; want %s with %q", res.Code, res.Message, tc.code, tc.says)
		}
		var e *llm.Error
		if !errors.As(res.Err, &e) || e.Kind != tc.kind {
			t.Errorf("error %#v, want kind %s", res.Err, tc.kind)
		}
		if hint := tc.kind.Hint(); !strings.Contains(res.Message, hint) {
			t.Errorf("message %q lacks the hint %q", res.Message, hint)
		}
		if bank.Logins() != 0 {
			t.Errorf("the site saw %d sign-ins: a failed reply was acted on", bank.Logins())
		}
		for _, s := range res.Steps {
			if len(s.Actions) > 0 {
				t.Errorf("step %d ran %+v from a reply that failed", s.Iteration, s.Actions)
			}
		}
	}
	for _, s := range tc.notWants {
		if strings.Contains(res.Message, s) {
			t.Errorf("message %q contains %q", res.Message, s)
		}
	}
	if tc.maxReqs > 0 && len(srv.Requests()) > tc.maxReqs {
		t.Errorf("%d requests, want at most %d", len(srv.Requests()), tc.maxReqs)
	}
	// The conversation sent back is consistent: call IDs are unique and
	// every tool result answers one of them.
	if reqs := srv.Requests(); len(reqs) > 0 {
		ids := map[string]bool{}
		for _, m := range reqs[len(reqs)-1].Req.Messages {
			for _, c := range m.ToolCalls {
				if c.ID == "" || ids[c.ID] {
					t.Errorf("call ID %q empty or repeated in the conversation", c.ID)
				}
				ids[c.ID] = true
			}
			if m.Role == "tool" && !ids[m.ToolCallID] {
				t.Errorf("tool result for unknown call %q", m.ToolCallID)
			}
		}
	}
	if tc.check != nil {
		tc.check(t, res, srv)
	}
	t.Logf("%s: %s in %d iterations, %d requests, %d ms: %s", tc.name, res.Code, res.Iterations, len(srv.Requests()), res.DurationMS, res.Message)
}

func reasoningKept(t *testing.T, res *agent.Result, _ *modelserver.Server) {
	if len(res.Steps) == 0 || !strings.Contains(res.Steps[0].Reasoning, "sign-in form") {
		t.Errorf("reasoning not kept in the step: %+v", res.Steps)
	}
}

func temperatureZeroSent(t *testing.T, _ *agent.Result, srv *modelserver.Server) {
	for _, r := range srv.Requests() {
		if r.Req.Temperature == nil || *r.Req.Temperature != 0 {
			t.Errorf("temperature sent as %v, want 0: %s", r.Req.Temperature, clipRaw(r.Req.Raw))
		}
	}
}

func promptModeUsed(t *testing.T, _ *agent.Result, srv *modelserver.Server) {
	reqs := srv.Requests()
	if len(reqs) < 3 || len(reqs[0].Req.Tools) == 0 {
		t.Fatalf("%d requests; the first should offer tools", len(reqs))
	}
	for _, r := range reqs[1:] {
		if len(r.Req.Tools) != 0 || !strings.Contains(r.Req.Messages[0].Content, "<tool_call>") {
			t.Errorf("a prompt-mode request offered tools natively or did not describe them")
		}
	}
}

func clipRaw(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// llamaCppOldError: llama.cpp before late 2025 reports an error as an SSE
// "error:" field, then [DONE].
func llamaCppOldError(_ *testing.T, _ *modelserver.ChatRequest, _ int) modelserver.Turn {
	return modelserver.Turn{Raw: []byte(`error: {"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":4096}` +
		"\n\ndata: [DONE]\n\n")}
}

// keepAliveThenError: a keep-alive comment, then an error chunk.
func keepAliveThenError(_ *testing.T, _ *modelserver.ChatRequest, _ int) modelserver.Turn {
	return modelserver.Turn{Raw: []byte(": keep-alive\n\n" +
		`data: {"error":{"message":"Rate limit exceeded: free-models-per-day","code":429,"metadata":{"headers":{"X-RateLimit-Limit":"50"}}}}` + "\n\n")}
}

// openrouterMidstream: for the first failures requests, half a tool call,
// then an error object in an ordinary chunk with finish_reason "error".
func openrouterMidstream(failures int) func(*testing.T, *modelserver.ChatRequest, int) modelserver.Turn {
	d := dialect{comment: ": OPENROUTER PROCESSING"}
	return func(_ *testing.T, req *modelserver.ChatRequest, n int) modelserver.Turn {
		if n >= failures {
			return modelserver.Turn{Raw: d.render(bankPolicy(req), n)}
		}
		r := bankPolicy(req)
		call := r.calls[0]
		half := call.args[:6]
		return modelserver.Turn{Raw: []byte(": OPENROUTER PROCESSING\n\n" +
			`data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n" +
			fmt.Sprintf(`data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":%q,"arguments":%q}}]},"finish_reason":null}]}`, call.name, half) + "\n\n" +
			`data: {"id":"gen-1","object":"chat.completion.chunk","error":{"code":502,"message":"Upstream error from Anthropic: Overloaded"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}` + "\n\n" +
			"data: [DONE]\n\n")}
	}
}

// deepseekRefusesReasoning answers 400 as DeepSeek does when a request
// sends reasoning_content back.
func deepseekRefusesReasoning(_ *testing.T, req *modelserver.ChatRequest, n int) modelserver.Turn {
	if strings.Contains(string(req.Raw), "reasoning_content") || strings.Contains(string(req.Raw), "sign-in form; I fill") {
		return modelserver.Turn{Status: 400, Raw: []byte(`{"error":{"message":"The reasoning_content is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the reasoning_content from your input messages.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`)}
	}
	return modelserver.Turn{Raw: dialect{reasoningField: "reasoning_content", contentNull: true}.render(bankPolicy(req), n)}
}

// geminiChecksSignatures answers 400 as Gemini 3 does when a function call
// of the history comes back without its thought signature.
func geminiChecksSignatures(t *testing.T, req *modelserver.ChatRequest, n int) modelserver.Turn {
	var body struct {
		Messages []struct {
			Role      string `json:"role"`
			ToolCalls []struct {
				ID           string `json:"id"`
				ExtraContent struct {
					Google struct {
						ThoughtSignature string `json:"thought_signature"`
					} `json:"google"`
				} `json:"extra_content"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(req.Raw, &body); err != nil {
		t.Errorf("request: %v", err)
	}
	for _, m := range body.Messages {
		for _, c := range m.ToolCalls {
			var req, i int
			if _, err := fmt.Sscanf(c.ID, "call_%d_%d", &req, &i); err != nil || c.ExtraContent.Google.ThoughtSignature != signatureOf(req, i) {
				return modelserver.Turn{Status: 400, Raw: []byte(`[{"error":{"code":400,"message":"Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.","status":"INVALID_ARGUMENT"}}]`)}
			}
		}
	}
	return modelserver.Turn{Raw: dialect{signature: true, wholeArgs: true, noIndex: true, finish: "stop"}.render(bankPolicy(req), n)}
}

// refusesTools answers as llama.cpp without --jinja does to a request with
// tools; without tools it is a model that writes <tool_call> tags.
func refusesTools(_ *testing.T, req *modelserver.ChatRequest, n int) modelserver.Turn {
	if len(req.Tools) > 0 {
		return modelserver.Turn{Status: http.StatusBadRequest, Raw: []byte(`{"error":{"code":400,"message":"tools param requires --jinja flag","type":"invalid_request_error"}}`)}
	}
	return modelserver.Turn{Raw: dialect{textCalls: "tags", usage: "none"}.render(bankPolicy(req), n)}
}

// contextTooLarge is OpenAI's answer to a conversation over the context.
func contextTooLarge(_ *testing.T, _ *modelserver.ChatRequest, _ int) modelserver.Turn {
	return modelserver.Turn{Status: http.StatusBadRequest, Raw: []byte(`{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`)}
}
