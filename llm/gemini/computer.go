package gemini

import (
	"fmt"
	"math"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
)

// Gemini's computer use: the tool {"computerUse": {"environment":
// "ENVIRONMENT_BROWSER"}} gives the model predefined functions (click_at,
// type_text_at, scroll_document, navigate, ...) whose coordinates are on
// a 1000 by 1000 grid over the screenshot, whatever its size. Each call
// is read as contract.NativeActions in the display's pixels
// (Request.Native's Width and Height); one that needs several
// (type_text_at: click, clear, type, Enter) is a batch the loop runs in
// order. A safety_decision of require_confirmation in its arguments is a
// contract.SafetyCheck the loop asks a person about; an allowed one goes
// back as safety_acknowledgement "true" in the functionResponse, which
// also carries the page's url and the screenshot.

// computerToolset is the Toolset of a computer use call.
const computerToolset = "computer"

// searchPage is where search (the predefined function: "go to a search
// engine's home page") goes.
const searchPage = "https://www.google.com/"

// ComputerFunctions are the computer use tool's predefined functions this
// client reads.
var ComputerFunctions = []string{"open_web_browser", "wait_5_seconds", "go_back", "go_forward", "search", "navigate",
	"click_at", "hover_at", "type_text_at", "key_combination", "scroll_document", "scroll_at", "drag_and_drop"}

// computerCall makes tc, a call of a predefined function, a native call:
// its actions, and its safety decision as a check.
func computerCall(tc *contract.ToolCall, name string, args map[string]any, n *contract.NativeTool) {
	tc.Toolset = computerToolset
	g := grid{args: args, w: n.Width, h: n.Height}
	acts := g.actions(name)
	for i := range acts {
		acts[i].Vendor = name
	}
	tc.Native = acts
	if sd, ok := args["safety_decision"].(map[string]any); ok && fmt.Sprint(sd["decision"]) == "require_confirmation" {
		msg, _ := sd["explanation"].(string)
		tc.SafetyChecks = []contract.SafetyCheck{{ID: tc.ID, Code: "require_confirmation", Message: msg}}
	}
}

// grid reads a call's arguments, its coordinates in the display's pixels.
type grid struct {
	args map[string]any
	w, h int
}

// num is a number argument, def when absent.
func (g grid) num(key string, def float64) float64 {
	if v, ok := g.args[key].(float64); ok {
		return v
	}
	return def
}

// flag is a boolean argument, def when absent.
func (g grid) flag(key string, def bool) bool {
	if v, ok := g.args[key].(bool); ok {
		return v
	}
	return def
}

// scale is a 0-999 grid value in pixels of a side of size.
func scale(v float64, size int) float64 {
	px := math.Round(v / 1000 * float64(size))
	return max(0, min(px, float64(size-1)))
}

// point is the point of two grid arguments.
func (g grid) point(xk, yk string) *contract.Point {
	return &contract.Point{X: scale(g.num(xk, 0), g.w), Y: scale(g.num(yk, 0), g.h)}
}

// actions are the native actions of a predefined function; a name it does
// not know stays as it is, which the loop refuses with the list.
func (g grid) actions(name string) []contract.NativeAction {
	switch name {
	case "click_at":
		return []contract.NativeAction{{Kind: contract.NativeClick, At: g.point("x", "y")}}
	case "hover_at":
		return []contract.NativeAction{{Kind: contract.NativeMove, At: g.point("x", "y")}}
	case "type_text_at":
		return g.typeAt()
	case "key_combination":
		keys, _ := g.args["keys"].(string)
		return []contract.NativeAction{{Kind: contract.NativeKey, Key: llm.XdotoolKey(keys)}}
	case "scroll_document":
		return []contract.NativeAction{g.scroll(&contract.Point{X: float64(g.w / 2), Y: float64(g.h / 2)}, 1000)}
	case "scroll_at":
		return []contract.NativeAction{g.scroll(g.point("x", "y"), g.num("magnitude", 800))}
	case "drag_and_drop":
		return []contract.NativeAction{{Kind: contract.NativeDrag,
			Path: []contract.Point{*g.point("x", "y"), *g.point("destination_x", "destination_y")}}}
	case "navigate":
		u, _ := g.args["url"].(string)
		return []contract.NativeAction{{Kind: contract.NativeNavigate, URL: u}}
	case "go_back":
		return []contract.NativeAction{{Kind: contract.NativeNavigate, URL: "back"}}
	case "go_forward":
		return []contract.NativeAction{{Kind: contract.NativeNavigate, URL: "forward"}}
	case "search":
		return []contract.NativeAction{{Kind: contract.NativeNavigate, URL: searchPage}}
	case "wait_5_seconds":
		return []contract.NativeAction{{Kind: contract.NativeWait, MS: 5000}}
	case "open_web_browser": // the browser is open: its screen is the answer
		return []contract.NativeAction{{Kind: contract.NativeScreenshot}}
	}
	return []contract.NativeAction{{Kind: name}}
}

// typeAt is type_text_at: a click at the point, the field cleared
// (clear_before_typing, true by default), the text typed, Enter pressed
// (press_enter, true by default).
func (g grid) typeAt() []contract.NativeAction {
	text, _ := g.args["text"].(string)
	acts := []contract.NativeAction{{Kind: contract.NativeClick, At: g.point("x", "y")}}
	if g.flag("clear_before_typing", true) {
		acts = append(acts, contract.NativeAction{Kind: contract.NativeKey, Key: "Control+a"},
			contract.NativeAction{Kind: contract.NativeKey, Key: "Delete"})
	}
	acts = append(acts, contract.NativeAction{Kind: contract.NativeType, Text: text})
	if g.flag("press_enter", true) {
		acts = append(acts, contract.NativeAction{Kind: contract.NativeKey, Key: "Enter"})
	}
	return acts
}

// scroll is a scroll at a point by magnitude (0-999 of the display's side
// in the direction) towards direction.
func (g grid) scroll(at *contract.Point, magnitude float64) contract.NativeAction {
	dir, _ := g.args["direction"].(string)
	a := contract.NativeAction{Kind: contract.NativeScroll, At: at}
	dy := int(math.Round(magnitude / 1000 * float64(g.h)))
	dx := int(math.Round(magnitude / 1000 * float64(g.w)))
	a.ScrollToward(dir, dx, dy)
	return a
}
