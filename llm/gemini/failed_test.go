package gemini_test

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/policy"
)

// A coordinate click the user's policy refuses goes back to Gemini as a
// functionResponse whose response holds "error", the API's key for a call
// that failed, and no "output"; a click that ran, and a call of the same
// reply not run because the refused one came first, hold "output".
func TestComputerRefusedIsError(t *testing.T) {
	t.Parallel()
	b := chrome.Tab(t)
	url, orders := shop(t)
	deny, err := policy.Parse("p.yaml", []byte("version: 1\nrules:\n  - when: {tool: mouse, name: \"Place order\"}\n    then: deny\n    reason: no orders\n"))
	if err != nil {
		t.Fatal(err)
	}
	nx, ny := onGrid(b, 200, 215)
	ox, oy := onGrid(b, 200, 125)
	script := [][]call{
		{{name: "click_at", args: map[string]any{"x": nx, "y": ny}}},
		{{name: "click_at", args: map[string]any{"x": ox, "y": oy}}, {name: "hover_at", args: map[string]any{"x": nx, "y": ny}}},
		{{name: "done", args: map[string]any{"answer": "stopped"}}},
	}
	srv := startAPI(t, func(_ *apiRequest, n int) turn { return turn{chunks: reply{calls: script[min(n, 2)]}.chunks()} })
	res := runComputer(t, b, srv, url, agent.WithPolicy(deny))
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
	frs := reqs[2].partsOf("functionResponse")
	want := []struct{ key, text string }{
		{"output", `textbox "Your name"`}, {"error", agent.RefusedByPolicy}, {"output", "not run: an earlier call in this reply failed"},
	}
	if len(frs) != len(want) {
		t.Fatalf("the third request's function responses: %s", jsonOf(frs))
	}
	for i, w := range want {
		resp := frs[i]["functionResponse"].(map[string]any)["response"].(map[string]any)
		other := map[string]string{"output": "error", "error": "output"}[w.key]
		text, _ := resp[w.key].(string)
		if _, both := resp[other]; both || !strings.Contains(text, w.text) {
			t.Errorf("function response %d: %s; want %q holding %q and no %q", i, jsonOf(resp), w.key, w.text, other)
		}
	}
}
