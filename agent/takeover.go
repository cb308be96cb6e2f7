package agent

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/webagent/webagent/contract"
)

// PersonAction is one thing a person did while they held control, at the
// level of elements, as a live view records it (package liveview): a click
// on a control, the text a field held when they left it, a choice in a
// select, a key pressed (Enter, Escape).
type PersonAction struct {
	// Tool is click, type, select or press, as the page tools name them.
	Tool string
	// Element is the element acted on, as a snapshot names it (its Ref
	// when a snapshot gave it one); nil for press.
	Element *Element
	// Text is for type the field's value as the person left it, which is
	// never recorded (the record names the secret that masks it); for
	// select the option chosen; for press the key.
	Text string
	// URL is the page it was done on.
	URL string
}

// personDone is the outcome of a call a person made in a takeover.
const personDone = "done by a person in the live view"

// personCalls are a person's actions as the calls of their takeover's
// record, each with its arguments as a model's call has them and its
// element in Element: what they typed by the name of the secret that
// masks it from then on (TYPED_BY_PERSON_n, or the task's own secret's
// name when they typed one), never the text. url is the page after the
// hold, for an action that does not say where it was done.
func (r *run) personCalls(acts []PersonAction, url string) []ActionRecord {
	var out []ActionRecord
	for _, a := range acts {
		args := map[string]string{}
		var el *Element
		if a.Element != nil && a.Element.Role != "" {
			el = &Element{Role: a.Element.Role, Name: r.sec.Mask(a.Element.Name), Ref: a.Element.Ref}
			args["ref"] = a.Element.Ref
		}
		where := a.URL
		if where == "" {
			where = url
		}
		switch a.Tool {
		case contract.ActClick:
		case contract.ActType:
			args["text"] = r.typedSecret(a.Text, where)
		case contract.ActSelect:
			args["option"] = r.sec.Mask(a.Text)
		case contract.ActPress:
			args["key"], el = a.Text, nil
			delete(args, "ref")
		default:
			continue
		}
		if el == nil && a.Tool != contract.ActPress {
			continue
		}
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // <secret>NAME</secret>, as a model's call writes it
		if enc.Encode(args) != nil {
			continue
		}
		out = append(out, ActionRecord{Tool: a.Tool, Args: json.RawMessage(strings.TrimSpace(b.String())), Outcome: personDone, Element: el})
	}
	return out
}

// wholeSecret matches a text that is one secret's placeholder.
var wholeSecret = regexp.MustCompile(`^<secret>[^<>]+</secret>$`)

// typedSecret is the placeholder of what a person typed into a field: the
// secret it is already (a task's, or one they typed before), else a new
// TYPED_BY_PERSON_n, masked from then on as maskTyped does (a value
// shorter than minMaskedTyping gets its name but is not masked elsewhere).
func (r *run) typedSecret(v, url string) string {
	if v == "" {
		return "" // they emptied the field
	}
	if m := r.sec.Mask(v); wholeSecret.MatchString(m) {
		return m
	}
	r.typed++
	name := fmt.Sprintf("TYPED_BY_PERSON_%d", r.typed)
	if len([]rune(v)) >= minMaskedTyping {
		r.sec.Add(name, v, url)
	}
	return "<secret>" + name + "</secret>"
}
