package llm

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Open-weight vision models answer in their own coordinate dialects, as
// text: UI-TARS writes "Action: click(start_box='(x,y)')", Qwen-VL a
// <tool_call> of its computer_use tool, {"action": "left_click",
// "coordinate": [x, y]}. coordCalls reads them as calls of webagent's
// tools (mouse at x, y; press; scroll; drag; type; wait; done; fail), and
// only as tools that were offered.
//
// Coordinates are read as pixels of the screenshot the model was shown,
// which webagent takes at the viewport's CSS pixels: what UI-TARS-1.5 and
// Qwen2.5-VL answer in (absolute pixels of the image). A box (x1,y1,x2,y2)
// is read as its centre. Models that answer in a 0-1000 space (UI-TARS
// 1.0, Qwen3-VL) are not scaled.

// uitarsRe finds one UI-TARS action at the start of a line or after
// "Action:": a name and its argument list, the arguments' quoted values
// matched whole so that a ')' inside one does not end the call. Prose
// naming a function mid-sentence is not a call.
var (
	uitarsRe    = regexp.MustCompile(`(?m)(?:^|Action:)[ \t]*(click|left_single|left_double|double_click|right_single|right_click|hover|drag|left_drag|type|scroll|hotkey|press|wait|finished|call_user)\(((?:[^()'"]|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")*)\)`)
	uitarsArgRe = regexp.MustCompile(`(\w+)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")`)
	numRe       = regexp.MustCompile(`-?\d+(?:\.\d+)?`)
)

// coordCalls returns the calls of a coordinate dialect written in text,
// and the text without them; no calls when none maps to an offered tool.
func coordCalls(text string, tools map[string]bool) ([]contract.ToolCall, string) {
	if calls, rest := qwenCalls(text, tools); len(calls) > 0 {
		return calls, rest
	}
	return uitarsCalls(text, tools)
}

func uitarsCalls(text string, tools map[string]bool) ([]contract.ToolCall, string) {
	var calls []contract.ToolCall
	rest := uitarsRe.ReplaceAllStringFunc(text, func(m string) string {
		sub := uitarsRe.FindStringSubmatch(m)
		args := map[string]string{}
		for _, a := range uitarsArgRe.FindAllStringSubmatch(sub[2], -1) {
			args[a[1]] = unescape(a[2] + a[3])
		}
		c, ok := uitarsCall(sub[1], args)
		if !ok || !tools[c.Name] {
			return m
		}
		calls = append(calls, c)
		return ""
	})
	if len(calls) == 0 {
		return nil, text
	}
	return calls, strings.TrimSpace(rest)
}

// uitarsCall maps one UI-TARS action to a call.
func uitarsCall(name string, args map[string]string) (contract.ToolCall, bool) {
	at := func(keys ...string) (int, int, bool) {
		for _, k := range keys {
			if x, y, ok := point(args[k]); ok {
				return x, y, true
			}
		}
		return 0, 0, false
	}
	switch name {
	case "click", "left_single", "left_double", "double_click", "right_single", "right_click", "hover":
		x, y, ok := at("start_box", "point", "box")
		if !ok {
			return contract.ToolCall{}, false
		}
		op := map[string]string{"left_double": contract.MouseDoubleClick, "double_click": contract.MouseDoubleClick,
			"right_single": contract.MouseRightClick, "right_click": contract.MouseRightClick, "hover": contract.MouseHover}[name]
		return mouseCall(op, x, y), true
	case "drag", "left_drag":
		x, y, ok := at("start_box", "start_point")
		tx, ty, ok2 := at("end_box", "end_point")
		if !ok || !ok2 {
			return contract.ToolCall{}, false
		}
		return toolCall(contract.ActDrag, map[string]any{"x": x, "y": y, "to_x": tx, "to_y": ty}), true
	case "type":
		content, ok := args["content"]
		return typeCall(content), ok
	case "scroll":
		dir := strings.ToLower(args["direction"])
		return toolCall(contract.ActScroll, map[string]any{"direction": dir}), dir != ""
	case "hotkey", "press":
		k := args["key"]
		if k == "" {
			k = args["keys"]
		}
		return toolCall(contract.ActPress, map[string]any{"key": keyChord(strings.Fields(k))}), k != ""
	case "wait":
		return toolCall(contract.ActWait, map[string]any{"ms": 5000}), true
	case "finished":
		return toolCall("done", map[string]any{"answer": args["content"]}), true
	case "call_user":
		return toolCall("ask_human", map[string]any{"question": "I need your help to go on."}), true
	}
	return contract.ToolCall{}, false
}

// qwenAction is a Qwen-VL computer_use action, at the top level of a
// JSON object or in the "arguments" of a call.
type qwenAction struct {
	Action     string    `json:"action"`
	Coordinate []float64 `json:"coordinate"`
	Coord2     []float64 `json:"coordinate2"`
	Text       string    `json:"text"`
	Keys       []string  `json:"keys"`
	Pixels     float64   `json:"pixels"`
	Time       float64   `json:"time"`
	Status     string    `json:"status"`
}

