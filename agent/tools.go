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
	newTool(ActDrag, 10*time.Second, "Drag an element onto another element (to_ref), or by an offset in pixels (dx, dy).",
		[]prop{refArg, str("to_ref", "the ref of the element to drop on"), {name: "dx", typ: "integer", desc: "horizontal offset in pixels"}, {name: "dy", typ: "integer", desc: "vertical offset in pixels"}}, "ref"),
	newTool(ActUpload, 20*time.Second, "Put files into a file input. Only files from the folder allowed for uploads can be used.",
		[]prop{refArg, {name: "files", typ: "array", desc: "file names inside the upload folder"}}, "ref", "files"),
	newTool(ActBack, 30*time.Second, "Go back to the previous page in history.", nil),
	newTool(ActForward, 30*time.Second, "Go forward in history.", nil),
	newTool(ActTabs, 10*time.Second, "List the open tabs, switch to one, or close one. Pages opened in a new tab or popup appear here.",
		[]prop{{name: "op", typ: "string", desc: "list, switch or close", enum: []string{TabsList, TabsSwitch, TabsClose}}, str("tab", "the tab's id from the list (switch, close)")}, "op"),
	newTool(ActWaitFor, waitForMax, "Wait until a text appears on the page, or an element (ref) is visible, for at most timeout_ms (default 10000, at most 30000).",
		[]prop{str("text", "text to wait for"), refArg, {name: "timeout_ms", typ: "integer", desc: "how long to wait at most"}}),
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
				c.action.Files = append(c.action.Files, s)
			}
		}
	}
	c.action.DX, c.action.DY = ints["dx"], ints["dy"]
	switch tc.Name {
	case ActScroll:
		if c.action.Direction == "" && c.action.Ref == "" {
			return call{}, fmt.Errorf("scroll needs a direction, or a ref to bring into view")
		}
	case ActDrag:
		if c.action.ToRef == "" && c.action.DX == 0 && c.action.DY == 0 {
			return call{}, fmt.Errorf("drag needs to_ref, or an offset dx/dy")
		}
	case ActTabs:
		if c.action.Op != TabsList && c.action.Tab == "" {
			return call{}, fmt.Errorf("tabs %s needs the tab's id; call tabs with op list to see them", c.action.Op)
		}
	case ActWaitFor:
		if c.action.Text == "" && c.action.Ref == "" {
			return call{}, fmt.Errorf("wait_for needs a text or a ref")
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
