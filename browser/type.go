package browser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"

	"github.com/webagent/webagent/contract"
)

// typeKindJS tells how text goes into an element.
var typeKindJS = program("typeKind")

// selectAllJS focuses a text field (when the click did not) and selects
// its text; it returns whether the field has the focus.
var selectAllJS = program("selectAll")

// setValueJS sets a picker input's value directly.
var setValueJS = program("setValue")

// focusJS focuses a text field and reports whether it has the focus.
var focusJS = program("focus")

// valueJS returns the text of a field or editable element.
var valueJS = program("value")

// clearJS empties a text field directly, firing input.
var clearJS = program("clear")

// echoesJS counts where a text shows in the page's own text.
var echoesJS = program("echoes")

// echo is what echoesJS returns: how often the text shows, and the line
// of its last occurrence.
type echo struct {
	N     int
	Where string
}

var valueFormats = map[string]string{
	"date":           "a date as YYYY-MM-DD",
	"time":           "a time as HH:MM",
	"datetime-local": "a date and time as YYYY-MM-DDTHH:MM",
	"month":          "a month as YYYY-MM",
	"week":           "a week as YYYY-Www",
	"color":          "a colour as #rrggbb",
	"range":          "a number within its range",
}

// typePrepJS reads what typing needs of a field before the keys, in one
// call (typePrep.js).
var typePrepJS = program("typePrep")

// typePrep is what typePrepJS returns.
type typePrep struct {
	Kind struct {
		Kind, Type, Why, Value string
		Secret, Keys           bool
	}
	Origin string
	Before *echo      // where the text showed, for a field the page takes keys on (no secret)
	Aim    *aimAnswer // for a text field
}

// doType replaces the text of a field with a.Text (a secret only in its
// own origins), reads it back, and presses Enter after it if a.Submit.
func (o *op) doType(a contract.Action) (string, error) {
	if strings.TrimSpace(a.Ref) == "" {
		return o.typeFocused(a) // where the focus is (native.go)
	}
	text, submit := a.Text, a.Submit
	// A secret reaches the page only once its origin is checked: until
	// then the page is not given the text (echoText), which only the echo
	// count needs.
	echoText := &text
	if a.Origins != nil {
		echoText = nil
	}
	var prep typePrep
	el, ran, err := o.resolveWith(a.Ref, typePrepJS, &prep, echoText, hitFractions, pageBinding)
	if err != nil {
		return "", err
	}
	if !ran {
		// An element of a cross-origin frame: one call at a time.
		if prep, err = o.prepareType(el); err != nil {
			return "", err
		}
	}
	if err := checkSecretOrigin(a, el, prep.Origin); err != nil {
		return "", err
	}
	kind := prep.Kind
	if kind.Kind == "text" && kind.Keys && !kind.Secret && prep.Before == nil {
		// A page that takes the keys itself may show them outside the
		// field: where the text shows before typing tells that from a
		// refusal (checkTyped).
		prep.Before = new(echo)
		if err := o.callEl(el, echoesJS, prep.Before, text); err != nil {
			return "", err
		}
	}
	old := kind.Value
	switch kind.Kind {
	case "no":
		return "", contract.ActionErrorf("%s cannot be typed into: %s", el.desc, kind.Why)
	case "value":
		// Pickers take their value in a fixed format, not keystrokes.
		var res struct{ OK bool }
		if err := o.callEl(el, setValueJS, &res, text); err != nil {
			return "", err
		}
		if !res.OK {
			return "", contract.ActionErrorf("%s does not accept %q: it takes %s", el.desc, text, valueFormats[kind.Type])
		}
	default:
		if err := o.fillFrom(el, text, kind.Keys, prep.Aim); err != nil {
			return "", err
		}
	}
	// A secret's text (the action names its origins) is never echoed,
	// whatever the field: its length says it was typed.
	secret := kind.Secret || a.Origins != nil
	typed := strconv.Quote(text)
	if secret {
		typed = fmt.Sprintf("%d characters", len([]rune(text)))
	}
	out := fmt.Sprintf("typed %s into %s", typed, el.desc)
	if kind.Kind == "text" {
		note, err := o.checkTyped(el, text, old, secret, prep.Before)
		if err != nil {
			return "", err
		}
		out += note
	}
	if !submit {
		return out, nil
	}
	// What Enter did is its own report: the read-back above was taken
	// before it, as the page may clear the field when it takes the line.
	did, err := o.sendInput(func() error { return o.press(chord{key: namedKeys["enter"]}) })
	if err != nil {
		return "", err
	}
	return out + "; then pressed Enter" + did, nil
}

