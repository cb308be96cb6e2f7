package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
)

const orderPage = `<!doctype html><title>Order</title><h1>Order SO-42</h1><p>Total: 19.50 EUR</p>`

type order struct {
	Number string  `json:"number" jsonschema:"the order number as shown, e.g. SO-1"`
	Total  float64 `json:"total"`
	Note   string  `json:"note,omitempty"`
}

// A structured answer: the model's first answer breaks the schema derived
// from the struct and is refused with the reason; the second is accepted
// and decoded. The done tool offered carries the schema.
func TestSchemaAnswerRefusedThenAccepted(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, orderPage)
	model, srv := newModel(t, modelserver.Script(
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": map[string]any{"number": 42}})}},
		// The object as a string holding its JSON, as small models send it.
		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": `{"number": "SO-42", "total": 19.5}`})}},
	))
	a := mustAgent(t, br, model, agent.WithIterationTimeout(20*time.Second))
	got, res, err := agent.RunAs[order](context.Background(), a, agent.Task{URL: url, Instruction: "read the order"})
	if err != nil {
		t.Fatalf("got %s: %v", res.Code, err)
	}
	if got != (order{Number: "SO-42", Total: 19.5}) || res.Iterations != 2 {
		t.Fatalf("got %+v after %d iterations", got, res.Iterations)
	}
	reqs := srv.Requests()
	refusal := reqs[1].Req.LastTool()
	if !strings.Contains(refusal, "does not match the schema") || !strings.Contains(refusal, "number") {
		t.Errorf("the model was told %q", refusal)
	}
	var done string
	for _, tl := range reqs[0].Req.Tools {
		if tl.Name == "done" {
			done = string(tl.Parameters)
		}
	}
	if !strings.Contains(done, `"number":{"type":"string","description":"the order number as shown`) || !strings.Contains(done, `"required":["number","total"]`) {
		t.Errorf("done's parameters: %s", done)
	}
	// --json shows the object itself as "answer".
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Answer map[string]any }
	if err := json.Unmarshal(b, &out); err != nil || out.Answer["number"] != "SO-42" {
		t.Errorf("result JSON %s (%v)", b, err)
	}
}

// Refusals are bounded: after MaxAnswerRetries more, the task ends.
func TestSchemaAnswerRetriesAreBounded(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, orderPage)
	n := 0
	model, _ := newModel(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		n++
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": map[string]any{"number": n}})}}
	}))
	a := mustAgent(t, br, model)
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "read the order", AnswerSchema: json.RawMessage(`{"type":"object","properties":{"number":{"type":"string"}},"required":["number"]}`)})
	if res.Code != agent.CodeAgentFailed || res.Iterations != agent.MaxAnswerRetries+1 || !strings.Contains(res.Message, "did not match the schema") {
		t.Fatalf("got %s after %d: %s", res.Code, res.Iterations, res.Message)
	}
}

func TestCheckAnswerSchema(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		`{"type": "objekt"}`:                  `type "objekt"`,
		`[1, 2]`:                              "must be an object",
		`{"type": "object", "required": "x"}`: "not a valid JSON Schema",
		`{"type": `:                           "not JSON",
		`{"$ref": "#/nowhere"}`:               "not a valid JSON Schema",
	} {
		err := agent.CheckAnswerSchema([]byte(raw))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
	if err := agent.CheckAnswerSchema([]byte(`{"type": "array", "items": {"type": ["string", "null"]}}`)); err != nil {
		t.Error(err)
	}
}
