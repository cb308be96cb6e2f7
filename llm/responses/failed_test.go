package responses_test

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/policy"
)

// A computer_call_output has no field for a failed call: a computer call
// the user's policy refuses is told in the user message after its output,
// "The computer call ID failed: ...", where a call that ran reads "... did:
// ...".
func TestComputerRefusedIsError(t *testing.T) {
	t.Parallel()
	url, orders := shop(t)
	deny, err := policy.Parse("p.yaml", []byte("version: 1\nrules:\n  - when: {tool: mouse, name: \"Place order\"}\n    then: deny\n    reason: no orders\n"))
	if err != nil {
		t.Fatal(err)
	}
	script := []reply{
		{computer: &computerCall{actions: []map[string]any{click(200, 215)}}},
		{computer: &computerCall{actions: []map[string]any{click(200, 125), click(200, 215)}}},
		{calls: []call{{"done", `{"answer":"stopped"}`}}},
	}
	srv := startAPI(t, func(_ *apiRequest, n int) turn { return turn{events: script[min(n, 2)].events(n)} })
	res := runComputer(t, srv, url, agent.WithPolicy(deny))
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if orders.Load() != 0 {
		t.Fatalf("%d orders", orders.Load())
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if outs := reqs[2].inputOf("computer_call_output"); len(outs) != 2 {
		t.Fatalf("the third request's computer_call_output items: %v", outs)
	}
	var said []string
	for _, m := range reqs[2].inputOf("message") {
		if c, ok := m["content"].(string); ok && strings.HasPrefix(c, "The computer call ") {
			said = append(said, c)
		}
	}
	want := [][]string{
		{"The computer call call_cu_0 did: ", `textbox "Your name"`},
		{"The computer call call_cu_1 failed: ", agent.RefusedByPolicy, "the 1 later action(s) of this call were not run: it failed"},
	}
	if len(said) != len(want) {
		t.Fatalf("the messages after the outputs: %q", said)
	}
	for i, w := range want {
		for _, s := range w {
			if !strings.Contains(said[i], s) {
				t.Errorf("message %d lacks %q: %q", i, s, said[i])
			}
		}
	}
}
