package agent_test

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
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/chrometest"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/watchdog"
)

// chrome is one real Chromium for the whole package: each test has a tab of
// its own in it (tab), in a browser context of its own, and so tests run
// in parallel. Tests about the browser process itself (killed, crashed)
// launch their own.
var chrome chrometest.Shared

// toolChrome is a second shared Chromium, started by the first test that
// needs it, in which every page may offer tools (--page-tools).
var toolChrome = chrometest.Shared{Options: browser.Options{PageTools: true}}

// shared is a tab of chrome for the serial tests, the examples and the
// benchmark.
var shared *browser.Browser

func TestMain(m *testing.M) {
	b, err := chrome.Attach(browser.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared = b
	os.Exit(chrome.Run(m, func() error {
		if err := b.Close(); err != nil {
			return fmt.Errorf("closing the examples' tab: %w", err)
		}
		return nil
	}, toolChrome.Close))
}

// Tests run in parallel, each with its own tab (tab), model server and
// site, except those whose bounds leave less than a second (an iteration
// timeout, a cancel, a start navigation checked to within a few hundred
// milliseconds): those are serial, run alone before the others, one after
// another on the shared tab (or, as before, a browser of their own).

// tab is a tab of the shared Chromium for the test alone, handed to a later
// test when it ends (chrometest.Shared.Tab): as cheap as the one shared tab
// the tests took turns on before they ran in parallel.
func tab(t testing.TB) *browser.Browser {
	t.Helper()
	return chrome.Tab(t)
}

// newModel returns a real HTTP client (go-openai) for a scripted server.
func newModel(t *testing.T, r modelserver.Responder, mut ...func(*llm.Config)) (*llm.Client, *modelserver.Server) {
	t.Helper()
	srv, err := modelserver.Start(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cfg := llm.Config{BaseURL: srv.BaseURL(), Model: "scripted", RetryBaseDelay: 50 * time.Millisecond}
	for _, f := range mut {
		f(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

func page(t testing.TB, html string) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, html)
	}))
	t.Cleanup(s.Close)
	return s.URL + "/"
}

const simplePage = `<!doctype html><title>Simple</title><h1>Hello</h1><button>Press me</button>`

