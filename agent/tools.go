package agent

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Tool names offered to the model besides the browser actions.
const (
	ToolDone = "done"
	ToolFail = "fail"
)

// tool is one function the model may call: its definition and how its
// arguments become an Action.
type tool struct {
	def      ToolDef
	required []string
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

func newTool(name, desc string, props map[string]string, required ...string) tool {
	return tool{def: ToolDef{Name: name, Description: desc, Parameters: schema(props, required...)}, required: required}
}

var refDesc = "the element's ref from the latest snapshot, e.g. e12"

// tools is the fixed tool set, in the order offered.
var tools = []tool{
	newTool(ActGoto, "Open a URL in the current tab.", map[string]string{"url": "absolute URL"}, "url"),
	newTool(ActClick, "Click an element with the mouse.", map[string]string{"ref": refDesc}, "ref"),
	newTool(ActType, "Replace the text of an input, textarea or editable element; optionally press Enter afterwards.",
		map[string]string{"ref": refDesc, "text": "the text to type; write <secret>NAME</secret> for a secret", "submit": "press Enter after typing"}, "ref", "text"),
	newTool(ActSelect, "Choose an option of a select element by its label or value.",
		map[string]string{"ref": refDesc, "option": "the option's label or value"}, "ref", "option"),
	newTool(ActPress, "Press a key or chord on the focused element, e.g. Enter, Tab, Escape, ArrowDown, Control+A.",
		map[string]string{"key": "key name or chord"}, "key"),
	newTool(ActScroll, "Scroll the page by about one screen.", map[string]string{"direction": "up, down, left or right"}, "direction"),
	newTool(ActBack, "Go back to the previous page in history.", map[string]string{}),
	newTool(ToolDone, "Finish the task successfully with the answer the user asked for (or a short confirmation of what was done).",
		map[string]string{"answer": "the final answer"}, "answer"),
	newTool(ToolFail, "Give up when the task cannot be done; say why.", map[string]string{"reason": "why the task cannot be done"}, "reason"),
}

var toolByName = func() map[string]tool {
	m := map[string]tool{}
	for _, t := range tools {
		m[t.def.Name] = t
	}
	return m
}()

func toolDefs() []ToolDef {
	defs := make([]ToolDef, len(tools))
	for i, t := range tools {
		defs[i] = t.def
	}
	return defs
}

// call is a parsed tool call.
type call struct {
	action Action // for browser actions
	answer string // for done
	reason string // for fail
}

// parseCall validates a tool call against its tool. Its error message is
// written for the model.
func parseCall(tc ToolCall) (call, error) {
	t, ok := toolByName[tc.Name]
	if !ok {
		names := make([]string, 0, len(toolByName))
		for n := range toolByName {
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
	var c call
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
