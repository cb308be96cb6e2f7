package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

func call(name string, args map[string]any) modelserver.Turn {
	return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
}

func done(answer string) modelserver.Turn { return call("done", map[string]any{"answer": answer}) }

// The model asks a person; the answer comes within the wait.
func TestAskHumanAnswered(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastTool(), `"answered"`) {
			return done(req.LastTool())
		}
		return call("ask_human", map[string]any{"question": "Which colour?"})
	}))
	var asked atomic.Value
	human := agent.HumanFunc(func(ctx context.Context, q string) (string, error) {
		asked.Store(q)
		return "blue", nil
	})
	a := mustAgent(t, br, model, agent.WithHuman(human, time.Second))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "buy a mug"})
	if res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, `"answer":"blue"`) {
		t.Fatalf("got %s %q: %s", res.Code, res.Answer, res.Message)
	}
	if asked.Load() != "Which colour?" {
		t.Fatalf("the person was asked %v", asked.Load())
	}
	if names := srv.Requests()[0].Req.ToolNames(); !contains(names, "ask_human") {
		t.Fatalf("ask_human not offered: %v", names)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Without a human channel, ask_human is not offered.
func TestAskHumanNotOfferedWithoutHuman(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	model, srv := newModel(t, modelserver.Script(done("ok")))
	mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if names := srv.Requests()[0].Req.ToolNames(); contains(names, "ask_human") {
		t.Fatalf("ask_human offered without a human: %v", names)
	}
}

// The wait runs out: the model gets a normal pending result (not an error)
// within the budget, and the late answer is delivered at a later iteration.
func TestAskHumanPendingThenDelivered(t *testing.T) {
	url := page(t, simplePage)
	release := make(chan struct{})
	var pendingAt time.Time
	var asks atomic.Int32
	model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "has now answered") {
				return done(m.Content)
			}
		}
		switch {
		case strings.Contains(req.LastTool(), `"pending"`):
			if pendingAt.IsZero() {
				pendingAt = time.Now()
				close(release)
			}
			return call("scroll", map[string]any{"direction": "down"})
		case pendingAt.IsZero():
			asks.Add(1)
			return call("ask_human", map[string]any{"question": "What is the code?"})
		default:
			return call("scroll", map[string]any{"direction": "up"})
		}
	}))
	human := agent.HumanFunc(func(ctx context.Context, q string) (string, error) {
		select {
		case <-release:
			return "4711", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
	const wait = 500 * time.Millisecond
	var askMS int64
	a := mustAgent(t, shared, model, agent.WithHuman(human, wait), agent.WithMaxIterations(10),
		agent.WithObserver(agent.ObserverFunc(func(s agent.Step) {
			if len(s.Actions) > 0 && s.Actions[0].Tool == "ask_human" {
				askMS = s.Actions[0].MS
				if s.Actions[0].Error {
					t.Error("a pending answer was marked as an error")
				}
			}
		})))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "enter the code"})
	if res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, "4711") || !strings.Contains(res.Answer, "What is the code?") {
		t.Fatalf("got %s %q: %s", res.Code, res.Answer, res.Message)
	}
	if askMS < wait.Milliseconds() || askMS > wait.Milliseconds()+300 {
		t.Fatalf("ask_human returned after %dms, budget %s", askMS, wait)
	}
	if asks.Load() != 1 {
		t.Fatalf("asked %d times", asks.Load())
	}
}

// A question still queued when the task ends does not outlive Run.
func TestAskHumanQueuedQuestionEndsWithTask(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastTool(), `"pending"`) {
			return call("fail", map[string]any{"reason": "no answer"})
		}
		return call("ask_human", map[string]any{"question": "?"})
	}))
	ended := make(chan struct{})
	human := agent.HumanFunc(func(ctx context.Context, q string) (string, error) {
		<-ctx.Done()
		close(ended)
		return "", ctx.Err()
	})
	res := mustAgent(t, br, model, agent.WithHuman(human, 200*time.Millisecond)).
		Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeAgentFailed {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	select {
	case <-ended:
	default:
		t.Fatal("the queued question was still waiting after Run returned")
	}
}

// Failed tool calls count against the error budget.
func TestErrorBudget(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	n := 400
	model, srv := newModel(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		n++ // a different wrong ref each time: errors, not repetition
		return call("click", map[string]any{"ref": "e" + strconv.Itoa(n)})
	}))
	res := mustAgent(t, br, model, agent.WithErrorBudget(3, 10)).Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeMaxErrors || res.Iterations != 4 {
		t.Fatalf("got %s after %d iterations: %s", res.Code, res.Iterations, res.Message)
	}
	if len(srv.Requests()) != 4 {
		t.Fatalf("%d requests", len(srv.Requests()))
	}
}

