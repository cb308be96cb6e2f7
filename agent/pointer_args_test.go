package agent

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseWidgetTools(t *testing.T) {
	three, nine := 3, 9
	cases := []struct {
		name, args string
		want       Action
		errHas     string
	}{
		{"mouse", `{"x":10,"y":0}`, Action{Name: ActMouse, At: &Point{X: 10, Y: 0}}, ""},
		{"mouse", `{"op":"right_click","ref":"e2","anchor":"top-left","dx":4,"dy":5}`, Action{Name: ActMouse, Op: MouseRightClick, Ref: "e2", Anchor: "top-left", DX: 4, DY: 5}, ""},
		{"mouse", `{"x":10}`, Action{}, "needs both x and y"},
		{"mouse", `{}`, Action{}, "mouse needs x and y, or a ref"},
		{"mouse", `{"ref":"e2","x":1,"y":2}`, Action{}, "not both"},
		{"mouse", `{"op":"triple"}`, Action{}, `"triple" is not one of`},
		{"mouse_path", `{"points":"10,20 30,40;50,60"}`, Action{Name: ActMousePath, Path: []Point{{X: 10, Y: 20}, {X: 30, Y: 40}, {X: 50, Y: 60}}}, ""},
		{"mouse_path", `{"points":"10,20"}`, Action{}, "at least two"},
		{"mouse_path", `{"points":"10,20 x,4"}`, Action{}, `point "x,4" is not x,y`},
		{"drag", `{"x":1,"y":2,"to_x":30,"to_y":40}`, Action{Name: ActDrag, At: &Point{X: 1, Y: 2}, To: &Point{X: 30, Y: 40}}, ""},
		{"drag", `{"ref":"e1","anchor":"bottom-right","dx":5}`, Action{Name: ActDrag, Ref: "e1", Anchor: "bottom-right", DX: 5}, ""},
		{"drag", `{"x":1,"y":2}`, Action{}, "where to drop"},
		{"multi_select", `{"ref":"e1","add":["A","B"],"remove":["C"]}`, Action{Name: ActMultiSelect, Ref: "e1", Options: []string{"A", "B"}, Remove: []string{"C"}}, ""},
		{"multi_select", `{"ref":"e1"}`, Action{}, "needs options"},
		{"select_text", `{"ref":"e1","start":3,"end":9}`, Action{Name: ActSelectText, Ref: "e1", Start: &three, End: &nine}, ""},
		{"select_text", `{"ref":"e1","start":3}`, Action{}, "needs the text"},
		{"select_text", `{"text":"brown fox"}`, Action{Name: ActSelectText, Text: "brown fox"}, ""},
		{"select_text", `{"start":3,"end":9}`, Action{}, "needs the ref of the element"},
		{"set_slider", `{"ref":"e1","value":"42"}`, Action{Name: ActSetSlider, Ref: "e1", Value: "42"}, ""},
		{"wait", `{"ms":250}`, Action{Name: ActWait, MS: 250}, ""},
		{"wait", `{"ms":60000}`, Action{}, "between 1 and 30000"},
		{"wait_for", `{"ref":"e3","state":"enabled"}`, Action{Name: ActWaitFor, Ref: "e3", State: WaitEnabled}, ""},
		{"wait_for", `{"text":"x","state":"enabled"}`, Action{}, "ref only"},
	}
	for _, c := range cases {
		got, err := newToolset(false, 0, false).parse(ToolCall{Name: c.name, Arguments: c.args})
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
	c, err := newToolset(false, 0, false).parse(ToolCall{Name: "wait", Arguments: `{"ms":250}`})
	if err != nil || c.budget != 250*time.Millisecond+waitSlack {
		t.Errorf("wait budget %v, %v", c.budget, err)
	}
}
