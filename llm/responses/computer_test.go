package responses

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/webagent/webagent/contract"
)

// TestComputerActions reads every action type this client carries out,
// and one it does not, as the neutral action it is.
func TestComputerActions(t *testing.T) {
	at := &contract.Point{X: 10, Y: 20}
	for _, c := range []struct {
		raw  string
		want contract.NativeAction
	}{
		{`{"type":"click","x":10,"y":20,"button":"left"}`, contract.NativeAction{Kind: contract.NativeClick, At: at, Button: "left"}},
		{`{"type":"click","x":10,"y":20,"button":"wheel","keys":["CTRL"]}`, contract.NativeAction{Kind: contract.NativeClick, At: at, Button: "middle", Key: "Control"}},
		{`{"type":"double_click","x":10,"y":20}`, contract.NativeAction{Kind: contract.NativeDoubleClick, At: at}},
		{`{"type":"move","x":10,"y":20}`, contract.NativeAction{Kind: contract.NativeMove, At: at}},
		{`{"type":"drag","path":[{"x":1,"y":2},{"x":10,"y":20}]}`,
			contract.NativeAction{Kind: contract.NativeDrag, Path: []contract.Point{{X: 1, Y: 2}, {X: 10, Y: 20}}}},
		{`{"type":"scroll","x":10,"y":20,"scroll_x":-5,"scroll_y":300}`, contract.NativeAction{Kind: contract.NativeScroll, At: at, ScrollX: -5, ScrollY: 300}},
		{`{"type":"type","text":"Ada"}`, contract.NativeAction{Kind: contract.NativeType, Text: "Ada"}},
		{`{"type":"keypress","keys":["CTRL","A"]}`, contract.NativeAction{Kind: contract.NativeKey, Key: "Control+a"}},
		{`{"type":"wait"}`, contract.NativeAction{Kind: contract.NativeWait, MS: 1000}},
		{`{"type":"screenshot"}`, contract.NativeAction{Kind: contract.NativeScreenshot}},
		{`{"type":"hover","x":10}`, contract.NativeAction{Kind: "hover"}},
	} {
		var a computerAction
		if err := json.Unmarshal([]byte(c.raw), &a); err != nil {
			t.Fatal(err)
		}
		c.want.Vendor = a.Type
		if got := a.native(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.raw, got, c.want)
		}
	}
}
