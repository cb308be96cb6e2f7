package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Tool names offered to the model besides the browser actions.
const (
	ToolDone       = "done"
	ToolFail       = "fail"
	ToolAskHuman   = "ask_human"
	ToolScreenshot = "screenshot"
)

// tool is one function the model may call: its definition, its budget and
// how its arguments become an Action.
type tool struct {
	def      ToolDef
	props    []prop
	required []string
	// budget is the tool's own time bound, enforced by the dispatcher
	// alone; 0 for tools that do not wait (done, fail).
	budget time.Duration
}

// prop is one argument of a tool.
type prop struct {
	name, typ, desc string
	enum            []string
}

func str(name, desc string) prop { return prop{name: name, typ: "string", desc: desc} }

func schema(props []prop, required ...string) json.RawMessage {
	type jprop struct {
		Type        string            `json:"type"`
		Description string            `json:"description"`
		Enum        []string          `json:"enum,omitempty"`
		Items       map[string]string `json:"items,omitempty"`
	}
	p := map[string]jprop{}
	for _, pr := range props {
		jp := jprop{Type: pr.typ, Description: pr.desc, Enum: pr.enum}
		if pr.typ == "array" {
			jp.Items = map[string]string{"type": "string"}
		}
		p[pr.name] = jp
	}
	if required == nil {
		required = []string{}
	}
	b, err := json.Marshal(map[string]any{
		"type":                 "object",
		"properties":           p,
		"required":             required,
		"additionalProperties": false,
	})
	if err != nil {
		panic(err) // static input
	}
	return b
}

func newTool(name string, budget time.Duration, desc string, props []prop, required ...string) tool {
	return tool{def: ToolDef{Name: name, Description: desc, Parameters: schema(props, required...)}, props: props, required: required, budget: budget}
}

var (
	refArg    = str("ref", "the element's ref from the latest snapshot, e.g. e12")
	directArg = prop{name: "direction", typ: "string", desc: "up, down, left or right", enum: []string{"up", "down", "left", "right"}}
)

// anchors are the named points of an element's box.
var anchors = []string{"center", "top-left", "top-right", "bottom-left", "bottom-right", "left", "right", "top", "bottom"}

func anchorArg(name string) prop {
	return prop{name: name, typ: "string", desc: "a point of the element's box: center (default), a corner such as bottom-right, or an edge's middle (left, right, top, bottom)", enum: anchors}
}

// waitForMax is the longest wait_for the model may ask for.
const waitForMax = 30 * time.Second

