package anthropic_test

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/policy"
)

// A coordinate click the user's policy refuses goes back to Claude as a
// tool_result with is_error true; a click that ran, and a call of the same
// reply not run because the refused one came first, go back without it.
func TestNativeRefusedIsError(t *testing.T) {
	t.Parallel()
	c := newCheckout(t)
	deny, err := policy.Parse("p.yaml", []byte("version: 1\nrules:\n  - when: {tool: mouse, name: \"Place order\"}\n    then: deny\n    reason: no orders\n"))
	if err != nil {
		t.Fatal(err)
	}
	srv := newMessagesServer(t, scriptedClaude(
		[]call{member("left_click", map[string]any{"coordinate": atName})},
		[]call{member("left_click", map[string]any{"coordinate": atOrder}), member("left_click", map[string]any{"coordinate": atName})},
	))
	res := runNative(t, chrome.Tab(t), srv, c, agent.WithPolicy(deny))
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if c.orders.Load() != 0 {
		t.Fatalf("%d orders", c.orders.Load())
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	got := toolResults(reqs[2].body)
	want := []struct {
		text    string
		isError bool
	}{{`textbox "Your name"`, false}, {agent.RefusedByPolicy, true}, {"not run: an earlier call in this reply failed", false}}
	if len(got) != len(want) {
		t.Fatalf("the third request's tool results: %+v", got)
	}
	for i, w := range want {
		if !strings.Contains(got[i].text, w.text) || got[i].isError != w.isError {
			t.Errorf("tool result %d: is_error %v, %q; want is_error %v and %q", i, got[i].isError, got[i].text, w.isError, w.text)
		}
	}
}

type resultBlock struct {
	text    string
	isError bool
}

// toolResults are the tool_result blocks of a request, in order: their
// text and is_error as sent (absent is false).
func toolResults(body map[string]any) []resultBlock {
	var out []resultBlock
	msgs, _ := body["messages"].([]any)
	for _, x := range msgs {
		blocks, _ := x.(map[string]any)["content"].([]any)
		for _, y := range blocks {
			blk, _ := y.(map[string]any)
			if blk["type"] != "tool_result" {
				continue
			}
			r := resultBlock{isError: blk["is_error"] == true}
			inner, _ := blk["content"].([]any)
			for _, z := range inner {
				if s, ok := z.(map[string]any)["text"].(string); ok {
					r.text += s
				}
			}
			out = append(out, r)
		}
	}
	return out
}
