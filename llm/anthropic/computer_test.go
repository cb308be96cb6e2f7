package anthropic

import (
	"reflect"
	"testing"

	"github.com/webagent/webagent/contract"
)

// TestComputerMembers reads every member of the toolset this client
// carries out, and one it does not, as the neutral action it is.
func TestComputerMembers(t *testing.T) {
	at := &contract.Point{X: 10, Y: 20}
	for _, c := range []struct {
		name, input string
		want        contract.NativeAction
	}{
		{"left_click", `{"coordinate":[10,20]}`, contract.NativeAction{Kind: contract.NativeClick, At: at, Button: "left"}},
		{"right_click", `{"coordinate":[10,20],"text":"ctrl"}`, contract.NativeAction{Kind: contract.NativeClick, At: at, Button: "right", Key: "Control"}},
		{"middle_click", `{"coordinate":[10,20]}`, contract.NativeAction{Kind: contract.NativeClick, At: at, Button: "middle"}},
		{"double_click", `{"coordinate":[10,20]}`, contract.NativeAction{Kind: contract.NativeDoubleClick, At: at}},
		{"triple_click", `{"coordinate":[10,20]}`, contract.NativeAction{Kind: contract.NativeTripleClick, At: at}},
		{"mouse_move", `{"coordinate":[10,20]}`, contract.NativeAction{Kind: contract.NativeMove, At: at}},
		{"left_click_drag", `{"start_coordinate":[1,2],"coordinate":[10,20]}`,
			contract.NativeAction{Kind: contract.NativeDrag, Path: []contract.Point{{X: 1, Y: 2}, {X: 10, Y: 20}}}},
		{"left_click_drag", `{"coordinate":[10,20]}`, contract.NativeAction{Kind: contract.NativeDrag}},
		{"left_mouse_down", `{}`, contract.NativeAction{Kind: contract.NativeMouseDown}},
		{"left_mouse_up", `{}`, contract.NativeAction{Kind: contract.NativeMouseUp}},
		{"scroll", `{"scroll_direction":"up","scroll_amount":3}`, contract.NativeAction{Kind: contract.NativeScroll, ScrollY: -300}},
		{"scroll", `{"scroll_direction":"down"}`, contract.NativeAction{Kind: contract.NativeScroll, ScrollY: 100}},
		{"scroll", `{"scroll_direction":"left","scroll_amount":2}`, contract.NativeAction{Kind: contract.NativeScroll, ScrollX: -200}},
		{"scroll", `{"scroll_direction":"right","scroll_amount":1}`, contract.NativeAction{Kind: contract.NativeScroll, ScrollX: 100}},
		{"type", `{"text":"Ada"}`, contract.NativeAction{Kind: contract.NativeType, Text: "Ada"}},
		{"key", `{"text":"ctrl+a","repeat":2}`, contract.NativeAction{Kind: contract.NativeKey, Key: "Control+a", Repeat: 2}},
		{"wait", `{"duration":1.5}`, contract.NativeAction{Kind: contract.NativeWait, MS: 1500}},
		{"screenshot", `{}`, contract.NativeAction{Kind: contract.NativeScreenshot}},
		{"zoom", `{"region":[0,0,100,50]}`, contract.NativeAction{Kind: contract.NativeZoom, Region: []int{0, 0, 100, 50}}},
		{"cursor_position", `{}`, contract.NativeAction{Kind: contract.NativeCursor}},
		{"hold_key", `{"coordinate":[10,20]}`, contract.NativeAction{Kind: "hold_key", At: at}},
		{"left_click", `[1]`, contract.NativeAction{}},
	} {
		c.want.Vendor = c.name
		if got := computerAction(c.name, c.input); !reflect.DeepEqual(got, c.want) {
			t.Errorf("computerAction(%s, %s) = %+v, want %+v", c.name, c.input, got, c.want)
		}
	}
}