// The same action on an unchanged page: a warning, then AGENT_STUCK.
func TestRepeatedActionIsStuck(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, `<!doctype html><title>Inert</title><button>Does nothing</button>`)
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		ref, _ := modelserver.FindRef(req.LastUser(), "button", "Does nothing")
		return call("click", map[string]any{"ref": ref})
	}))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	// The first click focuses the button, which the snapshot shows: the
	// repetition counts from the second.
	if res.Code != agent.CodeAgentStuck || res.Iterations > 4 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1].Req.LastTool(); !strings.Contains(last, "warning: you did exactly this") {
		t.Fatalf("no warning before the end: %q", last)
	}
}

// Paging a calendar repeats the same click, but the page changes each time:
// not repetition.
func TestPagingIsNotStuck(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, `<!doctype html><title>Calendar</title>
<p id="m">January</p><button onclick="const ms=['January','February','March','April','May','June','July'];
const m=document.getElementById('m'); m.textContent = ms[ms.indexOf(m.textContent)+1]">Next month</button>`)
	model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		if strings.Contains(obs, "June") {
			return done("June")
		}
		ref, _ := modelserver.FindRef(obs, "button", "Next month")
		return call("click", map[string]any{"ref": ref})
	}))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "go to June"})
	if res.Code != agent.CodeSuccess || res.Iterations != 6 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
}

// A malformed stream goes back to the model as an error, and the task goes on.
func TestMalformedReplyIsRecoverable(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	model, srv := newModel(t, modelserver.Script(modelserver.Turn{Fault: modelserver.Malformed}, done("ok")))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	found := false
	for _, m := range srv.Requests()[1].Req.Messages {
		found = found || strings.Contains(m.Content, "could not be read")
	}
	if !found {
		t.Fatal("the model was not told its reply could not be read")
	}
}

// The dispatch backstop abandons a navigation that never arrives: the model
// gets a retryable OPERATION_TIMEOUT result carrying the budget, and the task
// goes on.
func TestOperationTimeoutIsRetryable(t *testing.T) {
	url := page(t, simplePage)
	hang := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(hang)
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastTool(), "OPERATION_TIMEOUT") {
			return done(req.LastTool())
		}
		return call("goto", map[string]any{"url": slow.URL})
	}))
	const backstop = time.Second
	a := mustAgent(t, shared, model, agent.WithOperationTimeout(backstop), agent.WithIterationTimeout(20*time.Second))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	var got struct {
		Error     string `json:"error"`
		BudgetMS  int64  `json:"budget_ms"`
		Retryable bool   `json:"retryable"`
	}
	if err := json.Unmarshal([]byte(srv.Requests()[1].Req.LastTool()), &got); err != nil {
		t.Fatalf("tool result %q: %v", srv.Requests()[1].Req.LastTool(), err)
	}
	if got.Error != agent.OperationTimeout || got.BudgetMS != 1000 || !got.Retryable {
		t.Fatalf("tool result %+v", got)
	}
	act := res.Steps[0].Actions[0]
	if !act.Error || act.MS < 1000 || act.MS > 2500 {
		t.Fatalf("goto record %+v: want an error after about 1s", act)
	}
}

// With the recover policy, a timed-out iteration is abandoned, the model is
// told, and the task goes on; at the limit the task ends.
func TestIterationTimeoutRecoverPolicy(t *testing.T) {
	tier.Slow(t)
	url := page(t, simplePage)
	model, srv := newModel(t, modelserver.Script(modelserver.Turn{Fault: modelserver.NoHeaders}, done("ok")))
	a := mustAgent(t, shared, model, agent.WithIterationTimeout(time.Second),
		agent.WithIterationTimeoutPolicy(agent.PolicyRecover, 2))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeSuccess || res.Iterations != 2 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
	if res.Steps[0].Error == "" {
		t.Fatal("the timed-out step has no error")
	}
	told := false
	for _, m := range srv.Requests()[1].Req.Messages {
		told = told || strings.Contains(m.Content, "Your last step timed out after 1s")
	}
	if !told {
		t.Fatal("the model was not told the step timed out")
	}

	model2, _ := newModel(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{Fault: modelserver.NoHeaders}
	}))
	start := time.Now()
	res = mustAgent(t, shared, model2, agent.WithIterationTimeout(500*time.Millisecond),
		agent.WithIterationTimeoutPolicy(agent.PolicyRecover, 2)).Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeIterationTimeout || res.Iterations != 2 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
	if e := time.Since(start); e > 3*time.Second {
		t.Fatalf("took %s", e)
	}
}