// prepareType is typePrepJS for an element of a cross-origin frame, one
// program at a time, without the echo count and the aim: doType counts,
// and fill aims, itself.
func (o *op) prepareType(el element) (typePrep, error) {
	var prep typePrep
	if err := o.callEl(el, typeKindJS, &prep.Kind); err != nil {
		return prep, err
	}
	if err := o.callEl(el, originJS, &prep.Origin); err != nil {
		return prep, err
	}
	return prep, nil
}

// fill replaces the text of el with text. It clicks el to focus it, as a
// user would. Where the page can see key events (keys), it then selects the
// text and deletes it with the keyboard and types text key by key; where it
// cannot, the text is selected and replaced in one edit, which gives the
// page the same input events without a round trip per key.
func (o *op) fill(el element, text string, keys bool) error {
	return o.fillFrom(el, text, keys, nil)
}

// fillFrom is fill with aimJS's first answer for el, when the caller had
// it (typePrepJS); nil to ask.
func (o *op) fillFrom(el element, text string, keys bool, first *aimAnswer) error {
	b := o.b
	var at aimed
	var err error
	if first != nil {
		at, err = o.aimFrom(el, "typing into", true, "", *first)
	} else {
		at, err = o.aim(el, "typing into", true)
	}
	if err != nil {
		return err
	}
	if err := o.clickAt(at); err != nil {
		return err
	}
	if keys || text == "" {
		if err := o.clear(el); err != nil {
			return err
		}
		return o.typeText(text)
	}
	var focused bool
	if err := o.callEl(el, selectAllJS, &focused); err != nil {
		return err
	}
	if !focused {
		return contract.ActionErrorf("%s did not take the keyboard focus; click it first or take a new snapshot", el.desc)
	}
	if _, err := cdp.Call(o.ctx, b.target, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		return fmt.Errorf("inserting text: %w", err)
	}
	return nil
}

// clear selects the text of the focused el and deletes it with the
// keyboard, as a user replacing a value would.
func (o *op) clear(el element) error {
	var focused bool
	if err := o.callEl(el, focusJS, &focused); err != nil {
		return err
	}
	if !focused {
		return contract.ActionErrorf("%s did not take the keyboard focus; click it first or take a new snapshot", el.desc)
	}
	var cur string
	if err := o.callEl(el, valueJS, &cur); err != nil {
		return err
	}
	if cur == "" {
		return nil
	}
	selectAll, _ := parseChord("Control+A")
	if err := o.press(selectAll); err != nil {
		return err
	}
	if err := o.press(chord{key: namedKeys["backspace"]}); err != nil {
		return err
	}
	if err := o.callEl(el, valueJS, &cur); err != nil {
		return err
	}
	if cur != "" {
		// The page kept the text (a key handler); clear it directly.
		return o.callEl(el, clearJS, nil)
	}
	return nil
}

// restoreJS puts a text field's value back, as a page's own script would.
var restoreJS = program("restore")

// checkTyped reads a text field back after typing: the page may have
// rejected keys, reformatted the text or cut it. It returns a note for the
// outcome ("" when the field holds the text). When the field refused every
// key and ended empty, its old value is put back and the error says so.
// With before (where the text showed before typing), a page that took
// the keys itself and shows the text elsewhere is told from a refusal.
func (o *op) checkTyped(el element, text, old string, secret bool, before *echo) (string, error) {
	var got string
	if err := o.callEl(el, valueJS, &got); err != nil {
		return "", err
	}
	if got == text || strings.TrimSpace(got) == strings.TrimSpace(text) {
		return "", nil
	}
	show := func(s string) string {
		if secret {
			return fmt.Sprintf("%d characters", len([]rune(s)))
		}
		return strconv.Quote(s)
	}
	if before != nil {
		var after echo
		if err := o.callEl(el, echoesJS, &after, text); err != nil {
			return "", err
		}
		if after.N > before.N {
			return fmt.Sprintf("; the page took the keys itself: the field holds %s, and %s now shows in the page (%s)",
				show(got), show(text), strconv.Quote(after.Where)), nil
		}
	}
	if got == "" && text != "" {
		if old != "" {
			if err := o.callEl(el, restoreJS, nil, old); err != nil {
				return "", err
			}
		}
		msg := fmt.Sprintf("%s rejected the keys: typing %s left it empty", el.desc, show(text))
		if old != "" {
			msg += fmt.Sprintf("; its previous value %s was put back", show(old))
		}
		return "", contract.ActionErrorf("%s; it may take another format, or be set with its buttons, arrow keys or set_slider", msg)
	}
	return fmt.Sprintf("; but the page rejected or changed it: it now holds %s", show(got)), nil
}
