package responses_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/responses"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/chrometest"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/watchdog"
)

// The loop tests drive the real agent loop in a real Chromium through the
// client against a server that speaks the Responses API: a sign-in task
// with a screenshot, reasoning items carried from turn to turn, and the
// failures the loop must report as it does with chat completions.

const (
	bankUser     = "ann"
	bankPassword = "correct-horse-battery"
	bankBalance  = "$1,234.56"
	testKey      = "sk-test-0123456789abcdef"
)

var chrome chrometest.Shared

func TestMain(m *testing.M) { os.Exit(chrome.Run(m)) }

// observation is the newest page observation the loop sent.
func observation(req *apiRequest) string {
	msgs := req.inputOf("message")
	for i := len(msgs) - 1; i >= 0; i-- {
		if text, ok := msgs[i]["content"].(string); ok && msgs[i]["role"] == "user" && strings.Contains(text, "Page") {
			return text
		}
	}
	return req.lastUserText()
}

// bankTurns plays the task: a screenshot first, then the sign-in, then
// the answer; each reply carries a reasoning item with encrypted content.
func bankTurns(req *apiRequest, n int) turn {
	obs := observation(req)
	switch user, signIn := firstRef(obs, "textbox", "Username"), firstRef(obs, "button", "Sign in"); {
	case user != "" && len(req.inputOf("function_call")) == 0:
		return turn{events: reply{reasoning: "A sign-in form; let me look at it first.", encrypted: fmt.Sprintf("enc-%d", n),
			calls: []call{{"screenshot", `{}`}}}.events(n)}
	case user != "":
		pass := firstRef(obs, "textbox", "Password")
		return turn{events: reply{reasoning: "I fill both fields and press Sign in.", encrypted: fmt.Sprintf("enc-%d", n),
			text: "Signing in.", calls: []call{
				{"type", fmt.Sprintf(`{"ref":%q,"text":%q}`, user, bankUser)},
				{"type", fmt.Sprintf(`{"ref":%q,"text":"<secret>password</secret>"}`, pass)},
				{"click", fmt.Sprintf(`{"ref":%q}`, signIn)},
			}}.events(n)}
	case strings.Contains(obs, bankBalance):
		return turn{events: reply{reasoning: "The balance is shown.", encrypted: fmt.Sprintf("enc-%d", n),
			calls: []call{{"done", fmt.Sprintf(`{"answer":"The balance is %s."}`, bankBalance)}}}.events(n)}
	}
	return turn{events: reply{calls: []call{{"fail", `{"reason":"unexpected page"}`}}}.events(n)}
}

func firstRef(obs, role, name string) string {
	ref, _ := modelserver.FindRef(obs, role, name)
	return ref
}

// runBank runs the sign-in task through a Client on srv.
func runBank(t *testing.T, srv *apiServer, cfg responses.Config) (*agent.Result, *sites.Bank, time.Duration) {
	t.Helper()
	bank := sites.NewBank(bankUser, bankPassword, bankBalance)
	site := httptest.NewServer(bank)
	defer site.Close()
	cfg.BaseURL, cfg.APIKey, cfg.Model = srv.baseURL(), testKey, "gpt-5.4"
	cfg.RetryBaseDelay, cfg.MaxRetryDelay = 20*time.Millisecond, 200*time.Millisecond
	if cfg.Inactivity == 0 {
		cfg.Inactivity = 10 * time.Second
	}
	model, err := responses.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer model.CloseIdleConnections()
	a, err := agent.New(chrome.Tab(t), model, agent.WithIterationTimeout(30*time.Second), agent.WithMaxIterations(6),
		agent.WithVision(true))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	res := a.Run(ctx, agent.Task{
		URL:         site.URL + "/",
		Instruction: fmt.Sprintf("Sign in as %q with the password <secret>password</secret> and tell me the balance.", bankUser),
		Secrets:     map[string]string{"password": bankPassword},
	})
	return res, bank, time.Since(start)
}

func TestLoopSignsInThroughResponses(t *testing.T) {
	t.Parallel()
	srv := startAPI(t, bankTurns)
	res, bank, _ := runBank(t, srv, responses.Config{})
	if res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, bankBalance) {
		t.Fatalf("got %s: %s (answer %q); steps %+v", res.Code, res.Message, res.Answer, res.Steps)
	}
	if bank.Logins() != 1 {
		t.Errorf("the site saw %d sign-ins, want 1", bank.Logins())
	}
	if res.Usage.CachedTokens == 0 || res.Usage.PromptTokens == 0 || res.Usage.CompletionTokens == 0 {
		t.Errorf("usage lost: %+v", res.Usage)
	}
	if len(res.Steps) == 0 || !strings.Contains(res.Steps[0].Reasoning, "sign-in form") {
		t.Errorf("the reasoning summary is not in the step: %+v", res.Steps)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		checkEveryRequest(t, i, r, reqs[0].PromptCacheKey)
	}
	checkSecondRequest(t, reqs[1])
	// The third request carries both earlier replies' reasoning, each
	// before its calls, and a result for each call.
	checkReplayed(t, reqs[2], "enc-0", "call_0_0")
	checkReplayed(t, reqs[2], "enc-1", "call_1_0")
	for _, id := range []string{"call_1_0", "call_1_1", "call_1_2"} {
		if !hasOutput(reqs[2], id) {
			t.Errorf("no function_call_output for %s in %s", id, reqs[2].Raw)
		}
	}
}

