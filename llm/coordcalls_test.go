package llm

import (
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestCoordCalls(t *testing.T) {
	t.Parallel()
	all := map[string]bool{"mouse": true, "drag": true, "type": true, "scroll": true, "press": true, "wait": true, "done": true, "fail": true}
	cases := []struct {
		name, text string
		tools      map[string]bool
		want       []contract.ToolCall
		rest       string
	}{
		{"uitars click", "Thought: the button.\nAction: click(start_box='(120,45)')", all,
			[]contract.ToolCall{{Name: "mouse", Arguments: `{"op":"click","x":120,"y":45}`}}, "Thought: the button."},
		{"uitars box tokens", "Action: click(start_box='<|box_start|>(10,20)<|box_end|>')", all,
			[]contract.ToolCall{{Name: "mouse", Arguments: `{"op":"click","x":10,"y":20}`}}, ""},
		{"uitars box is its centre", "click(start_box='(10,20,30,40)')", all,
			[]contract.ToolCall{{Name: "mouse", Arguments: `{"op":"click","x":20,"y":30}`}}, ""},
		{"uitars point", "Action: click(point='<point>7 9</point>')", all,
			[]contract.ToolCall{{Name: "mouse", Arguments: `{"op":"click","x":7,"y":9}`}}, ""},
		{"uitars double", "Action: left_double(start_box='(1,2)')", all,
			[]contract.ToolCall{{Name: "mouse", Arguments: `{"op":"double_click","x":1,"y":2}`}}, ""},
		{"uitars right", "Action: right_single(start_box='(3,4)')", all,
			[]contract.ToolCall{{Name: "mouse", Arguments: `{"op":"right_click","x":3,"y":4}`}}, ""},
		{"uitars drag", "Action: drag(start_box='(1,2)', end_box='(30,40)')", all,
			[]contract.ToolCall{{Name: "drag", Arguments: `{"to_x":30,"to_y":40,"x":1,"y":2}`}}, ""},
		{"uitars type with enter", `Action: type(content='it\'s (done)\n')`, all,
			[]contract.ToolCall{{Name: "type", Arguments: `{"submit":true,"text":"it's (done)"}`}}, ""},
		{"uitars scroll", "Action: scroll(start_box='(5,5)', direction='down')", all,
			[]contract.ToolCall{{Name: "scroll", Arguments: `{"direction":"down"}`}}, ""},
		{"uitars hotkey", "Action: hotkey(key='ctrl a')", all,
			[]contract.ToolCall{{Name: "press", Arguments: `{"key":"Control+A"}`}}, ""},
		{"uitars enter", "Action: hotkey(key='enter')", all,
			[]contract.ToolCall{{Name: "press", Arguments: `{"key":"Enter"}`}}, ""},
		{"uitars finished", "Action: finished(content='42 items')", all,
			[]contract.ToolCall{{Name: "done", Arguments: `{"answer":"42 items"}`}}, ""},
		{"uitars wait", "Action: wait()", all,
			[]contract.ToolCall{{Name: "wait", Arguments: `{"ms":5000}`}}, ""},
		{"mouse not offered", "Action: click(start_box='(1,2)')", map[string]bool{"done": true}, nil, "Action: click(start_box='(1,2)')"},
		{"prose is not a call", "I would click(start_box='(1,2)') here", all, nil, "I would click(start_box='(1,2)') here"},
		{"no coordinates", "Action: click(start_box='here')", all, nil, "Action: click(start_box='here')"},
		{"qwen tool_call", `<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [300, 200]}}</tool_call>`, all,
			[]contract.ToolCall{{Name: "mouse", Arguments: `{"op":"click","x":300,"y":200}`}}, ""},
		{"qwen bare", `{"action":"click","coordinate":[5,6]}`, all,
			[]contract.ToolCall{{Name: "mouse", Arguments: `{"op":"click","x":5,"y":6}`}}, ""},
		{"qwen key", `<tool_call>{"name":"computer_use","arguments":{"action":"key","keys":["ctrl","l"]}}</tool_call>`, all,
			[]contract.ToolCall{{Name: "press", Arguments: `{"key":"Control+L"}`}}, ""},
		{"qwen type", `<tool_call>{"name":"computer_use","arguments":{"action":"type","text":"hello"}}</tool_call>`, all,
			[]contract.ToolCall{{Name: "type", Arguments: `{"text":"hello"}`}}, ""},
		{"qwen scroll", `<tool_call>{"name":"computer_use","arguments":{"action":"scroll","pixels":-300}}</tool_call>`, all,
			[]contract.ToolCall{{Name: "scroll", Arguments: `{"direction":"down"}`}}, ""},
		{"qwen terminate", `<tool_call>{"name":"computer_use","arguments":{"action":"terminate","status":"failure"}}</tool_call>`, all,
			[]contract.ToolCall{{Name: "fail", Arguments: `{"reason":"the model gave up (terminate: failure)"}`}}, ""},
		{"qwen unknown action", `<tool_call>{"name":"computer_use","arguments":{"action":"zoom"}}</tool_call>`, all, nil,
			`<tool_call>{"name":"computer_use","arguments":{"action":"zoom"}}</tool_call>`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, rest := coordCalls(c.text, c.tools)
			if len(got) != len(c.want) {
				t.Fatalf("calls %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i].Name != c.want[i].Name || got[i].Arguments != c.want[i].Arguments {
					t.Errorf("call %d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
			if rest != c.rest {
				t.Errorf("rest %q, want %q", rest, c.rest)
			}
		})
	}
}
