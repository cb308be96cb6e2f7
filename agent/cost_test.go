package agent_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/price"
)

// TestMaxCost: each reply costs $0.208 at gpt-4.1's price (100,000 prompt
// tokens at $2 and 1,000 completion tokens at $8 per million); with a
// limit of $0.50 the third reply passes it ($0.624): the task ends
// COST_LIMIT at iteration 3 and that reply's goto never reaches the site.
func TestMaxCost(t *testing.T) {
	t.Parallel()
	br := tab(t)
	var visits atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			visits.Add(1)
		}
		fmt.Fprint(w, "<!doctype html><title>p</title><p>page "+r.URL.RawQuery+"</p>")
	}))
	defer site.Close()
	n := 0
	model, _ := newModel(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		n++
		return modelserver.Turn{
			ToolCalls: []modelserver.Call{modelserver.ToolCall("goto", map[string]any{"url": fmt.Sprintf("%s/?page=%d", site.URL, n)})},
			Usage:     &modelserver.Usage{PromptTokens: 100_000, CompletionTokens: 1_000},
		}
	}))
	gpt41, _ := price.Default().Lookup("gpt-4.1")
	a := mustAgent(t, br, model, agent.WithMaxCost(0.50, gpt41.Cost))
	res := a.Run(context.Background(), agent.Task{URL: site.URL + "/", Instruction: "x"})
	if res.Code != agent.CodeCostLimit || res.Iterations != 3 || !strings.Contains(res.Message, "$0.6240") || !strings.Contains(res.Message, "$0.5000") {
		t.Fatalf("got %s after %d iterations: %s", res.Code, res.Iterations, res.Message)
	}
	if got := visits.Load(); got != 3 { // the start page and two gotos
		t.Errorf("the site saw %d requests, want 3", got)
	}
	last := res.Steps[len(res.Steps)-1]
	if len(last.Actions) != 1 || !last.Actions[0].Skipped || !strings.Contains(last.Actions[0].Outcome, "not run") {
		t.Errorf("last step: %+v", last)
	}
	if res.Usage.PromptTokens != 300_000 {
		t.Errorf("usage %+v", res.Usage)
	}
	if _, err := agent.New(br, model, agent.WithMaxCost(1, nil)); err == nil {
		t.Error("a cost limit without a cost function was accepted")
	}
}