// tools is the fixed tool set, in the order offered.
//
// Budgets: a navigation may legitimately take tens of seconds on a slow
// site; input actions take well under a second unless the page is stuck.
var tools = []tool{
	newTool(ActGoto, 30*time.Second, "Open a URL in the current tab.", []prop{str("url", "absolute URL")}, "url"),
	newTool(ActClick, 10*time.Second, "Click an element with the mouse.", []prop{refArg}, "ref"),
	newTool(ActType, 20*time.Second, "Replace the text of an input, textarea or editable element; optionally press Enter afterwards.",
		[]prop{refArg, str("text", "the text to type; write <secret>NAME</secret> for a secret"), {name: "submit", typ: "boolean", desc: "press Enter after typing"}}, "ref", "text"),
	newTool(ActSelect, 10*time.Second, "Choose an option of a select, listbox or combobox by its label or value.",
		[]prop{refArg, str("option", "the option's label or value")}, "ref", "option"),
	newTool(ActCheck, 10*time.Second, "Make sure a checkbox, radio button or switch is checked.", []prop{refArg}, "ref"),
	newTool(ActUncheck, 10*time.Second, "Make sure a checkbox or switch is not checked.", []prop{refArg}, "ref"),
	newTool(ActPress, 5*time.Second, "Press a key or chord on the focused element, e.g. Enter, Tab, Escape, ArrowDown, Control+A.",
		[]prop{str("key", "key name or chord")}, "key"),
	newTool(ActHover, 5*time.Second, "Move the mouse over an element, e.g. to open a menu.", []prop{refArg}, "ref"),
	newTool(ActScroll, 5*time.Second, "Scroll the page by about one screen, or bring an element into view when ref is given.",
		[]prop{directArg, refArg}),
	newTool(ActDrag, 10*time.Second, "Drag with the mouse from an element (ref, at its anchor) or a point (x, y) onto another element (to_ref, at to_anchor), "+
		"a point (to_x, to_y), or by an offset in pixels (dx, dy). Works for sortable lists, resize grips and HTML drag and drop.",
		[]prop{refArg, anchorArg("anchor"), {name: "x", typ: "integer", desc: "start x in viewport CSS pixels (without ref)"}, {name: "y", typ: "integer", desc: "start y (without ref)"},
			str("to_ref", "the ref of the element to drop on"), anchorArg("to_anchor"),
			{name: "to_x", typ: "integer", desc: "drop x in viewport CSS pixels"}, {name: "to_y", typ: "integer", desc: "drop y"},
			{name: "dx", typ: "integer", desc: "horizontal offset in pixels"}, {name: "dy", typ: "integer", desc: "vertical offset in pixels"}}),
	newTool(ActUpload, 20*time.Second, "Put files into a file input. Only files from the folder allowed for uploads can be used.",
		[]prop{refArg, {name: "files", typ: "array", desc: "file names inside the upload folder"}}, "ref", "files"),
	newTool(ActBack, 30*time.Second, "Go back to the previous page in history.", nil),
	newTool(ActForward, 30*time.Second, "Go forward in history.", nil),
	newTool(ActTabs, 10*time.Second, "List the open tabs, switch to one, or close one. Pages opened in a new tab or popup appear here.",
		[]prop{{name: "op", typ: "string", desc: "list, switch or close", enum: []string{TabsList, TabsSwitch, TabsClose}}, str("tab", "the tab's id from the list (switch, close)")}, "op"),
	newTool(ActWaitFor, waitForMax, "Wait for a change, for at most timeout_ms (default 10000, at most 30000): a text that appears after this call "+
		"(text already shown counts only when it shows once more), inside ref if given; or with state disappear, until the text is gone; "+
		"or, with ref alone, until the element appears (is visible), disappears or becomes enabled.",
		[]prop{str("text", "text to wait for"), refArg, {name: "state", typ: "string", desc: "appear (default), disappear or enabled (a ref only)", enum: []string{WaitAppear, WaitDisappear, WaitEnabled}},
			{name: "timeout_ms", typ: "integer", desc: "how long to wait at most"}}),
	newTool(ActWait, waitForMax, "Wait a given time (at most 30000 ms), e.g. for an animation or a timer on the page.",
		[]prop{{name: "ms", typ: "integer", desc: "milliseconds to wait, at most 30000"}}, "ms"),
	newTool(ActMouse, 10*time.Second, "Click, double-click, right-click or hover at a point: x, y in viewport CSS pixels, "+
		"or a point of an element's box (ref, with anchor and an offset dx, dy). For pictures, canvases, maps and elements without a ref.",
		[]prop{{name: "op", typ: "string", desc: "click (default), double_click, right_click or hover", enum: []string{MouseClick, MouseDoubleClick, MouseRightClick, MouseHover}},
			{name: "x", typ: "integer", desc: "viewport x in CSS pixels (without ref)"}, {name: "y", typ: "integer", desc: "viewport y in CSS pixels (without ref)"},
			refArg, anchorArg("anchor"), {name: "dx", typ: "integer", desc: "with ref: pixels right of the anchor"}, {name: "dy", typ: "integer", desc: "with ref: pixels below the anchor"}}),
	newTool(ActMousePath, 10*time.Second, "Press the left mouse button at the first point, move through the others (with small steps in between, as a hand does) "+
		"and release at the last: to draw on a canvas, or drag along a path. Points are viewport CSS pixels, or with ref, offsets from the element's top-left corner.",
		[]prop{str("points", `at least two x,y points separated by spaces, e.g. "10,20 60,20 60,70"`), refArg}, "points"),
	newTool(ActSetSlider, 10*time.Second, "Set a slider (range input or ARIA slider) to a value, with the keys it accepts, and report the value it shows.",
		[]prop{refArg, str("value", "the number to set")}, "ref", "value"),
	newTool(ActMultiSelect, 10*time.Second, "Add options to, or remove options from, a select that allows several choices, keeping the other chosen options; reports what is chosen.",
		[]prop{refArg, {name: "add", typ: "array", desc: "labels or values of options to choose"}, {name: "remove", typ: "array", desc: "labels or values of options to unchoose"}}, "ref"),
	newTool(ActSelectText, 10*time.Second, "Select (highlight) a range of text inside an element with the mouse, by the exact text to select or by character offsets start and end.",
		[]prop{refArg, str("text", "the exact text to select"), {name: "start", typ: "integer", desc: "offset of the first character in the element's text"},
			{name: "end", typ: "integer", desc: "offset after the last character"}}, "ref"),
	newTool(ActExtract, 20*time.Second, "Read the page's main content as Markdown, for long pages (the snapshot shows what is visible and actionable).", nil),
	newTool(ActBox, 5*time.Second, "Give an element's box (x, y, width, height in CSS pixels of the viewport) and whether it is in view, to aim at a point of it.",
		[]prop{refArg}, "ref"),
	newTool(ActReadRegion, 5*time.Second, "Read the whole text of a region the snapshot left out (a line starting with … and ending with [region=r3]).",
		[]prop{str("ref", "the region's handle from the latest snapshot, e.g. r3")}, "ref"),
	newTool(ToolDone, 0, "Finish the task successfully with the answer the user asked for (or a short confirmation of what was done).",
		[]prop{str("answer", "the final answer")}, "answer"),
	newTool(ToolFail, 0, "Give up when the task cannot be done; say why.", []prop{str("reason", "why the task cannot be done")}, "reason"),
}

