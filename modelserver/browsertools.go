package modelserver

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/webagent/webagent/internal/outline"
)

// scrollAt is where a scroll member's wheel turns: inside any viewport.
var scrollAt = []int{200, 200}

// scrollNotches is a scroll member's scroll_amount: about a screenful.
const scrollNotches = 5

// xdotoolKeys are the DOM key names whose keysym differs, as the
// browser toolset's key member writes them.
var xdotoolKeys = map[string]string{
	"Enter": "Return", "ArrowUp": "Up", "ArrowDown": "Down", "ArrowLeft": "Left", "ArrowRight": "Right",
	"PageUp": "Page_Up", "PageDown": "Page_Down", "Backspace": "BackSpace",
}

// browserMembers expresses calls of webagent's tools as members of
// Claude's browser use toolset, named "browser:MEMBER": click is
// left_click on a ref target, type and select are form_input (type's
// submit then a key Return; type into a combobox, which form_input would
// choose an option of, is a click, ctrl+a and the type member), press is key, scroll a scroll by notches,
// goto navigate, back navigate "back". A call of a tool the request
// offers by name (done, fail, ...) is sent as it is.
func browserMembers(calls []Call, req *ChatRequest) []Call {
	var out []Call
	for _, c := range calls {
		if !slices.Contains(browserExpressed, c.Name) {
			out = append(out, c)
			continue
		}
		var a struct {
			Ref, Text, Option, Key, Direction, URL string
			Submit                                 bool
		}
		if json.Unmarshal([]byte(c.Args), &a) != nil {
			out = append(out, c) // sent as it came: the client refuses it
			continue
		}
		target := map[string]any{"type": "ref", "ref": a.Ref}
		switch c.Name {
		case "click":
			out = append(out, member("left_click", map[string]any{"target": target}))
		case "type":
			if roleOf(req, a.Ref) == "combobox" { // form_input would choose an option: type as a person does
				out = append(out, member("left_click", map[string]any{"target": target}),
					member("key", map[string]any{"text": "ctrl+a"}), member("type", map[string]any{"text": a.Text}))
			} else {
				out = append(out, member("form_input", map[string]any{"target": target, "value": a.Text}))
			}
			if a.Submit {
				out = append(out, member("key", map[string]any{"text": "Return"}))
			}
		case "select":
			out = append(out, member("form_input", map[string]any{"target": target, "value": a.Option}))
		case "press":
			key := a.Key
			if k, ok := xdotoolKeys[key]; ok {
				key = k
			}
			out = append(out, member("key", map[string]any{"text": key}))
		case "scroll":
			out = append(out, member("scroll", map[string]any{"coordinate": scrollAt, "scroll_direction": a.Direction, "scroll_amount": scrollNotches}))
		case "goto":
			out = append(out, member("navigate", map[string]any{"url": a.URL}))
		case "back":
			out = append(out, member("navigate", map[string]any{"url": "back"}))
		}
	}
	return out
}

// roleOf is the role of the element ref in the latest page outline of the
// conversation, or "".
func roleOf(req *ChatRequest, ref string) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" || !strings.Contains(m.Content, "[ref=") {
			continue
		}
		for _, l := range outline.Parse(m.Content) {
			if l.Ref == ref {
				return l.Role
			}
		}
		return ""
	}
	return ""
}

func member(name string, input map[string]any) Call {
	b, _ := json.Marshal(input)
	return Call{Name: ToolsetBrowser + ":" + name, Args: string(b)}
}
