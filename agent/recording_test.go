package agent_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/modelserver"
)

// recordingFunc is a Recording made of a function.
type recordingFunc func(ctx context.Context, t agent.Turn) (agent.Planned, error)

func (f recordingFunc) Next(ctx context.Context, t agent.Turn) (agent.Planned, error) {
	return f(ctx, t)
}

// TestRecordingChecksEachCall: a recording gives a click on the ref its
// element had, but the page now has "Delete account" under that ref. The
// loop asks the browser what the ref names before the call runs, does not
// run it, and the model answers the next iteration with the whole history
// (the replayed call and why it did not run); the result counts both.
func TestRecordingChecksEachCall(t *testing.T) {
	t.Parallel()
	br := tab(t)
	var deleted, signedIn atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/delete":
			deleted.Add(1)
			fmt.Fprint(w, `<title>Deleted</title><h1>Account deleted</h1>`)
		case "/login":
			signedIn.Add(1)
			fmt.Fprint(w, `<title>Home</title><h1>Welcome</h1>`)
		default:
			fmt.Fprint(w, `<title>Members</title><form method="post" action="/login"><button formaction="/delete">Delete account</button>
<button>Sign in</button></form>`)
		}
	}))
	defer srv.Close()
	model, ms := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if ref, ok := modelserver.FindRef(req.LastUser(), "button", "Sign in"); ok {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "signed in"})}}
	}))
	var turns atomic.Int32
	rec := recordingFunc(func(_ context.Context, t agent.Turn) (agent.Planned, error) {
		if turns.Add(1) > 1 {
			return agent.Planned{}, &agent.Divergence{Why: "the recording has no step left"}
		}
		// The ref of "Delete account", given as if it were "Sign in" (a
		// recording that took the ref the element had in another run).
		ref, _ := outline.FindRef(t.Observation, "button", "Delete account")
		return agent.Planned{
			Reply:  contract.Reply{ToolCalls: []contract.ToolCall{{ID: "rec_1", Name: "click", Arguments: `{"ref":"` + ref + `"}`}}, Usage: contract.Usage{TotalTokens: 500}},
			Expect: []*contract.Target{{Role: "button", Name: "Sign in"}},
		}, nil
	})
	a := mustAgent(t, br, model, agent.WithRecording(rec), agent.WithIterationTimeout(30*time.Second))
	res := a.Run(context.Background(), agent.Task{URL: srv.URL + "/", Instruction: "sign in"})
	if deleted.Load() != 0 {
		t.Fatal("the replayed click pressed Delete account")
	}
	if res.Code != agent.CodeSuccess || signedIn.Load() != 1 {
		t.Fatalf("%s: %s; signed in %d times", res.Code, res.Message, signedIn.Load())
	}
	first := res.Steps[0]
	if !first.Replayed || len(first.Actions) != 1 || !strings.Contains(first.Actions[0].Outcome, `recorded on button "Sign in", and aims at button "Delete account" now`) {
		t.Fatalf("the replayed step: %+v", first)
	}
	if s := res.Replay; s == nil || s.Steps != 1 || s.ModelCalls != 2 || s.TokensSaved != 500 {
		t.Fatalf("replay summary %+v", s)
	}
	// The model saw the replayed call and why it did not run, and a note.
	req := ms.Requests()[0].Req
	var history string
	for _, m := range req.Messages {
		history += m.Role + ": " + m.Content + "\n"
	}
	if !strings.Contains(history, "not run: the replayed click") || !strings.Contains(history, "replayed from a recorded run") {
		t.Fatalf("the model's first request lacks the replayed step:\n%s", history)
	}
}

// TestRecordingObeysPolicy: a replayed call goes through the user's
// policy as the model's would: a recorded "Place order" under --confirm
// purchases with no one to ask is refused, and no order is placed.
func TestRecordingObeysPolicy(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url, orders := checkoutSite(t)
	model, _ := orderingModel(t)
	var turns atomic.Int32
	rec := recordingFunc(func(_ context.Context, t agent.Turn) (agent.Planned, error) {
		if turns.Add(1) > 1 {
			return agent.Planned{Reply: contract.Reply{ToolCalls: []contract.ToolCall{{ID: "rec_2", Name: "done", Arguments: `{"answer":"stopped"}`}}}}, nil
		}
		ref, _ := outline.FindRef(t.Observation, "button", "Place order")
		return agent.Planned{
			Reply:  contract.Reply{ToolCalls: []contract.ToolCall{{ID: "rec_1", Name: "click", Arguments: `{"ref":"` + ref + `"}`}}},
			Expect: []*contract.Target{{Role: "button", Name: "Place order"}},
		}, nil
	})
	a := mustAgent(t, br, model, agent.WithRecording(rec), agent.WithPolicy(purchases(t)),
		agent.WithHumanTimeout(5*time.Second), agent.WithIterationTimeout(30*time.Second))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "order the mug"})
	if orders.Load() != 0 {
		t.Fatal("the replayed click placed the order without a yes")
	}
	if len(res.Policy) != 1 || res.Policy[0].Allowed || !res.Steps[0].Replayed || !strings.Contains(res.Steps[0].Actions[0].Outcome, "refused by the user's policy") {
		t.Fatalf("policy %+v; first step %+v", res.Policy, res.Steps[0])
	}
}