// screenshotTool is offered with vision; the loop runs it through the
// browser's Screenshotter and shows the image to the model.
var screenshotTool = newTool(ToolScreenshot, 10*time.Second, "Look at the page as an image, when the snapshot is not enough (a chart, a canvas, the layout).", nil)

func askHumanTool(budget time.Duration) tool {
	return newTool(ToolAskHuman, budget, "Ask the person who gave you the task a question, when only they can answer "+
		"(a missing detail, a choice, a one-time code). The answer may come later: a pending result means go on meanwhile if you can.",
		[]prop{str("question", "one clear question")}, "question")
}

// toolset is the tools offered for one task.
type toolset struct {
	list   []tool
	byName map[string]tool
	defs   []ToolDef
}

func newToolset(human bool, humanBudget time.Duration, vision bool) *toolset {
	ts := &toolset{byName: map[string]tool{}}
	ts.list = append(ts.list, tools...)
	if vision {
		ts.list = append(ts.list, screenshotTool)
	}
	if human {
		ts.list = append(ts.list, askHumanTool(humanBudget))
	}
	for _, t := range ts.list {
		ts.byName[t.def.Name] = t
		ts.defs = append(ts.defs, t.def)
	}
	return ts
}

// longestToolBudget is the longest budget of the fixed tools, which the
// dispatch backstop must exceed.
func longestToolBudget() time.Duration {
	var d time.Duration
	for _, t := range tools {
		d = max(d, t.budget)
	}
	return d
}

// call is a parsed tool call.
type call struct {
	tool     tool
	action   Action        // for browser actions
	answer   string        // for done
	reason   string        // for fail
	question string        // for ask_human
	budget   time.Duration // the tool's budget for this call
	points   string        // mouse_path: the points as given
}

