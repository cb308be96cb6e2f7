package agent

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Tool names offered to the model besides the browser actions.
const (
	ToolDone     = "done"
	ToolFail     = "fail"
	ToolAskHuman = "ask_human"
)

// tool is one function the model may call: its definition, its budget and
// how its arguments become an Action.
type tool struct {
	def      ToolDef
	required []string
	// budget is the tool's own time bound, enforced by the dispatcher
	// alone; 0 for tools that do not wait (done, fail).
	budget time.Duration
}

func schema(props map[string]string, required ...string) json.RawMessage {
	type prop struct {
		Type        string   `json:"type"`
		Description string   `json:"description"`
		Enum        []string `json:"enum,omitempty"`
	}
	p := map[string]prop{}
	for name, desc := range props {
		typ := "string"
		var enum []string
		if name == "submit" {
			typ = "boolean"
		}
		if name == "direction" {
			enum = []string{"up", "down", "left", "right"}
		}
		p[name] = prop{Type: typ, Description: desc, Enum: enum}
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

func newTool(name string, budget time.Duration, desc string, props map[string]string, required ...string) tool {
	return tool{def: ToolDef{Name: name, Description: desc, Parameters: schema(props, required...)}, required: required, budget: budget}
}

var refDesc = "the element's ref from the latest snapshot, e.g. e12"

// tools is the fixed tool set, in the order offered.
//
// Budgets: a navigation may legitimately take tens of seconds on a slow
// site; input actions take well under a second unless the page is stuck.
var tools = []tool{
	newTool(ActGoto, 30*time.Second, "Open a URL in the current tab.", map[string]string{"url": "absolute URL"}, "url"),
	newTool(ActClick, 10*time.Second, "Click an element with the mouse.", map[string]string{"ref": refDesc}, "ref"),
	newTool(ActType, 20*time.Second, "Replace the text of an input, textarea or editable element; optionally press Enter afterwards.",
		map[string]string{"ref": refDesc, "text": "the text to type; write <secret>NAME</secret> for a secret", "submit": "press Enter after typing"}, "ref", "text"),
	newTool(ActSelect, 10*time.Second, "Choose an option of a select element by its label or value.",
		map[string]string{"ref": refDesc, "option": "the option's label or value"}, "ref", "option"),
	newTool(ActPress, 5*time.Second, "Press a key or chord on the focused element, e.g. Enter, Tab, Escape, ArrowDown, Control+A.",
		map[string]string{"key": "key name or chord"}, "key"),
	newTool(ActScroll, 5*time.Second, "Scroll the page by about one screen.", map[string]string{"direction": "up, down, left or right"}, "direction"),
	newTool(ActBack, 30*time.Second, "Go back to the previous page in history.", map[string]string{}),
	newTool(ToolDone, 0, "Finish the task successfully with the answer the user asked for (or a short confirmation of what was done).",
		map[string]string{"answer": "the final answer"}, "answer"),
	newTool(ToolFail, 0, "Give up when the task cannot be done; say why.", map[string]string{"reason": "why the task cannot be done"}, "reason"),
}

func askHumanTool(budget time.Duration) tool {
	return newTool(ToolAskHuman, budget, "Ask the person who gave you the task a question, when only they can answer "+
		"(a missing detail, a choice, a one-time code). The answer may come later: a pending result means go on meanwhile if you can.",
		map[string]string{"question": "one clear question"}, "question")
}

// toolset is the tools offered for one task.
type toolset struct {
	list   []tool
	byName map[string]tool
	defs   []ToolDef
}

func newToolset(human bool, humanBudget time.Duration) *toolset {
	ts := &toolset{byName: map[string]tool{}}
	ts.list = append(ts.list, tools...)
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
	action   Action // for browser actions
	answer   string // for done
	reason   string // for fail
	question string // for ask_human
}

// parseCall validates a tool call against its tool. Its error message is
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
	str := func(k string) (string, error) {
		v, ok := args[k]
		if !ok || v == nil {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("argument %q of %s must be a string", k, tc.Name)
		}
		return s, nil
	}
	c := call{tool: t}
	var err error
	get := func(dst *string, k string) {
		if err == nil {
			*dst, err = str(k)
		}
	}
	switch tc.Name {
	case ToolDone:
		get(&c.answer, "answer")
	case ToolFail:
		get(&c.reason, "reason")
	case ToolAskHuman:
		get(&c.question, "question")
	default:
		c.action.Name = tc.Name
		get(&c.action.Ref, "ref")
		get(&c.action.URL, "url")
		get(&c.action.Text, "text")
		get(&c.action.Option, "option")
		get(&c.action.Key, "key")
		get(&c.action.Direction, "direction")
		if v, ok := args["submit"]; ok && err == nil {
			switch b := v.(type) {
			case bool:
				c.action.Submit = b
			case string:
				c.action.Submit = b == "true"
			default:
				err = fmt.Errorf("argument \"submit\" of type must be true or false")
			}
		}
		if err == nil && c.action.Direction != "" {
			switch c.action.Direction {
			case "up", "down", "left", "right":
			default:
				err = fmt.Errorf("scroll direction %q is not one of up, down, left, right", c.action.Direction)
			}
		}
	}
	return c, err
}

func example(t tool) string {
	args := map[string]string{}
	for _, r := range t.required {
		switch r {
		case "ref":
			args[r] = "e12"
		case "url":
			args[r] = "https://example.org/"
		default:
			args[r] = "..."
		}
	}
	b, _ := json.Marshal(args)
	return string(b)
}
