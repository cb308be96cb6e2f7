package liveview

import (
	"math"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// personSteps records what a person holding control does, element by
// element, for the takeover's record (agent.Handback.Actions), which a
// routine can redo: a click on a control; the text a field held when
// they left it, one type for each stretch of typing in a field (the click
// that focused it is not kept); a choice in a select (not the press that
// showed its options); Enter or Escape pressed where they do not type (a
// multi-line field). A press that became a drag, and input on nothing a
// snapshot would name (the page's background, another site's frame), are
// left out. It keeps the text typed, in clear, until the hold ends: the
// loop records it only by the name of the secret that masks it.
type personSteps struct {
	acts []agent.PersonAction
	// pressed is where the last click's press was while its release has
	// not come: a release farther than dragSlop makes it a drag.
	pressed *contract.PersonInput
}

// maxPersonActions bounds a hold's record.
const maxPersonActions = 500

// dragSlop is how far, in CSS pixels, a press may move before its release
// and still be a click.
const dragSlop = 8

// add records in, whose target is tg (contract.PersonRecorder).
func (p *personSteps) add(in contract.PersonInput, tg contract.PersonTarget) {
	switch in.Kind {
	case contract.InputMouseDown:
		p.pressed = nil
		if tg.Role == "" || in.Clicks > 1 || !p.push(agent.PersonAction{Tool: contract.ActClick, Element: element(tg), URL: tg.URL}) {
			return
		}
		p.pressed = &in
	case contract.InputMouseUp:
		if p.pressed != nil && math.Hypot(in.X-p.pressed.X, in.Y-p.pressed.Y) > dragSlop {
			p.acts = p.acts[:len(p.acts)-1]
		}
		p.pressed = nil
	case contract.InputSelectOption:
		p.pressed = nil
		if tg.Role == "" {
			return
		}
		if last := p.last(); last != nil && (last.Tool == contract.ActClick || last.Tool == contract.ActSelect) && same(last.Element, tg) {
			p.acts = p.acts[:len(p.acts)-1]
		}
		p.push(agent.PersonAction{Tool: contract.ActSelect, Element: element(tg), Text: in.Text, URL: tg.URL})
	case contract.InputKeyDown, contract.InputText:
		p.typed(in, tg)
	}
}

// typed records a key or a text: the field's value as it left it, and a
// press of Enter or Escape.
func (p *personSteps) typed(in contract.PersonInput, tg contract.PersonTarget) {
	p.pressed = nil
	if tg.Field && tg.HasValue {
		last := p.last()
		switch {
		case last != nil && last.Tool == contract.ActType && same(last.Element, tg):
			last.Text = tg.Value
		case edits(in, tg):
			if last != nil && last.Tool == contract.ActClick && same(last.Element, tg) {
				p.acts = p.acts[:len(p.acts)-1] // the click that focused it
			}
			p.push(agent.PersonAction{Tool: contract.ActType, Element: element(tg), Text: tg.Value, URL: tg.URL})
		}
	}
	if in.Kind == contract.InputKeyDown && (in.Key == "Enter" || in.Key == "Escape") && in.Modifiers&^modShift == 0 && !(tg.Multiline && in.Key == "Enter") {
		p.push(agent.PersonAction{Tool: contract.ActPress, Text: in.Key, URL: tg.URL})
	}
}

// modShift is Shift in PersonInput.Modifiers.
const modShift = 8

// edits reports whether in changes a field's text: a text, a key that
// types, Backspace or Delete, a cut or a paste.
func edits(in contract.PersonInput, tg contract.PersonTarget) bool {
	if in.Kind == contract.InputText {
		return true
	}
	switch in.Key {
	case "Backspace", "Delete":
		return true
	case "Enter":
		return tg.Multiline
	case "v", "x", "V", "X":
		if in.Modifiers&(2|4) != 0 {
			return true
		}
	}
	return in.Text != "" && in.Modifiers&(2|4) == 0
}

// push adds a; false when the record is full.
func (p *personSteps) push(a agent.PersonAction) bool {
	if len(p.acts) >= maxPersonActions {
		return false
	}
	p.acts = append(p.acts, a)
	return true
}

func (p *personSteps) last() *agent.PersonAction {
	if len(p.acts) == 0 {
		return nil
	}
	return &p.acts[len(p.acts)-1]
}

func element(tg contract.PersonTarget) *agent.Element {
	return &agent.Element{Role: tg.Role, Name: tg.Name, Ref: tg.Ref}
}

// same reports whether el is tg's element.
func same(el *agent.Element, tg contract.PersonTarget) bool {
	return el != nil && el.Role == tg.Role && el.Name == tg.Name
}