// parse validates a tool call against its tool. Its error message is
// written for the model.
func (ts *toolset) parse(tc ToolCall) (call, error) {
	t, ok := ts.byName[tc.Name]
	if !ok {
		names := make([]string, 0, len(ts.byName))
		for n := range ts.byName {
			names = append(names, n)
		}
		sort.Strings(names)
		return call{}, fmt.Errorf("unknown tool %q; the tools are: %s", tc.Name, strings.Join(names, ", "))
	}
	var args map[string]any
	raw := strings.TrimSpace(tc.Arguments)
	if raw == "" {
		raw = "{}"
	}
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		return call{}, fmt.Errorf("the arguments of %s are not a valid JSON object (%v); send e.g. %s", tc.Name, err, example(t))
	}
	for _, r := range t.required {
		if v, ok := args[r]; !ok || v == nil || v == "" {
			return call{}, fmt.Errorf("%s needs the argument %q; send e.g. %s", tc.Name, r, example(t))
		}
	}
	known := map[string]prop{}
	for _, p := range t.props {
		known[p.name] = p
	}
	c := call{tool: t, budget: t.budget, action: Action{Name: tc.Name}}
	var ints = map[string]int{}
	for k, v := range args {
		p, ok := known[k]
		if !ok {
			return call{}, fmt.Errorf("%s has no argument %q; send e.g. %s", tc.Name, k, example(t))
		}
		if v == nil {
			continue
		}
		bad := func(want string) error { return fmt.Errorf("argument %q of %s must be %s", k, tc.Name, want) }
		switch p.typ {
		case "string":
			s, ok := v.(string)
			if !ok {
				return call{}, bad("a string")
			}
			if p.enum != nil && !slices.Contains(p.enum, s) {
				return call{}, fmt.Errorf("%s %q is not one of %s", k, s, strings.Join(p.enum, ", "))
			}
			c.set(k, s)
		case "boolean":
			switch b := v.(type) {
			case bool:
				c.action.Submit = b
			case string:
				c.action.Submit = b == "true"
			default:
				return call{}, bad("true or false")
			}
		case "integer":
			f, ok := v.(float64)
			if !ok || f != float64(int(f)) {
				return call{}, bad("a whole number")
			}
			ints[k] = int(f)
		case "array":
			list, ok := v.([]any)
			if !ok {
				return call{}, bad("a list of strings")
			}
			for _, it := range list {
				s, ok := it.(string)
				if !ok {
					return call{}, bad("a list of strings")
				}
				c.addItem(k, s)
			}
		}
	}
	c.action.DX, c.action.DY = ints["dx"], ints["dy"]
	if err := c.setPointer(ints, args); err != nil {
		return call{}, err
	}
	switch tc.Name {
	case ActScroll:
		if c.action.Direction == "" && c.action.Ref == "" {
			return call{}, fmt.Errorf("scroll needs a direction, or a ref to bring into view")
		}
	case ActDrag:
		if c.action.Ref == "" && c.action.At == nil {
			return call{}, fmt.Errorf("drag needs where to start: a ref, or x and y")
		}
		if c.action.ToRef == "" && c.action.To == nil && c.action.DX == 0 && c.action.DY == 0 {
			return call{}, fmt.Errorf("drag needs to_ref, to_x and to_y, or an offset dx/dy: where to drop")
		}
	case ActWait:
		ms := ints["ms"]
		if ms <= 0 || time.Duration(ms)*time.Millisecond > waitForMax {
			return call{}, fmt.Errorf("ms must be between 1 and %d", waitForMax.Milliseconds())
		}
		c.action.MS = ms
		c.budget = time.Duration(ms)*time.Millisecond + waitSlack
	case ActMouse:
		if c.action.Ref == "" && c.action.At == nil {
			return call{}, fmt.Errorf("mouse needs x and y, or a ref")
		}
	case ActMultiSelect:
		if len(c.action.Options) == 0 && len(c.action.Remove) == 0 {
			return call{}, fmt.Errorf("multi_select needs options to add or to remove")
		}
	case ActSelectText:
		if c.action.Text == "" && (c.action.Start == nil || c.action.End == nil) {
			return call{}, fmt.Errorf("select_text needs the text to select, or start and end offsets")
		}
	case ActTabs:
		if c.action.Op != TabsList && c.action.Tab == "" {
			return call{}, fmt.Errorf("tabs %s needs the tab's id; call tabs with op list to see them", c.action.Op)
		}
	case ActWaitFor:
		if c.action.Text == "" && c.action.Ref == "" {
			return call{}, fmt.Errorf("wait_for needs a text or a ref")
		}
		if c.action.State == WaitEnabled && c.action.Text != "" {
			return call{}, fmt.Errorf("wait_for with state enabled takes a ref only, not a text")
		}
		ms, ok := ints["timeout_ms"]
		switch {
		case !ok:
			c.budget = 10 * time.Second
		case ms <= 0:
			return call{}, fmt.Errorf("timeout_ms must be positive")
		default:
			c.budget = min(time.Duration(ms)*time.Millisecond, waitForMax)
		}
	}
	return c, nil
}

// set stores a string argument where it belongs.
func (c *call) set(k, v string) {
	switch k {
	case "answer":
		c.answer = v
	case "reason":
		c.reason = v
	case "question":
		c.question = v
	case "ref":
		c.action.Ref = v
	case "url":
		c.action.URL = v
	case "text":
		c.action.Text = v
	case "option":
		c.action.Option = v
	case "key":
		c.action.Key = v
	case "direction":
		c.action.Direction = v
	case "to_ref":
		c.action.ToRef = v
	case "op":
		c.action.Op = v
	case "tab":
		c.action.Tab = v
	case "anchor":
		c.action.Anchor = v
	case "to_anchor":
		c.action.ToAnchor = v
	case "state":
		c.action.State = v
	case "value":
		c.action.Value = v
	case "points":
		c.points = v
	}
}

func example(t tool) string {
	args := map[string]any{}
	for _, r := range t.required {
		switch r {
		case "ref":
			args[r] = "e12"
		case "url":
			args[r] = "https://example.org/"
		case "files":
			args[r] = []string{"photo.jpg"}
		case "op":
			args[r] = TabsList
		default:
			args[r] = "..."
		}
	}
	b, _ := json.Marshal(args)
	return string(b)
}