func mustAgent(t *testing.T, b contract.Browser, m contract.Model, opts ...agent.Option) *agent.Agent {
	t.Helper()
	a, err := agent.New(b, m, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A multi-step task: sign in on a local site, then report a value shown only
// after signing in. The password is a secret: the model never sees it.
func TestLoginTaskSucceeds(t *testing.T) {
	t.Parallel()
	br := tab(t)
	d, err := eval.StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	model, err := llm.New(llm.Config{BaseURL: d.Model.BaseURL(), Model: "reference"})
	if err != nil {
		t.Fatal(err)
	}
	var steps []agent.Step
	a := mustAgent(t, br, model, agent.WithIterationTimeout(30*time.Second),
		agent.WithObserver(agent.ObserverFunc(func(s agent.Step) { steps = append(steps, s) })))

	res := a.Run(context.Background(), d.Task())
	if res.Code != agent.CodeSuccess || res.Status != agent.StatusSuccess {
		t.Fatalf("got %s (%s): %s; steps %+v", res.Code, res.Status, res.Message, res.Steps)
	}
	if !strings.Contains(res.Answer, eval.DemoBalance) {
		t.Fatalf("answer %q does not give the balance %s", res.Answer, eval.DemoBalance)
	}
	if d.Bank.Logins() != 1 {
		t.Fatalf("the site saw %d sign-ins, want 1", d.Bank.Logins())
	}
	if res.Iterations != 2 || len(res.Steps) != 2 || len(steps) != 2 {
		t.Fatalf("iterations %d, steps %d, observed %d; want 2 each", res.Iterations, len(res.Steps), len(steps))
	}
	if n := len(res.Steps[0].Actions); n != 3 {
		t.Fatalf("first step ran %d actions, want 3 (two fields and the button)", n)
	}
	if res.Usage.TotalTokens == 0 {
		t.Fatal("token usage not recorded")
	}
	// The secret's value never reached the model, the records or the answer.
	for _, rec := range d.Model.Requests() {
		for _, m := range rec.Req.Messages {
			if strings.Contains(m.Content, eval.DemoPassword) {
				t.Fatalf("request %d showed the model the password", rec.Index)
			}
		}
	}
	for _, s := range res.Steps {
		for _, a := range s.Actions {
			if strings.Contains(string(a.Args)+a.Outcome, eval.DemoPassword) {
				t.Fatal("a step record holds the password")
			}
		}
	}
	// The sign-in navigated: the sign-in page's observation is a stub.
	reqs := d.Model.Requests()
	last := promptOf(reqs[len(reqs)-1].Req.Messages)
	if obs, stubs := strings.Count(last, "Snapshot:\n"), strings.Count(last, "omitted: the page changed)"); obs != 1 || stubs != 1 {
		t.Fatalf("the last request carried %d whole snapshots and %d stubs, want 1 of each (the account page, the sign-in page left)", obs, stubs)
	}
}

// Each hung model response ends the task with ITERATION_TIMEOUT within the
// bound, and the model server sees the connection closed.
func TestIterationTimeoutOnHungModel(t *testing.T) {
	tier.Slow(t)
	url := page(t, simplePage)
	const budget = 2 * time.Second
	// Serial, but its cases run side by side, a tab each: each is checked
	// from its model request on, not from its start.
	for _, fault := range []modelserver.Fault{modelserver.StallMidStream, modelserver.NoHeaders, modelserver.Drip} {
		t.Run(fault.String(), func(t *testing.T) {
			t.Parallel()
			model, srv := newModel(t, modelserver.Script(modelserver.Turn{Fault: fault, Every: 100 * time.Millisecond}),
				func(c *llm.Config) { c.Inactivity = time.Minute })
			a := mustAgent(t, tab(t), model, agent.WithIterationTimeout(budget))
			start := time.Now()
			res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "press the button"})
			end := time.Now()
			if res.Code != agent.CodeIterationTimeout {
				t.Fatalf("got %s: %s", res.Code, res.Message)
			}
			if !errors.Is(res.Err, watchdog.ErrTimeout) {
				t.Fatalf("Err %v does not match watchdog.ErrTimeout", res.Err)
			}
			if !strings.Contains(res.Message, "waiting for the model") {
				t.Fatalf("message %q does not say where it hung", res.Message)
			}
			rec, err := srv.WaitRequest(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			// The iteration began after Run started and before the model
			// request arrived; its bound fires 2s after it began. So the
			// task ends at least 2s after Run started, and at most 2.5s
			// after the request started.
			if e := end.Sub(start); e < budget {
				t.Fatalf("ended %s after Run started, before the %s bound", e, budget)
			}
			if e := end.Sub(rec.Start); e > budget+500*time.Millisecond {
				t.Fatalf("ended %s after the model request started; want within %s", e, budget+500*time.Millisecond)
			}
			select {
			case <-rec.Gone:
			case <-time.After(time.Second):
				t.Fatal("the model server never saw the client go away")
			}
			if !rec.ClientGone() {
				t.Fatal("the request finished instead of being abandoned by the client")
			}
		})
	}
}

// A page that freezes its renderer cannot hold the loop either: the model
// clicks a button whose handler starts an endless script, and the next
// snapshot never returns.
func TestIterationTimeoutOnFrozenPage(t *testing.T) {
	tier.Slow(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	b, err := browser.Launch(ctx, browser.Options{})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	url := page(t, `<!doctype html><title>Frozen</title>
<button onclick="setTimeout(() => { for (;;) {} }, 0)">Freeze</button>`)
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		ref, ok := modelserver.FindRef(req.LastUser(), "button", "Freeze")
		if !ok {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]any{"reason": "no button"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
	}))
	const budget = 2 * time.Second
	// The iteration that hangs starts when the previous one was recorded
	// (or, for the first, when the loop starts after the start page).
	iterStart := time.Now()
	a := mustAgent(t, b, model, agent.WithIterationTimeout(budget),
		agent.WithObserver(agent.ObserverFunc(func(s agent.Step) {
			if s.Error == "" {
				iterStart = time.Now()
			}
		})))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "press Freeze"})
	end := time.Now()
	if res.Code != agent.CodeIterationTimeout {
		t.Fatalf("got %s after %d iterations: %s", res.Code, res.Iterations, res.Message)
	}
	// The freeze starts in the click's handler: the click's settling wait
	// or, at the latest, the next snapshot hangs.
	if !strings.Contains(res.Message, "while acting") && !strings.Contains(res.Message, "while taking a snapshot") {
		t.Fatalf("message %q does not say where it hung", res.Message)
	}
	if e := end.Sub(iterStart); e < budget || e > budget+700*time.Millisecond {
		t.Fatalf("the frozen iteration ended after %s, bound %s", e, budget)
	}
	if n := len(srv.Requests()); n > 2 {
		t.Fatalf("the model was asked %d times", n)
	}
}