// qwenCalls reads <tool_call> blocks (and a bare JSON object) whose
// action is Qwen-VL's.
func qwenCalls(text string, tools map[string]bool) ([]contract.ToolCall, string) {
	if !strings.Contains(text, `"action"`) {
		return nil, text
	}
	var calls []contract.ToolCall
	read := func(raw string) bool {
		var v struct {
			qwenAction
			Arguments *qwenAction `json:"arguments"`
		}
		if json.Unmarshal([]byte(strings.TrimSpace(raw)), &v) != nil {
			return false
		}
		a := v.qwenAction
		if v.Arguments != nil {
			a = *v.Arguments
		}
		c, ok := qwenCall(a)
		if !ok || !tools[c.Name] {
			return false
		}
		calls = append(calls, c)
		return true
	}
	rest := tagRe.ReplaceAllStringFunc(text, func(block string) string {
		if read(tagRe.FindStringSubmatch(block)[2]) {
			return ""
		}
		return block
	})
	if len(calls) == 0 && read(text) {
		rest = ""
	}
	return calls, strings.TrimSpace(rest)
}

// qwenCall maps one Qwen-VL action to a call.
func qwenCall(a qwenAction) (contract.ToolCall, bool) {
	xy := func(c []float64) (int, int, bool) {
		if len(c) < 2 {
			return 0, 0, false
		}
		if len(c) >= 4 {
			return int((c[0] + c[2]) / 2), int((c[1] + c[3]) / 2), true
		}
		return int(c[0]), int(c[1]), true
	}
	ops := map[string]string{"click": contract.MouseClick, "left_click": contract.MouseClick, "double_click": contract.MouseDoubleClick,
		"right_click": contract.MouseRightClick, "mouse_move": contract.MouseHover, "hover": contract.MouseHover}
	if op, ok := ops[a.Action]; ok {
		x, y, ok := xy(a.Coordinate)
		return mouseCall(op, x, y), ok
	}
	switch a.Action {
	case "left_click_drag", "drag", "swipe":
		x, y, ok := xy(a.Coordinate)
		tx, ty, ok2 := xy(a.Coord2)
		return toolCall(contract.ActDrag, map[string]any{"x": x, "y": y, "to_x": tx, "to_y": ty}), ok && ok2
	case "type":
		return typeCall(a.Text), true
	case "key":
		return toolCall(contract.ActPress, map[string]any{"key": keyChord(a.Keys)}), len(a.Keys) > 0
	case "scroll":
		dir := "down"
		if a.Pixels > 0 {
			dir = "up" // Qwen's computer_use: positive pixels scroll up
		}
		return toolCall(contract.ActScroll, map[string]any{"direction": dir}), true
	case "wait":
		ms := int(a.Time * 1000)
		if ms <= 0 {
			ms = 1000
		}
		return toolCall(contract.ActWait, map[string]any{"ms": min(ms, 30000)}), true
	case "terminate":
		if strings.EqualFold(a.Status, "failure") {
			return toolCall("fail", map[string]any{"reason": "the model gave up (terminate: failure)"}), true
		}
		return toolCall("done", map[string]any{"answer": "done"}), true
	case "answer":
		return toolCall("done", map[string]any{"answer": a.Text}), true
	}
	return contract.ToolCall{}, false
}

func mouseCall(op string, x, y int) contract.ToolCall {
	if op == "" {
		op = contract.MouseClick
	}
	return toolCall(contract.ActMouse, map[string]any{"op": op, "x": x, "y": y})
}

// typeCall types into the focused element, as these dialects do. webagent
// types into an element by ref: the call goes to type without one, and
// fails saying the ref is needed. A final newline is Enter.
func typeCall(text string) contract.ToolCall {
	args := map[string]any{"text": strings.TrimSuffix(text, "\n")}
	if strings.HasSuffix(text, "\n") {
		args["submit"] = true
	}
	return toolCall(contract.ActType, args)
}

func toolCall(name string, args map[string]any) contract.ToolCall {
	b, _ := json.Marshal(args)
	return contract.ToolCall{Name: name, Arguments: string(b)}
}

// point reads "(x,y)", "<point>x y</point>", "[x, y]" or a box of four
// numbers (its centre).
func point(s string) (int, int, bool) {
	ns := numRe.FindAllString(strings.NewReplacer("<|box_start|>", "", "<|box_end|>", "").Replace(s), -1)
	var f []float64
	for _, n := range ns {
		v, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return 0, 0, false
		}
		f = append(f, v)
	}
	switch len(f) {
	case 2:
		return int(f[0] + 0.5), int(f[1] + 0.5), true
	case 4:
		return int((f[0]+f[2])/2 + 0.5), int((f[1]+f[3])/2 + 0.5), true
	}
	return 0, 0, false
}

// keyChord writes keys as press takes them: "ctrl c" is Control+C.
func keyChord(keys []string) string {
	names := map[string]string{"ctrl": "Control", "control": "Control", "alt": "Alt", "shift": "Shift", "cmd": "Meta", "meta": "Meta",
		"win": "Meta", "super": "Meta", "enter": "Enter", "return": "Enter", "esc": "Escape", "escape": "Escape", "tab": "Tab",
		"space": " ", "backspace": "Backspace", "delete": "Delete", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft",
		"right": "ArrowRight", "arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
		"pageup": "PageUp", "pagedown": "PageDown", "home": "Home", "end": "End"}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		for _, part := range strings.Split(k, "+") {
			if n, ok := names[strings.ToLower(part)]; ok {
				out = append(out, n)
			} else if len(part) == 1 {
				out = append(out, strings.ToUpper(part))
			} else if part != "" {
				out = append(out, part)
			}
		}
	}
	return strings.Join(out, "+")
}

// unescape undoes the backslash escapes of a quoted UI-TARS value.
var unescape = strings.NewReplacer(`\\`, `\`, `\'`, `'`, `\"`, `"`, `\n`, "\n", `\t`, "\t").Replace
