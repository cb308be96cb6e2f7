package anthropic

import (
	"encoding/json"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
)

// Claude's computer use tool, the client toolset computer_toolset_20260801
// of the Messages API: one tools[] entry without a name declares it, the
// model calls its members (left_click, type, key, scroll, screenshot, ...)
// as tool_use blocks that carry "toolset_name": "computer", and each is
// answered by a tool_result with the same toolset_name holding a text and
// the screenshot. Coordinates are pixels of the screenshots, which are the
// browser's viewport at one pixel a CSS pixel.

// computerToolset is the toolset's name in tool_use and tool_result.
const computerToolset = "computer"

// scrollUnit is the pixels one unit of a scroll's scroll_amount turns the
// wheel by (a notch of a mouse wheel, about three lines).
const scrollUnit = 100

// computerTool is the toolset's entry in tools[].
func computerTool() sdk.ToolUnionParam {
	return sdk.ToolUnionParam{OfComputerToolset20260801: &sdk.ComputerToolset20260801Param{}}
}

// memberInput is the union of the members' inputs.
type memberInput struct {
	Coordinate      []float64 `json:"coordinate"`
	StartCoordinate []float64 `json:"start_coordinate"`
	Text            string    `json:"text"`
	Repeat          int       `json:"repeat"`
	ScrollDirection string    `json:"scroll_direction"`
	ScrollAmount    int       `json:"scroll_amount"`
	Duration        float64   `json:"duration"`
	Region          []int     `json:"region"`
}

func point(c []float64) *contract.Point {
	if len(c) != 2 {
		return nil
	}
	return &contract.Point{X: c[0], Y: c[1]}
}

// member is how the toolset's member of one name reads: the neutral kind
// it is, and what of its input fills the action besides its coordinate.
type member struct {
	kind string
	read func(in memberInput, na *contract.NativeAction)
}

// members are the toolset's members this client carries out, by name:
// adding one is adding its record.
var members = map[string]member{
	"left_click":      {contract.NativeClick, clickWith("left")},
	"right_click":     {contract.NativeClick, clickWith("right")},
	"middle_click":    {contract.NativeClick, clickWith("middle")},
	"double_click":    {kind: contract.NativeDoubleClick},
	"triple_click":    {kind: contract.NativeTripleClick},
	"mouse_move":      {kind: contract.NativeMove},
	"left_click_drag": {contract.NativeDrag, readDrag},
	"left_mouse_down": {kind: contract.NativeMouseDown},
	"left_mouse_up":   {kind: contract.NativeMouseUp},
	"scroll":          {contract.NativeScroll, readScroll},
	"type":            {contract.NativeType, func(in memberInput, na *contract.NativeAction) { na.Text = in.Text }},
	"key": {contract.NativeKey, func(in memberInput, na *contract.NativeAction) {
		na.Key, na.Repeat = llm.XdotoolKey(in.Text), in.Repeat
	}},
	"wait":            {contract.NativeWait, func(in memberInput, na *contract.NativeAction) { na.MS = int(in.Duration * 1000) }},
	"screenshot":      {kind: contract.NativeScreenshot},
	"zoom":            {contract.NativeZoom, func(in memberInput, na *contract.NativeAction) { na.Region = in.Region }},
	"cursor_position": {kind: contract.NativeCursor},
}

// clickWith reads a click of button, with the keys held in its text.
func clickWith(button string) func(memberInput, *contract.NativeAction) {
	return func(in memberInput, na *contract.NativeAction) {
		na.Button = button
		if in.Text != "" {
			na.Key = llm.XdotoolKey(in.Text)
		}
	}
}

// readDrag reads a drag from start_coordinate to coordinate: a path, no
// point of its own.
func readDrag(in memberInput, na *contract.NativeAction) {
	na.At = nil
	if from, to := point(in.StartCoordinate), point(in.Coordinate); from != nil && to != nil {
		na.Path = []contract.Point{*from, *to}
	}
}

// readScroll reads a scroll's direction and amount as pixels.
func readScroll(in memberInput, na *contract.NativeAction) {
	d := max(in.ScrollAmount, 1) * scrollUnit
	na.ScrollToward(in.ScrollDirection, d, d)
}

// computerAction reads a member's call as a neutral action. A member this
// client does not know keeps its name as the kind, which the loop refuses
// with the list of those it carries out; input that is not a JSON object
// gives an action of kind "", refused the same way.
func computerAction(name, input string) contract.NativeAction {
	na := contract.NativeAction{Vendor: name}
	var in memberInput
	if json.Unmarshal([]byte(input), &in) != nil {
		return na
	}
	na.At = point(in.Coordinate)
	m, ok := members[name]
	if !ok {
		na.Kind = name
		return na
	}
	na.Kind = m.kind
	if m.read != nil {
		m.read(in, &na)
	}
	return na
}