// A caller's cancel mid-iteration is CANCELED, not ITERATION_TIMEOUT.
func TestCallerCancelMidIteration(t *testing.T) {
	url := page(t, simplePage)
	model, srv := newModel(t, modelserver.Script(modelserver.Turn{Fault: modelserver.NoHeaders}))
	a := mustAgent(t, shared, model, agent.WithIterationTimeout(10*time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled time.Time
	go func() {
		wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
		defer wcancel()
		if _, err := srv.WaitRequest(wctx, 0); err == nil {
			cancelled = time.Now()
			cancel()
		}
	}()
	res := a.Run(ctx, agent.Task{URL: url, Instruction: "press the button"})
	if res.Code != agent.CodeCanceled {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	if cancelled.IsZero() {
		t.Fatal("the model was never called")
	}
	if lag := time.Since(cancelled); lag > 500*time.Millisecond {
		t.Fatalf("Run returned %s after the cancel", lag)
	}
	if !errors.Is(res.Err, context.Canceled) {
		t.Fatalf("Err %v is not context.Canceled", res.Err)
	}
}

func TestTaskTimeout(t *testing.T) {
	url := page(t, simplePage)
	model, _ := newModel(t, modelserver.Script(modelserver.Turn{Fault: modelserver.NoHeaders}))
	a := mustAgent(t, shared, model, agent.WithIterationTimeout(10*time.Second), agent.WithTaskTimeout(time.Second))
	start := time.Now()
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeTaskTimeout {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	if e := time.Since(start); e < time.Second || e > 1700*time.Millisecond {
		t.Fatalf("ended after %s, want the 1s task bound", e)
	}
}

func clickButtonThenDone(req *modelserver.ChatRequest) modelserver.Turn {
	obs := req.LastUser()
	if strings.Contains(obs, "clicked: yes") {
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "clicked"})}}
	}
	ref, ok := modelserver.FindRef(obs, "button", "Press me")
	if !ok {
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]any{"reason": "no button"})}}
	}
	return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
}

const clickPage = `<!doctype html><title>Click</title><button onclick="document.getElementById('s').textContent='clicked: yes'">Press me</button><p id="s">clicked: no</p>`

// 429 with Retry-After, then a normal reply: the task completes.
func TestRateLimitThenSuccess(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, clickPage)
	n := 0
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		n++
		if n == 1 {
			return modelserver.Turn{Fault: modelserver.RateLimited, RetryAfter: time.Second}
		}
		return clickButtonThenDone(req)
	}))
	a := mustAgent(t, br, model, agent.WithIterationTimeout(20*time.Second))
	start := time.Now()
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "press the button"})
	if res.Code != agent.CodeSuccess || res.Answer != "clicked" {
		t.Fatalf("got %s %q: %s", res.Code, res.Answer, res.Message)
	}
	if e := time.Since(start); e < time.Second {
		t.Fatalf("finished after %s: Retry-After of 1s not honoured", e)
	}
	if got := len(srv.Requests()); got != 3 {
		t.Fatalf("server saw %d requests, want 3 (429, click, done)", got)
	}
}

