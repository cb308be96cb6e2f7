package agent

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

func TestParseWidgetTools(t *testing.T) {
	t.Parallel()
	three, nine := 3, 9
	cases := []struct {
		name, args string
		want       contract.Action
		errHas     string
	}{
		{"mouse", `{"x":10,"y":0}`, contract.Action{Name: contract.ActMouse, At: &contract.Point{X: 10, Y: 0}}, ""},
		{"mouse", `{"op":"right_click","ref":"e2","anchor":"top-left","dx":4,"dy":5}`, contract.Action{Name: contract.ActMouse, Op: contract.MouseRightClick, Ref: "e2", Anchor: "top-left", DX: 4, DY: 5}, ""},
		{"mouse", `{"x":10}`, contract.Action{}, "needs both x and y"},
		{"mouse", `{}`, contract.Action{}, "mouse needs x and y, or a ref"},
		{"mouse", `{"ref":"e2","x":1,"y":2}`, contract.Action{}, "not both"},
		{"mouse", `{"op":"triple"}`, contract.Action{}, `"triple" is not one of`},
		{"mouse_path", `{"points":"10,20 30,40;50,60"}`, contract.Action{Name: contract.ActMousePath, Path: []contract.Point{{X: 10, Y: 20}, {X: 30, Y: 40}, {X: 50, Y: 60}}}, ""},
		{"mouse_path", `{"points":"10,20"}`, contract.Action{}, "at least two"},
		{"mouse_path", `{"points":"10,20 x,4"}`, contract.Action{}, `point "x,4" is not x,y`},
		{"drag", `{"x":1,"y":2,"to_x":30,"to_y":40}`, contract.Action{Name: contract.ActDrag, At: &contract.Point{X: 1, Y: 2}, To: &contract.Point{X: 30, Y: 40}}, ""},
		{"drag", `{"ref":"e1","anchor":"bottom-right","dx":5}`, contract.Action{Name: contract.ActDrag, Ref: "e1", Anchor: "bottom-right", DX: 5}, ""},
		{"drag", `{"x":1,"y":2}`, contract.Action{}, "where to drop"},
		{"multi_select", `{"ref":"e1","add":["A","B"],"remove":["C"]}`, contract.Action{Name: contract.ActMultiSelect, Ref: "e1", Options: []string{"A", "B"}, Remove: []string{"C"}}, ""},
		{"multi_select", `{"ref":"e1"}`, contract.Action{}, "needs options"},
		{"select_text", `{"ref":"e1","start":3,"end":9}`, contract.Action{Name: contract.ActSelectText, Ref: "e1", Start: &three, End: &nine}, ""},
		{"select_text", `{"ref":"e1","start":3}`, contract.Action{}, "needs the text"},
		{"select_text", `{"text":"brown fox"}`, contract.Action{Name: contract.ActSelectText, Text: "brown fox"}, ""},
		{"select_text", `{"start":3,"end":9}`, contract.Action{}, "needs the ref of the element"},
		{"set_slider", `{"ref":"e1","value":"42"}`, contract.Action{Name: contract.ActSetSlider, Ref: "e1", Value: "42"}, ""},
		{"wait", `{"ms":250}`, contract.Action{Name: contract.ActWait, MS: 250}, ""},
		{"wait", `{"ms":60000}`, contract.Action{}, "between 1 and 30000"},
		{"wait_for", `{"ref":"e3","state":"enabled"}`, contract.Action{Name: contract.ActWaitFor, Ref: "e3", State: contract.WaitEnabled}, ""},
		{"wait_for", `{"text":"x","state":"enabled"}`, contract.Action{}, "ref only"},
	}
	for _, c := range cases {
		got, err := newToolset(false, 0, false).parse(contract.ToolCall{Name: c.name, Arguments: c.args})
		if c.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("%s %s: err %v, want %q", c.name, c.args, err, c.errHas)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got.action, c.want) {
			t.Errorf("%s %s: got %+v, %v; want %+v", c.name, c.args, got.action, err, c.want)
		}
	}
	c, err := newToolset(false, 0, false).parse(contract.ToolCall{Name: "wait", Arguments: `{"ms":250}`})
	if err != nil || c.budget != 250*time.Millisecond+waitSlack {
		t.Errorf("wait budget %v, %v", c.budget, err)
	}
}