// checkEveryRequest checks what every request carries.
func checkEveryRequest(t *testing.T, i int, r *apiRequest, key string) {
	t.Helper()
	if r.Auth != "Bearer "+testKey {
		t.Errorf("request %d: Authorization %q", i, r.Auth)
	}
	if !strings.Contains(r.Instructions, "ref") {
		t.Errorf("request %d: the system prompt is not the instructions: %.200q", i, r.Instructions)
	}
	for _, m := range r.inputOf("message") {
		if m["role"] == "system" {
			t.Errorf("request %d: a system message in the input besides the instructions", i)
		}
	}
	if r.Store == nil || *r.Store || !contains(r.Include, "reasoning.encrypted_content") {
		t.Errorf("request %d: store %v include %v, want store:false and the encrypted reasoning", i, r.Store, r.Include)
	}
	if r.PromptCacheKey == "" || r.PromptCacheKey != key {
		t.Errorf("request %d: prompt_cache_key %q, want the run's %q", i, r.PromptCacheKey, key)
	}
	names := map[string]bool{}
	for _, tool := range r.Tools {
		names[tool["name"].(string)] = true
	}
	if !names["click"] || !names["done"] || !names["screenshot"] {
		t.Errorf("request %d: tools %v", i, names)
	}
}

// checkSecondRequest: the screenshot call and its result, the image, the
// first reply's reasoning.
func checkSecondRequest(t *testing.T, r *apiRequest) {
	t.Helper()
	checkReplayed(t, r, "enc-0", "call_0_0")
	if !hasOutput(r, "call_0_0") {
		t.Errorf("no function_call_output for the screenshot call: %s", r.Raw)
	}
	image := ""
	for _, m := range r.inputOf("message") {
		parts, _ := m["content"].([]any)
		for _, p := range parts {
			if part, ok := p.(map[string]any); ok && part["type"] == "input_image" {
				image, _ = part["image_url"].(string)
			}
		}
	}
	if !strings.HasPrefix(image, "data:image/") || !strings.Contains(image, ";base64,") {
		t.Errorf("no input_image with a data URL in the second request: %.300s", r.Raw)
	}
}

// checkReplayed checks that a reasoning item with the encrypted content
// comes back before the function call it preceded.
func checkReplayed(t *testing.T, r *apiRequest, encrypted, callID string) {
	t.Helper()
	at, callAt := -1, -1
	for i, item := range r.Input {
		if item["type"] == "reasoning" && item["encrypted_content"] == encrypted {
			at = i
		}
		if item["type"] == "function_call" && item["call_id"] == callID {
			callAt = i
		}
	}
	if at < 0 || callAt < 0 || at > callAt {
		t.Errorf("reasoning %s at %d, call %s at %d: want the reasoning item before its call", encrypted, at, callID, callAt)
	}
}

func hasOutput(r *apiRequest, callID string) bool {
	for _, item := range r.inputOf("function_call_output") {
		if item["call_id"] == callID {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestLoopUnauthorizedIsLLMErrorAtOnce(t *testing.T) {
	t.Parallel()
	srv := startAPI(t, func(*apiRequest, int) turn {
		return turn{status: 401, body: `{"error":{"message":"Incorrect API key provided: ` + testKey +
			`. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`}
	})
	res, bank, _ := runBank(t, srv, responses.Config{})
	if res.Code != agent.CodeLLMError || !strings.Contains(res.Message, "Incorrect API key") {
		t.Fatalf("got %s: %q; want LLM_ERROR with the provider's message", res.Code, res.Message)
	}
	if !errors.Is(res.Err, llm.ErrUnauthorized) || !strings.Contains(res.Message, llm.KindAuth.Hint()) {
		t.Errorf("error %v: want llm.ErrUnauthorized with its hint", res.Err)
	}
	if strings.Contains(res.Message, testKey) {
		t.Errorf("the key is in the message: %q", res.Message)
	}
	if n := len(srv.requests()); n != 1 || bank.Logins() != 0 {
		t.Errorf("%d requests, %d sign-ins; want 1 request and no sign-in", n, bank.Logins())
	}
}

func TestLoopRateLimitedThenRetried(t *testing.T) {
	t.Parallel()
	srv := startAPI(t, func(req *apiRequest, n int) turn {
		if n == 0 {
			return turn{status: 429, header: map[string]string{"Retry-After": "0"},
				body: `{"error":{"message":"Rate limit reached for gpt-5.4 on tokens per min (TPM).","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`}
		}
		return bankTurns(req, n-1)
	})
	res, _, _ := runBank(t, srv, responses.Config{})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	if reqs := srv.requests(); len(reqs) != 4 || reqs[0].Raw != reqs[1].Raw {
		t.Errorf("%d requests; want the first sent again as is, then 2 more", len(reqs))
	}
}

func TestLoopStalledStreamEndsWithinItsBound(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	const window = 400 * time.Millisecond
	srv := startAPI(t, func(*apiRequest, int) turn {
		return turn{events: []event{{"response.created", map[string]any{"response": response("resp_0", "in_progress", nil, nil)}}}, stall: true}
	})
	res, bank, took := runBank(t, srv, responses.Config{Inactivity: window})
	if !errors.Is(res.Err, watchdog.ErrTimeout) || !strings.Contains(res.Message, "went silent") {
		t.Fatalf("got %s: %q (%v); want the inactivity window's error", res.Code, res.Message, res.Err)
	}
	if took > 15*time.Second || bank.Logins() != 0 {
		t.Errorf("the run took %s with %d sign-ins; want an end soon after the %s window", took, bank.Logins(), window)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests, want 1: a stream that started is not sent again", n)
	}
}
