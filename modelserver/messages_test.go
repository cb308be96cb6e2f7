package modelserver

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestMessagesBrowserToolset posts a Messages API request declaring
// Claude's browser toolset and reads the stream: the responder sees the
// conversation as chat messages (the tool result, then each text block a
// user message) with the tools the toolset expresses, and its calls come
// back as the toolset's members, by ref, in the documented event order.
func TestMessagesBrowserToolset(t *testing.T) {
	var seen *ChatRequest
	srv, err := Start(ResponderFunc(func(req *ChatRequest) Turn {
		seen = req
		return Turn{Text: "next", ToolCalls: []Call{
			ToolCall("type", map[string]any{"ref": "e3", "text": "lamp", "submit": true}),
			ToolCall("press", map[string]any{"key": "ArrowRight"}),
			ToolCall("done", map[string]any{"answer": "ok"}),
		}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	body := `{"model":"m","max_tokens":100,"stream":true,"system":[{"type":"text","text":"sys"}],
	"tools":[{"type":"browser_toolset_20260801"},{"name":"done","input_schema":{"type":"object"}}],
	"messages":[{"role":"user","content":"Task"},
	 {"role":"assistant","content":[{"type":"text","text":"go"},{"type":"tool_use","id":"t1","name":"navigate","toolset_name":"browser","input":{"url":"x"}}]},
	 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","toolset_name":"browser","content":[{"type":"text","text":"error: no"}]},
	  {"type":"text","text":"Note"},{"type":"text","text":"Observation 2"}]}]}`
	resp, err := http.Post(strings.TrimSuffix(srv.BaseURL(), "/v1")+"/v1/messages", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, ct)
	}
	var events []string
	var calls []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if ev, ok := strings.CutPrefix(line, "event: "); ok {
			events = append(events, ev)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var d struct {
				ContentBlock struct {
					Type, Name  string
					ToolsetName string `json:"toolset_name"`
				} `json:"content_block"`
				Delta struct {
					PartialJSON string `json:"partial_json"`
				} `json:"delta"`
			}
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatalf("data %q: %v", data, err)
			}
			if cb := d.ContentBlock; cb.Type == "tool_use" {
				calls = append(calls, cb.ToolsetName+":"+cb.Name+" ")
			}
			if len(calls) > 0 && d.Delta.PartialJSON != "" {
				calls[len(calls)-1] += d.Delta.PartialJSON
			}
		}
	}
	if got := strings.Join(events, ","); !strings.HasPrefix(got, "message_start,content_block_start,content_block_delta") ||
		!strings.HasSuffix(got, "content_block_stop,message_delta,message_stop") {
		t.Errorf("events %s", got)
	}
	want := []string{
		`browser:form_input {"target":{"ref":"e3","type":"ref"},"value":"lamp"}`,
		`browser:key {"text":"Return"}`,
		`browser:key {"text":"Right"}`,
		`:done {"answer":"ok"}`,
	}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls\n%s\nwant\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	roles := []string{}
	for _, m := range seen.Messages {
		roles = append(roles, m.Role+":"+m.Content)
	}
	if got := strings.Join(roles, "|"); got != "system:sys|user:Task|assistant:go|tool:error: no|user:Note|user:Observation 2" {
		t.Errorf("messages %s", got)
	}
	if seen.Toolset != ToolsetBrowser || !strings.Contains(strings.Join(seen.ToolNames(), ","), "click,type,select,press,scroll,goto,back,done") {
		t.Errorf("toolset %q, tools %v", seen.Toolset, seen.ToolNames())
	}
}
