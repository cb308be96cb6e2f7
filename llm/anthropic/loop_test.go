package anthropic_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/anthropic"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/chrometest"
	"github.com/webagent/webagent/watchdog"
)

// chrome is one Chromium for the loop tests, each with a tab of its own.
var chrome chrometest.Shared

func TestMain(m *testing.M) { os.Exit(chrome.Run(m)) }

const (
	bankUser     = "ann"
	bankPassword = "correct-horse-battery"
	bankBalance  = "$1,234.56"
)

// bankModel signs in, then reports the balance, as Claude would through
// the Messages API: thinking, text and tool_use blocks.
func bankModel(w http.ResponseWriter, _ *http.Request, body map[string]any, _ int) {
	obs := lastUserText(body)
	if user, ok := modelserver.FindRef(obs, "textbox", "Username"); ok {
		pass, _ := modelserver.FindRef(obs, "textbox", "Password")
		signIn, _ := modelserver.FindRef(obs, "button", "Sign in")
		streamReply(w, "A sign-in form: fill both fields, press Sign in.", "Signing in.", []call{
			{"type", fmt.Sprintf(`{"ref":%q,"text":%q}`, user, bankUser)},
			{"type", fmt.Sprintf(`{"ref":%q,"text":"<secret>password</secret>"}`, pass)},
			{"click", fmt.Sprintf(`{"ref":%q}`, signIn)},
		})
		return
	}
	if strings.Contains(obs, bankBalance) {
		streamReply(w, "The balance is shown.", "", []call{{"done", fmt.Sprintf(`{"answer":"The balance is %s."}`, bankBalance)}})
		return
	}
	streamReply(w, "", "", []call{{"fail", `{"reason":"unexpected page"}`}})
}

// runBank runs the sign-in task through the loop in a real Chromium with
// an Anthropic client on srv.
func runBank(t *testing.T, srv *messagesServer, mod func(*anthropic.Config), iteration time.Duration) (*agent.Result, *sites.Bank) {
	t.Helper()
	bank := sites.NewBank(bankUser, bankPassword, bankBalance)
	site := httptest.NewServer(bank)
	t.Cleanup(site.Close)
	model := newClient(t, srv.URL, mod)
	a, err := agent.New(chrome.Tab(t), model, agent.WithIterationTimeout(iteration), agent.WithMaxIterations(6))
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
	return res, bank
}

func TestLoopSignsIn(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, bankModel)
	res, bank := runBank(t, srv, nil, 30*time.Second)
	if res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, bankBalance) || bank.Logins() != 1 {
		t.Fatalf("got %s: %s (answer %q, %d sign-ins)", res.Code, res.Message, res.Answer, bank.Logins())
	}
	if res.Usage.CachedTokens == 0 || res.Usage.TotalTokens == 0 {
		t.Errorf("usage lost: %+v", res.Usage)
	}
	if !strings.Contains(res.Steps[0].Reasoning, "sign-in form") {
		t.Errorf("reasoning lost: %q", res.Steps[0].Reasoning)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	// The second request holds the first reply and its results in the
	// documented shapes, the password never.
	msgs, _ := reqs[1].body["messages"].([]any)
	var sent strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&sent, "%v\n", m)
	}
	for _, w := range []string{"signature:sig-", "type:tool_use", "type:tool_result", "tool_use_id:toolu_"} {
		if !strings.Contains(sent.String(), w) {
			t.Errorf("the second request lacks %q: %s", w, sent.String())
		}
	}
	if strings.Contains(sent.String(), bankPassword) {
		t.Errorf("the password reached the model")
	}
}

func TestLoopUnauthorized(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any, _ int) {
		apiError(w, http.StatusUnauthorized, "authentication_error", "invalid x-api-key")
	})
	start := time.Now()
	res, bank := runBank(t, srv, nil, 30*time.Second)
	if res.Code != agent.CodeLLMError || !errors.Is(res.Err, llm.ErrUnauthorized) || !strings.Contains(res.Message, "invalid x-api-key") {
		t.Fatalf("got %s: %s (%v)", res.Code, res.Message, res.Err)
	}
	if n := len(srv.requests()); n != 1 || bank.Logins() != 0 {
		t.Errorf("%d requests, %d sign-ins; want 1 and 0", n, bank.Logins())
	}
	t.Logf("ended in %s", time.Since(start))
}

func TestLoopOverloadedRetried(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, func(w http.ResponseWriter, r *http.Request, body map[string]any, n int) {
		if n == 0 {
			w.Header().Set("retry-after", "0")
			apiError(w, 529, "overloaded_error", "Overloaded")
			return
		}
		bankModel(w, r, body, n)
	})
	res, _ := runBank(t, srv, nil, 30*time.Second)
	if res.Code != agent.CodeSuccess || len(srv.requests()) != 3 {
		t.Fatalf("got %s: %s after %d requests, want success after 3", res.Code, res.Message, len(srv.requests()))
	}
}

func TestLoopStalledStream(t *testing.T) {
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
	window := time.Second
	start := time.Now()
	res, _ := runBank(t, srv, func(c *anthropic.Config) { c.Inactivity = window; c.MaxRetries = -1 }, 20*time.Second)
	took := time.Since(start)
	if !errors.Is(res.Err, watchdog.ErrTimeout) || (res.Code != agent.CodeIterationTimeout && res.Code != agent.CodeLLMError) {
		t.Fatalf("got %s: %s (%v)", res.Code, res.Message, res.Err)
	}
	if took > 15*time.Second {
		t.Errorf("took %s; the stream's window is %s", took, window)
	}
	t.Logf("%s in %s: %s", res.Code, took, res.Message)
}
