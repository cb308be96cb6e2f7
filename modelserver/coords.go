package modelserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webagent/webagent/internal/outline"
)

// A model that answers in coordinates is shown the screen and, in each
// observation, where a click reaches each ref in view (outline's in-view
// line). The server expresses a Responder's calls of webagent's tools by
// ref as such a model would act, at those points: a click is a click at
// the ref's point; type is a click there, Control+A and the text (Enter
// after it to submit); select is a click on the list, the option's text
// typed and Enter; press a key; scroll the wheel. A call is read once
// (aimOf: its arguments, its ref's point) and each dialect writes only
// its wire form: Claude's computer use toolset (members "computer:NAME"),
// OpenAI's computer tool (one computer_call of actions) and, over chat
// completions, UI-TARS' text actions write the gestures; Gemini's computer
// use writes its predefined functions (gemcoords.go).

// ToolsetComputer is ChatRequest.Toolset for a request that declares a
// vendor's computer tool (Claude's computer use toolset, OpenAI's computer
// tool).
const ToolsetComputer = "computer"

// computerExpressed are webagent's tools whose calls the computer tool's
// gestures do.
var computerExpressed = []string{"click", "type", "select", "press", "scroll"}

// wheelAt is where a scroll gesture turns the wheel.
var wheelAt = [2]int{400, 300}

// wheelPixels is the pixels a scroll gesture turns the wheel by: about a
// screenful less some overlap.
const wheelPixels = scrollNotches * 100

// wheel is a scroll gesture's turn of the wheel, x and y, by direction.
var wheel = map[string][2]int{"up": {0, -wheelPixels}, "down": {0, wheelPixels}, "left": {-wheelPixels, 0}, "right": {wheelPixels, 0}}

// gesture is one act of a hand on the screen.
type gesture struct {
	op   string // "click", "type", "key", "scroll"
	x, y int
	text string // type: the text; key: a chord in webagent's names
	dir  string // scroll: up, down, left, right
}

// spotsOf are the in-view spots of the request's latest observation; nil
// when it has none (the model was not shown where refs are).
func spotsOf(req *ChatRequest) map[string]outline.Spot {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" || !strings.HasPrefix(m.Content, "Observation") {
			continue
		}
		_, spots := outline.CutInView(m.Content)
		return spots
	}
	return nil
}

// screenInView is the screen's size the latest observation's in-view line
// gives; 0, 0 without one.
func screenInView(req *ChatRequest) (w, h int) {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == "user" && strings.HasPrefix(m.Content, "Observation") {
			return outline.InViewScreen(m.Content)
		}
	}
	return 0, 0
}

// aim is a call of webagent's tools by ref read as a hand on the screen
// would do it: what, and where. Each dialect writes aims in its own wire
// form: as gestures (gestures), or Gemini's functions (geminiActions).
type aim struct {
	tool   string // click, type, select, press, scroll
	x, y   int    // click, type, select: the ref's point on the screen
	text   string // type: the text; select: the option; press: the chord
	submit bool   // type: Enter after the text
	dir    string // scroll: up, down, left, right
}

// pointed reports whether the aim is at a ref's point.
func (a aim) pointed() bool { return a.tool == "click" || a.tool == "type" || a.tool == "select" }

// aimOf reads c at the points of spots; ok is false for a call no hand
// does (goto, done), one whose arguments do not parse, and one whose ref
// is not on the screen.
func aimOf(c Call, spots map[string]outline.Spot) (a aim, ok bool) {
	var args struct {
		Ref, Text, Option, Key, Direction string
		Submit                            bool
	}
	if json.Unmarshal([]byte(c.Args), &args) != nil {
		return aim{}, false
	}
	a.tool = c.Name
	switch c.Name {
	case "click", "type", "select":
		s, on := spots[args.Ref]
		a.x, a.y, a.text, a.submit = s.X, s.Y, args.Text, args.Submit
		if c.Name == "select" {
			a.text, a.submit = args.Option, false
		}
		return a, on && !s.Covered
	case "press":
		a.text = args.Key
		return a, a.text != ""
	case "scroll":
		a.dir = args.Direction
		return a, a.dir != ""
	}
	return aim{}, false
}

// gestures expresses c at the points of spots; ok is false for a call no
// gesture does (goto, done) or whose ref is not on the screen.
func gestures(c Call, spots map[string]outline.Spot) ([]gesture, bool) {
	a, ok := aimOf(c, spots)
	if !ok {
		return nil, false
	}
	click := gesture{op: "click", x: a.x, y: a.y}
	switch a.tool {
	case "click":
		return []gesture{click}, true
	case "type":
		gs := []gesture{click, {op: "key", text: "Control+a"}, {op: "type", text: a.text}}
		if a.submit {
			gs = append(gs, gesture{op: "key", text: "Enter"})
		}
		return gs, true
	case "select":
		return []gesture{click, {op: "type", text: a.text}, {op: "key", text: "Enter"}}, true
	case "press":
		return []gesture{{op: "key", text: a.text}}, true
	default: // scroll
		return []gesture{{op: "scroll", dir: a.dir}}, true
	}
}

