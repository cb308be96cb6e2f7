package fleet

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
)

// An outcome's JSON is run --json's with attempts and worker, and reads
// back whole, a structured answer included.
func TestOutcomeJSON(t *testing.T) {
	t.Parallel()
	in := Outcome{Result: &agent.Result{
		Status: agent.StatusSuccess, Code: agent.CodeSuccess, Answer: `{"n":3}`, Object: json.RawMessage(`{"n":3}`),
		Iterations: 2, Steps: []agent.Step{},
	}, Attempts: 2, Worker: "w1"}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"answer":{"n":3}`, `"attempts":2`, `"worker":"w1"`, `"code":"SUCCESS"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %s", data, want)
		}
	}
	var out Outcome
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if out.Attempts != 2 || out.Worker != "w1" || out.Code != agent.CodeSuccess || string(out.Object) != `{"n":3}` || out.Iterations != 2 {
		t.Errorf("read back %+v %+v", out, *out.Result)
	}
}

// The same episodes give the same eval id (an eval started again resumes);
// other limits give another.
func TestEvalID(t *testing.T) {
	t.Parallel()
	eps := []Episode{{Suite: "shop", ID: "a"}, {Suite: "wiki", ID: "b"}}
	if EvalID(eps) != EvalID([]Episode{{Suite: "shop", ID: "a"}, {Suite: "wiki", ID: "b"}}) {
		t.Error("the same episodes gave two ids")
	}
	eps2 := []Episode{{Suite: "shop", ID: "a", Limits: agent.Limits{MaxIterations: 3}}, {Suite: "wiki", ID: "b"}}
	if EvalID(eps) == EvalID(eps2) {
		t.Error("other limits gave the same id")
	}
	if got := EpisodeWorkflowID("e1", Episode{Suite: "shop", ID: "buy lamp/2"}, 1); got != "webagent-eval-e1-shop-buy_lamp_2-1" {
		t.Errorf("workflow id %q", got)
	}
}
