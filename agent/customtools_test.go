package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
)

// A custom tool called by the scripted model: arguments that break its
// schema are refused before it runs; a good call runs it once and its text
// reaches the model; the operator's prompt is in the system message.
func TestCustomToolCalledByModel(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	var mu sync.Mutex
	var calls []string
	price := agent.CustomTool{
		Name:        "lookup_price",
		Description: "The price of a product in our catalogue, by its SKU.",
		Parameters:  json.RawMessage(`{"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"], "additionalProperties": false}`),
		Budget:      2 * time.Second,
		Run: func(_ context.Context, args json.RawMessage) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, string(args))
			return "SKU-9 costs 12.50 EUR", nil
		},
	}
	model, srv := newModel(t, modelserver.Script(
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("lookup_price", map[string]any{"sku": 9})}},
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("lookup_price", map[string]any{"sku": "SKU-9"})}},
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "12.50 EUR"})}},
	))
	a := mustAgent(t, br, model, agent.WithTools(price), agent.WithSystemPrompt("Prices are always in EUR."))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "what does SKU-9 cost?"})
	if res.Code != agent.CodeSuccess || res.Answer != "12.50 EUR" {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 1 || calls[0] != `{"sku":"SKU-9"}` {
		t.Errorf("Run was called with %q", calls)
	}
	reqs := srv.Requests()
	if r := reqs[1].Req.LastTool(); !strings.Contains(r, "do not match its schema") {
		t.Errorf("the bad call was answered %q", r)
	}
	if r := reqs[2].Req.LastTool(); r != "SKU-9 costs 12.50 EUR" {
		t.Errorf("the model got %q", r)
	}
	var offered string
	for _, tl := range reqs[0].Req.Tools {
		if tl.Name == "lookup_price" {
			offered = string(tl.Parameters)
		}
	}
	var want bytes.Buffer
	_ = json.Compact(&want, price.Parameters)
	if offered != want.String() {
		t.Errorf("offered parameters %s", offered)
	}
	if sys := reqs[0].Req.Messages[0].Content; !strings.Contains(sys, "Instructions from the operator") || !strings.HasSuffix(sys, "Prices are always in EUR.") {
		t.Errorf("system message ends %q", sys[max(0, len(sys)-200):])
	}
}

// A custom tool that never returns, ignoring its context, is abandoned at
// its own budget; the model is told and the task goes on.
func TestCustomToolBudget(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, simplePage)
	release := make(chan struct{})
	defer close(release)
	stuck := agent.CustomTool{Name: "slow_lookup", Budget: 300 * time.Millisecond,
		Run: func(context.Context, json.RawMessage) (string, error) { <-release; return "late", nil }}
	model, srv := newModel(t, modelserver.Script(
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("slow_lookup", map[string]any{})}},
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "gave up on the lookup"})}},
	))
	a := mustAgent(t, br, model, agent.WithTools(stuck))
	start := time.Now()
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "x"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
	if r := srv.Requests()[1].Req.LastTool(); !strings.Contains(r, "OPERATION_TIMEOUT") || !strings.Contains(r, `"budget_ms":300`) {
		t.Errorf("the model was told %q", r)
	}
	if ms := res.Steps[0].Actions[0].MS; ms < 300 || ms > 3000 {
		t.Errorf("the call took %d ms, want about its 300 ms budget", ms)
	}
}

func TestCustomToolsRejected(t *testing.T) {
	t.Parallel()
	br := tab(t)
	run := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	model, _ := newModel(t, modelserver.Script())
	for _, c := range []struct {
		tool agent.CustomTool
		want string
	}{
		{agent.CustomTool{Name: "click", Run: run}, "built-in"},
		{agent.CustomTool{Name: "has space", Run: run}, "letters"},
		{agent.CustomTool{Name: "x"}, "no Run"},
		{agent.CustomTool{Name: "x", Run: run, Parameters: json.RawMessage(`{"type": "string"}`)}, `"type": "object"`},
		{agent.CustomTool{Name: "x", Run: run, Budget: time.Hour}, "below the operation timeout"},
	} {
		if _, err := agent.New(br, model, agent.WithTools(c.tool)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.tool.Name, err, c.want)
		}
	}
}