// computerMembers expresses calls as members of Claude's computer use
// toolset; a call no gesture does is sent as it is.
func computerMembers(calls []Call, req *ChatRequest) []Call {
	spots := spotsOf(req)
	var out []Call
	for _, c := range calls {
		gs, ok := gestures(c, spots)
		if !ok {
			out = append(out, c)
			continue
		}
		for _, g := range gs {
			switch g.op {
			case "click":
				out = append(out, computerMember("left_click", map[string]any{"coordinate": []int{g.x, g.y}}))
			case "type":
				out = append(out, computerMember("type", map[string]any{"text": g.text}))
			case "key":
				out = append(out, computerMember("key", map[string]any{"text": xdotoolChord(g.text)}))
			case "scroll":
				out = append(out, computerMember("scroll", map[string]any{"coordinate": wheelAt, "scroll_direction": g.dir, "scroll_amount": scrollNotches}))
			}
		}
	}
	return out
}

func computerMember(name string, input map[string]any) Call {
	b, _ := json.Marshal(input)
	return Call{Name: ToolsetComputer + ":" + name, Args: string(b)}
}

// xdotoolChord writes a chord in webagent's names ("Control+a", "Enter")
// as xdotool does ("ctrl+a", "Return").
func xdotoolChord(chord string) string {
	keys := strings.Split(chord, "+")
	for i, k := range keys {
		if x, ok := xdotoolKeys[k]; ok {
			keys[i] = x
			continue
		}
		if m, ok := map[string]string{"Control": "ctrl", "Shift": "shift", "Alt": "alt", "Meta": "super"}[k]; ok {
			keys[i] = m
		}
	}
	return strings.Join(keys, "+")
}

// computerActions expresses calls as the actions of OpenAI's computer
// tool, which come as one computer_call; the calls no gesture does are
// rest, sent as function calls after it.
func computerActions(calls []Call, req *ChatRequest) (actions []map[string]any, rest []Call) {
	spots := spotsOf(req)
	for _, c := range calls {
		gs, ok := gestures(c, spots)
		if !ok {
			rest = append(rest, c)
			continue
		}
		for _, g := range gs {
			switch g.op {
			case "click":
				actions = append(actions, map[string]any{"type": "click", "button": "left", "x": g.x, "y": g.y})
			case "type":
				actions = append(actions, map[string]any{"type": "type", "text": g.text})
			case "key":
				actions = append(actions, map[string]any{"type": "keypress", "keys": openAIKeys(g.text)})
			case "scroll":
				d := wheel[g.dir]
				actions = append(actions, map[string]any{"type": "scroll", "x": wheelAt[0], "y": wheelAt[1], "scroll_x": d[0], "scroll_y": d[1]})
			}
		}
	}
	return actions, rest
}

// openAIKeys writes a chord as OpenAI's computer tool lists keys:
// "Control+a" is ["CTRL", "A"].
func openAIKeys(chord string) []string {
	var keys []string
	for k := range strings.SplitSeq(chord, "+") {
		switch k {
		case "Control":
			k = "CTRL"
		case "Meta":
			k = "META"
		}
		keys = append(keys, strings.ToUpper(k))
	}
	return keys
}

// uitarsText expresses a turn's calls as UI-TARS writes actions, one per
// line after the turn's text ("Action: click(start_box='(x,y)')"); ok is
// false when a call is one no text action does, and the turn goes as it
// is. done is finished(content=...).
func uitarsText(t Turn, req *ChatRequest) (Turn, bool) {
	spots := spotsOf(req)
	if spots == nil || len(t.ToolCalls) == 0 {
		return t, false
	}
	var lines []string
	for _, c := range t.ToolCalls {
		if c.Name == "done" {
			var a struct{ Answer string }
			_ = json.Unmarshal([]byte(c.Args), &a)
			lines = append(lines, fmt.Sprintf("Action: finished(content=%s)", quoteUITARS(a.Answer)))
			continue
		}
		gs, ok := gestures(c, spots)
		if !ok {
			return t, false
		}
		for _, g := range gs {
			switch g.op {
			case "click":
				lines = append(lines, fmt.Sprintf("Action: click(start_box='(%d,%d)')", g.x, g.y))
			case "type":
				lines = append(lines, fmt.Sprintf("Action: type(content=%s)", quoteUITARS(g.text)))
			case "key":
				lines = append(lines, fmt.Sprintf("Action: hotkey(key='%s')", strings.ToLower(strings.ReplaceAll(g.text, "+", " "))))
			case "scroll":
				lines = append(lines, fmt.Sprintf("Action: scroll(direction='%s')", g.dir))
			}
		}
	}
	out := t
	out.Text = strings.TrimSpace(t.Text + "\n" + strings.Join(lines, "\n"))
	out.ToolCalls = nil
	return out, true
}

// quoteUITARS quotes s as a UI-TARS argument: in single quotes, with '
// and \ escaped.
func quoteUITARS(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}