// 401 is not retried: LLM_ERROR at once.
func TestUnauthorizedIsLLMErrorAtOnce(t *testing.T) {
	url := page(t, simplePage)
	model, srv := newModel(t, modelserver.Script(modelserver.Turn{Fault: modelserver.Unauthorized}))
	a := mustAgent(t, shared, model)
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeLLMError {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	if !errors.Is(res.Err, llm.ErrUnauthorized) {
		t.Fatalf("Err %v is not llm.ErrUnauthorized", res.Err)
	}
	if got := len(srv.Requests()); got != 1 {
		t.Fatalf("server saw %d requests, want exactly 1", got)
	}
	if res.Steps[0].LLMMS > 1000 {
		t.Fatalf("model call took %dms", res.Steps[0].LLMMS)
	}
}

// Unknown tools and broken arguments come back to the model as tool errors;
// the task goes on.
func TestBadToolCallsAreToolErrors(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, clickPage)
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		switch len(req.Messages) {
		case 3: // system, task, first observation
			return modelserver.Turn{ToolCalls: []modelserver.Call{{Name: "fly", Args: `{}`}}}
		case 6:
			return modelserver.Turn{ToolCalls: []modelserver.Call{{Name: "click", Args: `{"ref": `}}}
		case 9:
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": "e9999"})}}
		}
		return clickButtonThenDone(req)
	}))
	a := mustAgent(t, br, model, agent.WithIterationTimeout(20*time.Second))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "press the button"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	var tools []string
	for _, rec := range srv.Requests() {
		tools = append(tools, rec.Req.LastTool())
	}
	joined := strings.Join(tools, "\n")
	for _, want := range []string{`unknown tool "fly"`, "not a valid JSON object", "e9999"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no tool result mentions %q; results:\n%s", want, joined)
		}
	}
	if !res.Steps[0].Actions[0].Error {
		t.Error("the unknown tool's record is not marked as an error")
	}
}

// Text without a tool call gets one reminder, then AGENT_FAILED.
func TestNoToolCallTwiceFails(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	model, srv := newModel(t, modelserver.Script(modelserver.Turn{Text: "hmm"}, modelserver.Turn{Text: "still thinking"}))
	a := mustAgent(t, br, model)
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeAgentFailed || res.Iterations != 2 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
	if !strings.Contains(srv.Requests()[1].Req.LastUser(), "Snapshot:") {
		t.Fatal("second request has no fresh observation")
	}
}

func TestMaxIterations(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	n := 0
	model, _ := newModel(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		n++ // a different page each time: progress, not repetition
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("goto", map[string]any{"url": fmt.Sprintf("%s?page=%d", url, n)})}}
	}))
	a := mustAgent(t, br, model, agent.WithMaxIterations(3))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeMaxIterations || res.Iterations != 3 || len(res.Steps) != 3 {
		t.Fatalf("got %s after %d iterations (%d steps): %s", res.Code, res.Iterations, len(res.Steps), res.Message)
	}
}

func TestFailTool(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	model, _ := newModel(t, modelserver.Script(modelserver.Turn{ToolCalls: []modelserver.Call{
		modelserver.ToolCall("fail", map[string]any{"reason": "the shop is closed"})}}))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeAgentFailed || !strings.Contains(res.Message, "the shop is closed") {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
}

func TestStartURLThatDoesNotLoadIsBrowserError(t *testing.T) {
	t.Parallel()
	br := tab(t)
	s := httptest.NewServer(http.NotFoundHandler())
	dead := s.URL
	s.Close()
	model, srv := newModel(t, modelserver.Script())
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: dead, Instruction: "x"})
	if res.Code != agent.CodeBrowserError {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	if len(srv.Requests()) != 0 {
		t.Fatal("the model was called although the start page failed")
	}
}

func TestStartNavigationIsBounded(t *testing.T) {
	hang := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer s.Close()
	defer close(hang)
	model, _ := newModel(t, modelserver.Script())
	a := mustAgent(t, shared, model, agent.WithStartTimeout(time.Second))
	start := time.Now()
	res := a.Run(context.Background(), agent.Task{URL: s.URL, Instruction: "x"})
	if res.Code != agent.CodeBrowserError || !errors.Is(res.Err, watchdog.ErrTimeout) {
		t.Fatalf("got %s: %v", res.Code, res.Err)
	}
	if e := time.Since(start); e > 1500*time.Millisecond {
		t.Fatalf("start navigation ended after %s, bound 1s", e)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	br := tab(t)
	model, _ := newModel(t, modelserver.Script())
	for _, o := range []agent.Option{
		agent.WithIterationTimeout(-time.Second),
		agent.WithTaskTimeout(-1),
		agent.WithMaxIterations(0),
	} {
		if _, err := agent.New(br, model, o); err == nil {
			t.Error("bad option accepted")
		}
	}
	if _, err := agent.New(br, model, agent.WithIterationTimeout(0)); err != nil {
		t.Errorf("iteration timeout 0 (disabled) rejected: %v", err)
	}
}
