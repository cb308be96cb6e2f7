package liveview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// TestPersonSteps: a person's inputs, as the browser named their
// targets, become the steps a routine redoes: the click that focused a
// field gives way to the typing in it, one type per stretch of typing
// with the value as it ended, the press that showed a select's options to
// the choice, a press that became a drag is dropped, Enter is a step where
// it does not type, and the background is nothing.
func TestPersonSteps(t *testing.T) {
	button := contract.PersonTarget{Role: "button", Name: "Next", URL: "https://a.test/"}
	code := contract.PersonTarget{Role: "textbox", Name: "Code", Field: true, URL: "https://a.test/"}
	notes := contract.PersonTarget{Role: "textbox", Name: "Notes", Field: true, Multiline: true}
	size := contract.PersonTarget{Role: "combobox", Name: "Size"}
	valued := func(tg contract.PersonTarget, v string) contract.PersonTarget {
		tg.Value, tg.HasValue = v, true
		return tg
	}
	down := func(x float64, clicks int) contract.PersonInput {
		return contract.PersonInput{Kind: contract.InputMouseDown, X: x, Y: 10, Button: "left", Clicks: clicks}
	}
	up := func(x float64) contract.PersonInput {
		return contract.PersonInput{Kind: contract.InputMouseUp, X: x, Y: 10, Button: "left", Clicks: 1}
	}
	key := func(k, text string) contract.PersonInput {
		return contract.PersonInput{Kind: contract.InputKeyDown, Key: k, Text: text}
	}
	var p personSteps
	for _, s := range []struct {
		in contract.PersonInput
		tg contract.PersonTarget
	}{
		{down(10, 1), button}, {up(10), contract.PersonTarget{}}, // a click
		{down(10, 1), contract.PersonTarget{}}, {up(10), contract.PersonTarget{}}, // the background
		{down(10, 1), button}, {up(60), contract.PersonTarget{}}, // a drag
		{down(10, 1), code}, {up(10), contract.PersonTarget{}}, // focuses the field
		{key("ArrowLeft", ""), valued(code, "")}, // edits nothing
		{key("4", "4"), valued(code, "4")},
		{contract.PersonInput{Kind: contract.InputText, Text: "29"}, valued(code, "429")},
		{key("Backspace", ""), valued(code, "42")},
		{key("Enter", ""), valued(code, "42")},
		{down(10, 1), size}, {up(10), contract.PersonTarget{}}, // shows the options
		{contract.PersonInput{Kind: contract.InputSelectOption, X: 10, Y: 10, Text: "Large"}, size},
		{down(10, 1), notes}, {up(10), contract.PersonTarget{}},
		{key("a", "a"), valued(notes, "a")},
		{key("Enter", ""), valued(notes, "a\n")}, // types a line
		{key("Escape", ""), valued(notes, "a\n")},
		{down(10, 1), button}, {down(10, 2), button}, {up(10), contract.PersonTarget{}}, // a double click's second press
		{key("x", "x"), button}, // keys on a button type nothing
	} {
		p.add(s.in, s.tg)
	}
	var got []string
	for _, a := range p.acts {
		el := ""
		if a.Element != nil {
			el = fmt.Sprintf(" %s %q", a.Element.Role, a.Element.Name)
		}
		got = append(got, a.Tool+el+" "+a.Text)
	}
	want := []string{
		`click button "Next" `,
		`type textbox "Code" 42`,
		`press Enter`,
		`select combobox "Size" Large`,
		"type textbox \"Notes\" a\n",
		`press Escape`,
		`click button "Next" `,
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("steps\n%q\nwant\n%q", got, want)
	}
	p = personSteps{}
	for range maxPersonActions + 10 {
		p.add(down(10, 1), button)
		p.add(up(10), contract.PersonTarget{})
	}
	if len(p.acts) != maxPersonActions {
		t.Errorf("%d steps kept, want at most %d", len(p.acts), maxPersonActions)
	}
}