func TestHumanTimeoutMustBeBelowBounds(t *testing.T) {
	t.Parallel()
	br := tab(t)
	model, _ := newModel(t, modelserver.Script())
	h := agent.HumanFunc(func(context.Context, string) (string, error) { return "", errors.New("x") })
	if _, err := agent.New(br, model, agent.WithHuman(h, time.Minute), agent.WithIterationTimeout(30*time.Second)); err == nil {
		t.Fatal("a human wait longer than the iteration was accepted")
	}
	if _, err := agent.New(br, model, agent.WithIterationTimeoutPolicy("sometimes", 1)); err == nil {
		t.Fatal("an unknown policy was accepted")
	}
}

// A reply with several calls runs them in order, and stops the batch when
// the page navigates: the later calls named elements of the old page.
func TestBatchStopsWhenPageNavigates(t *testing.T) {
	t.Parallel()
	br := tab(t)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/next" {
			w.Write([]byte(`<!doctype html><title>Next</title><p>second page</p>`))
			return
		}
		w.Write([]byte(`<!doctype html><title>First</title><input aria-label="Name"><a href="/next">Go on</a><button>Stay</button>`))
	}))
	defer s.Close()
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		if strings.Contains(obs, "second page") {
			return done("there")
		}
		name, _ := modelserver.FindRef(obs, "textbox", "Name")
		link, _ := modelserver.FindRef(obs, "link", "Go on")
		stay, _ := modelserver.FindRef(obs, "button", "Stay")
		return modelserver.Turn{ToolCalls: []modelserver.Call{
			modelserver.ToolCall("type", map[string]any{"ref": name, "text": "Ann"}),
			modelserver.ToolCall("click", map[string]any{"ref": link}),
			modelserver.ToolCall("click", map[string]any{"ref": stay}),
		}}
	}))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: s.URL, Instruction: "go on"})
	if res.Code != agent.CodeSuccess || res.Iterations != 2 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
	acts := res.Steps[0].Actions
	if len(acts) != 3 || acts[0].Skipped || acts[1].Skipped || !acts[2].Skipped || acts[2].Error {
		t.Fatalf("actions %+v: want the third skipped, not failed", acts)
	}
	if !strings.Contains(acts[2].Outcome, "the page navigated") {
		t.Fatalf("skipped call says %q", acts[2].Outcome)
	}
	// The model is told, in the tool result of the skipped call.
	var results []string
	for _, m := range srv.Requests()[1].Req.Messages {
		if m.Role == "tool" {
			results = append(results, m.Content)
		}
	}
	if len(results) != 3 || !strings.Contains(results[2], "not run") {
		t.Fatalf("tool results %q", results)
	}
}

// With vision, the model may ask for a screenshot; it is shown to it once,
// as an image in the next request.
func TestVisionScreenshot(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		for _, m := range req.Messages {
			if m.Images > 0 {
				return done("saw it")
			}
		}
		return call("screenshot", nil)
	}))
	res := mustAgent(t, br, model, agent.WithVision(true)).Run(context.Background(), agent.Task{URL: url, Instruction: "look"})
	if res.Code != agent.CodeSuccess || res.Iterations != 2 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
	if !contains(srv.Requests()[0].Req.ToolNames(), "screenshot") {
		t.Fatal("screenshot not offered with vision")
	}
	images := 0
	for _, m := range srv.Requests()[1].Req.Messages {
		images += m.Images
	}
	if images != 1 {
		t.Fatalf("second request carried %d images, want 1", images)
	}
}

// A backstop at or below the longest tool budget is allowed but logged.
func TestLowOperationTimeoutWarns(t *testing.T) {
	t.Parallel()
	br := tab(t)
	model, _ := newModel(t, modelserver.Script())
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if _, err := agent.New(br, model, agent.WithOperationTimeout(10*time.Second), agent.WithLogger(log)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "at or below the longest tool budget (30s)") {
		t.Fatalf("no warning; log: %s", buf.String())
	}
	buf.Reset()
	if _, err := agent.New(br, model, agent.WithLogger(log)); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Fatalf("the defaults logged: %s", buf.String())
	}
}
