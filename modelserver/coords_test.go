package modelserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webagent/webagent/internal/outline"
)

// TestCoordinateDialects: calls by ref become gestures at the points of
// the latest observation's in-view line, in each dialect; a call whose
// ref is not on the screen is left as it is.
func TestCoordinateDialects(t *testing.T) {
	line := outline.InViewLine(800, 600, []outline.Spot{{Ref: "e1", X: 10, Y: 20}, {Ref: "e2", X: 30, Y: 40}, {Ref: "e3", Covered: true}})
	req := &ChatRequest{Messages: []Message{{Role: "user", Content: "Observation, step 1.\nSnapshot:\nx\n\n" + line}}}
	calls := []Call{
		ToolCall("type", map[string]any{"ref": "e1", "text": "Ann", "submit": true}),
		ToolCall("select", map[string]any{"ref": "e2", "option": "Two"}),
		ToolCall("scroll", map[string]any{"direction": "down"}),
	}
	var names []string
	for _, c := range computerMembers(calls, req) {
		names = append(names, c.Name+c.Args)
	}
	want := `computer:left_click{"coordinate":[10,20]} computer:key{"text":"ctrl+a"} computer:type{"text":"Ann"} computer:key{"text":"Return"} ` +
		`computer:left_click{"coordinate":[30,40]} computer:type{"text":"Two"} computer:key{"text":"Return"} ` +
		`computer:scroll{"coordinate":[400,300],"scroll_amount":5,"scroll_direction":"down"}`
	if got := strings.Join(names, " "); got != want {
		t.Errorf("Claude's members:\n got %s\nwant %s", got, want)
	}
	actions, rest := computerActions(append(calls, ToolCall("done", map[string]any{"answer": "ok"})), req)
	b, _ := json.Marshal(actions)
	if !strings.Contains(string(b), `{"button":"left","type":"click","x":10,"y":20},{"keys":["CTRL","A"],"type":"keypress"}`) ||
		!strings.Contains(string(b), `{"scroll_x":0,"scroll_y":500,"type":"scroll","x":400,"y":300}`) || len(rest) != 1 || rest[0].Name != "done" {
		t.Errorf("OpenAI's actions %s, rest %v", b, rest)
	}
	ui, ok := uitarsText(Turn{Text: "Reference turn 1", ToolCalls: calls[:1]}, req)
	if !ok || len(ui.ToolCalls) != 0 || ui.Text != "Reference turn 1\nAction: click(start_box='(10,20)')\nAction: hotkey(key='control a')\nAction: type(content='Ann')\nAction: hotkey(key='enter')" {
		t.Errorf("UI-TARS: %v %q", ok, ui.Text)
	}
	covered := []Call{ToolCall("click", map[string]any{"ref": "e3"})}
	if got := computerMembers(covered, req); len(got) != 1 || got[0].Name != "click" {
		t.Errorf("a covered ref: %v, want the call as it is", got)
	}
	if _, ok := uitarsText(Turn{ToolCalls: covered}, req); ok {
		t.Error("a covered ref was written as a text action")
	}
}

// TestGeminiActions: calls by ref become Gemini's computer use functions
// on its 1000 by 1000 grid, the screen's size read off the in-view line
// when the request holds no screenshot yet.
func TestGeminiActions(t *testing.T) {
	line := outline.InViewLine(800, 600, []outline.Spot{{Ref: "e1", X: 400, Y: 150}, {Ref: "e2", X: 80, Y: 600}, {Ref: "e3", Covered: true}})
	req := &ChatRequest{Messages: []Message{{Role: "user", Content: "Observation, step 1.\nSnapshot:\nx\n\n" + line}}}
	calls := []Call{
		ToolCall("click", map[string]any{"ref": "e1"}),
		ToolCall("type", map[string]any{"ref": "e2", "text": "Ann", "submit": true}),
		ToolCall("select", map[string]any{"ref": "e1", "option": "Two"}),
		ToolCall("press", map[string]any{"key": "Enter"}),
		ToolCall("click", map[string]any{"ref": "e9"}),
		ToolCall("click", map[string]any{"ref": "e3"}),
		ToolCall("scroll", map[string]any{"direction": "down"}),
		ToolCall("done", map[string]any{"answer": "ok"}),
	}
	var got []string
	for _, c := range geminiActions(calls, req) {
		got = append(got, c.Name+c.Args)
	}
	want := `click_at{"x":500,"y":250} type_text_at{"clear_before_typing":true,"press_enter":true,"text":"Ann","x":100,"y":999} ` +
		`type_text_at{"clear_before_typing":false,"press_enter":true,"text":"Two","x":500,"y":250} key_combination{"keys":"Return"} click{"ref":"e9"} ` +
		`click{"ref":"e3"} scroll_document{"direction":"down"} done{"answer":"ok"}`
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
	// Without a screen's size no point can go on the grid: the calls at a
	// ref go as they are, the others still as functions.
	got = nil
	for _, c := range geminiActions(calls[:4], &ChatRequest{Messages: []Message{{Role: "user",
		Content: "Observation, step 1.\nSnapshot:\nx\n\n" + outline.InViewLine(0, 0, []outline.Spot{{Ref: "e1", X: 400, Y: 150}, {Ref: "e2", X: 80, Y: 600}})}}}) {
		got = append(got, c.Name+c.Args)
	}
	want = `click{"ref":"e1"} type{"ref":"e2","submit":true,"text":"Ann"} select{"option":"Two","ref":"e1"} key_combination{"keys":"Return"}`
	if g := strings.Join(got, " "); g != want {
		t.Errorf("without a screen:\n got %s\nwant %s", g, want)
	}
}
