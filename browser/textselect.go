package browser

import (
	"fmt"
	"strconv"

	"github.com/webagent/webagent/contract"
)

// Text selection: a range of an element's text is selected with the
// mouse, pressed before its first character and released after its last,
// so that the page sees mousedown, selectstart, selectionchange and
// mouseup as from a person. Text fields get setSelectionRange (their
// select event fires).

// textRangeJS finds the range of an element's text, given as the text
// itself or as offsets into the element's text with its spaces collapsed.
// It changes nothing. For a field it returns the offsets; else the mouse
// points before the first and after the last character, checked with the
// caret hit test, when they are in the viewport.
var textRangeJS = program("textRange")

// applyRangeJS selects the range directly: offsets in a field, else the
// range textRangeJS describes; with clear, it only clears the selection.
// It returns the selected text, spaces collapsed.
var applyRangeJS = program("applyRange")

type textRange struct {
	Error, Kind, Text string
	Start, End, Len   int
	From, To          []float64
}

// doSelectText selects a range of the text of a.Ref's element with the
// mouse: a.Text, or the characters a.Start to a.End.
func (o *op) doSelectText(a contract.Action) (string, error) {
	el, err := o.resolve(a.Ref)
	if err != nil {
		return "", err
	}
	start, end := -1, -1
	if a.Text == "" { // then Start and End are set (Validate)
		start, end = *a.Start, *a.End
	}
	if _, err := o.elementBox(el); err != nil {
		return "", err
	}
	var r textRange
	if err := o.callEl(el, textRangeJS, &r, a.Text, start, end); err != nil {
		return "", err
	}
	switch r.Error {
	case "notfound":
		return "", contract.ActionErrorf("%s does not contain the text %q; nothing was selected; its text begins %q", el.desc, a.Text, r.Text)
	case "offsets":
		return "", contract.ActionErrorf("offsets %d to %d are not a range of the text of %s, which has %d characters (spaces collapsed); nothing was selected", start, end, el.desc, r.Len)
	}
	how := ""
	var got string
	if r.Kind == "text" && len(r.From) == 2 && len(r.To) == 2 {
		if err := o.callEl(el, applyRangeJS, nil, "", 0, 0, true, false); err != nil {
			return "", err
		}
		moves := pathMoves([]contract.Point{{X: r.From[0], Y: r.From[1]}, {X: r.To[0], Y: r.To[1]}}, 12)
		if err := o.mouseSweep(moves); err != nil {
			return "", err
		}
		if err := o.callEl(el, applyRangeJS, &got, "", 0, 0, false, false); err != nil {
			return "", err
		}
	}
	if got != r.Text {
		// No mouse path selects it exactly (or a field): select it directly.
		if err := o.callEl(el, applyRangeJS, &got, "", r.Start, r.End, false, true); err != nil {
			return "", err
		}
		how = " (directly, not with the mouse)"
		if r.Kind == "field" {
			how = ""
		}
	}
	if got != r.Text {
		return "", contract.ActionErrorf("could not select %q in %s: the page selected %q instead (it may forbid selecting)", r.Text, el.desc, got)
	}
	return fmt.Sprintf("selected %s in %s (characters %d to %d)%s", strconv.Quote(r.Text), el.desc, r.Start, r.End, how), nil
}
