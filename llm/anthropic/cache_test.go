package anthropic_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// The request carries four cache_control breakpoints: the last tool, the
// system prompt, the task (the end of what never changes in a run) and
// the last block (the conversation only grows while the page stays, so the
// next request reads it back); and a thinking block is never one.
func TestCacheBreakpoints(t *testing.T) {
	t.Parallel()
	srv := newMessagesServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any, _ int) {
		streamReply(w, "The button is e3.", "Clicking.", []call{{"click", `{"ref":"e3"}`}})
	})
	c := newClient(t, srv.URL, nil)
	req := contract.Request{Tools: []contract.ToolDef{clickTool}, Messages: []contract.Message{
		{Role: contract.RoleSystem, Content: "You drive a browser."},
		{Role: contract.RoleUser, Content: "Task: press the button."},
		{Role: contract.RoleUser, Content: "Observation 1: a page."},
	}}
	reply, err := c.Complete(ctxFor(t, 10*time.Second), req)
	if err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages,
		contract.Message{Role: contract.RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls},
		contract.Message{Role: contract.RoleTool, ToolCallID: reply.ToolCalls[0].ID, Content: "clicked"},
		contract.Message{Role: contract.RoleUser, Content: "Observation 2: what changed."})
	if _, err := c.Complete(ctxFor(t, 10*time.Second), req); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		raw, _ := json.Marshal(r.body)
		body := string(raw)
		if n := strings.Count(body, `"cache_control"`); n != 4 {
			t.Errorf("request %d has %d breakpoints, want 4: %s", i+1, n, body)
		}
		msgs, _ := r.body["messages"].([]any)
		first, _ := json.Marshal(msgs[0])
		if !strings.Contains(string(first), `{"cache_control":{"type":"ephemeral"},"text":"Task: press the button.","type":"text"}`) {
			t.Errorf("request %d: the task is not a breakpoint: %s", i+1, first)
		}
		last, _ := json.Marshal(msgs[len(msgs)-1])
		want := `{"cache_control":{"type":"ephemeral"},"text":"Observation ` + string(rune('1'+i))
		if !strings.Contains(string(last), want) {
			t.Errorf("request %d: the last block is not a breakpoint: %s", i+1, last)
		}
		if i == 1 && strings.Contains(string(mustJSON(msgs[1])), "cache_control") {
			t.Errorf("the assistant turn holds a breakpoint: %s", mustJSON(msgs[1]))
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
