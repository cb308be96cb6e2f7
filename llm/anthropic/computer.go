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
	switch name {
	case "left_click", "right_click", "middle_click":
		na.Kind, na.Button = contract.NativeClick, map[string]string{"left_click": "left", "right_click": "right", "middle_click": "middle"}[name]
		if in.Text != "" {
			na.Key = llm.XdotoolKey(in.Text)
		}
	case "double_click":
		na.Kind = contract.NativeDoubleClick
	case "triple_click":
		na.Kind = contract.NativeTripleClick
	case "mouse_move":
		na.Kind = contract.NativeMove
	case "left_click_drag":
		na.Kind, na.At = contract.NativeDrag, nil
		if from, to := point(in.StartCoordinate), point(in.Coordinate); from != nil && to != nil {
			na.Path = []contract.Point{*from, *to}
		}
	case "left_mouse_down":
		na.Kind = contract.NativeMouseDown
	case "left_mouse_up":
		na.Kind = contract.NativeMouseUp
	case "scroll":
		na.Kind = contract.NativeScroll
		d := max(in.ScrollAmount, 1) * scrollUnit
		switch in.ScrollDirection {
		case "up":
			na.ScrollY = -d
		case "down":
			na.ScrollY = d
		case "left":
			na.ScrollX = -d
		case "right":
			na.ScrollX = d
		}
	case "type":
		na.Kind, na.Text = contract.NativeType, in.Text
	case "key":
		na.Kind, na.Key, na.Repeat = contract.NativeKey, llm.XdotoolKey(in.Text), in.Repeat
	case "wait":
		na.Kind, na.MS = contract.NativeWait, int(in.Duration*1000)
	case "screenshot":
		na.Kind = contract.NativeScreenshot
	case "zoom":
		na.Kind, na.Region = contract.NativeZoom, in.Region
	case "cursor_position":
		na.Kind = contract.NativeCursor
	default:
		na.Kind = name
	}
	return na
}
