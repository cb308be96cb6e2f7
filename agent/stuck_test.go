package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
)

// Three identical clicks in one reply, each raising a counter, are
// progress: the page is compared before each action, not once per reply.
func TestIdenticalClicksThatChangeThePageAreNotStuck(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, `<!doctype html><title>Counter</title>
<p id="c">Count: 0</p><button onclick="const c=document.getElementById('c'); c.textContent='Count: '+(+c.textContent.slice(7)+1)">Add one</button>`)
	model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		if strings.Contains(obs, "Count: 3") {
			return done("3")
		}
		ref, _ := modelserver.FindRef(obs, "button", "Add one")
		c := modelserver.ToolCall("click", map[string]any{"ref": ref})
		return modelserver.Turn{ToolCalls: []modelserver.Call{c, c, c}}
	}))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "raise the count to 3"})
	if res.Code != agent.CodeSuccess || res.Iterations != 2 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
	for _, a := range res.Steps[0].Actions {
		if a.Error || strings.Contains(a.Outcome, "warning") {
			t.Errorf("click: %+v", a)
		}
	}
}

// A toggle clicked back and forth (A, B, A, B, ...) changes the page at
// every click but makes no progress: it is still caught.
func TestOscillationIsStuck(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, `<!doctype html><title>Toggle</title>
<p id="s">Closed</p><button onclick="const s=document.getElementById('s'); s.textContent = s.textContent === 'Closed' ? 'Open' : 'Closed'">Toggle</button>`)
	model, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		ref, _ := modelserver.FindRef(req.LastUser(), "button", "Toggle")
		c := modelserver.ToolCall("click", map[string]any{"ref": ref})
		return modelserver.Turn{ToolCalls: []modelserver.Call{c, c}}
	}))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeAgentStuck || res.Iterations > 4 {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
	warned := false
	for _, r := range srv.Requests() {
		for _, m := range r.Req.Messages {
			warned = warned || strings.Contains(m.Content, "warning: you did exactly this")
		}
	}
	if !warned {
		t.Errorf("no warning before the end")
	}
}
