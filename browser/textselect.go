package browser

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// Text selection: a range of an element's text is selected with the
// mouse, pressed before its first character and released after its last,
// so that the page sees mousedown, selectstart, selectionchange and
// mouseup as from a person. Text fields get setSelectionRange (their
// select event fires). Without a ref, the text is looked for in the whole
// page's rendered text (findText) and must occur exactly once.

// textRangeJS finds the range of an element's text, given as the text
// itself or as offsets into the element's text with its spaces collapsed.
// It changes nothing. A text found more than once is an error that lists
// where. For a field it returns the offsets; else the mouse points before
// the first and after the last character, checked with the caret hit
// test, when they are in the viewport.
var textRangeJS = program("textRange")

// applyRangeJS selects the range directly: offsets in a field, else the
// range textRangeJS describes; with clear, it only clears the selection.
// It returns the selected text, spaces collapsed.
var applyRangeJS = program("applyRange")

type textRange struct {
	Error, Kind, Text string
	Start, End, Len   int
	Count             int
	Places            []textPlace
	From, To          []float64
}

// textPlace is one place a text occurs: its offsets in the text of the
// element that holds it, and the words around it.
type textPlace struct {
	Ref, Desc     string // the holding element, for a place found on the page
	Start, End    int
	Before, After string
}

// doSelectText selects a.Text, or the characters a.Start to a.End, with
// the mouse: in the text of a.Ref's element, or without a ref, where
// a.Text occurs once on the page.
func (o *op) doSelectText(a contract.Action) (string, error) {
	var el element
	var err error
	if strings.TrimSpace(a.Ref) == "" { // then Text is set (Validate)
		el, err = o.findText(a.Text)
	} else {
		el, err = o.resolve(a.Ref)
	}
	if err != nil {
		return "", err
	}
	start, end := -1, -1
	if strings.TrimSpace(a.Text) == "" { // then Start and End are set (Validate)
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
	case "ambiguous":
		return "", contract.ActionErrorf("the text %q appears %d times in %s; nothing was selected: give start and end to select one of them: %s",
			a.Text, r.Count, el.desc, listPlaces(a.Text, r.Places, r.Count, false))
	}
	return o.selectRange(el, r)
}

// selectRange selects the range r of el's text: with the mouse when r has
// points for it, else directly.
func (o *op) selectRange(el element, r textRange) (string, error) {
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

// findTextJS finds a text in the rendered text of the page's body, white
// space collapsed: how often and where it occurs, or the element that
// holds it.
var findTextJS = program("findText")

// findText returns the element that holds text, which must occur exactly
// once in the rendered text of the page's main frame. A text that is not
// there, or is there more than once, is an *contract.ActionError that
// says so, and where.
func (o *op) findText(text string) (element, error) {
	r, err := o.eval(runtime.EvaluateParams{Expression: "document.body || document.documentElement", ObjectGroup: o.objectGroup()})
	if err != nil {
		return element{}, err
	}
	if r.ObjectID == "" {
		return element{}, contract.ActionErrorf("no text %q on the page, which has no content; nothing was selected", text)
	}
	page := element{id: r.ObjectID, desc: "the page"}
	var found struct {
		Count  int
		Places []textPlace
	}
	if err := o.callEl(page, findTextJS, &found, text, false); err != nil {
		return element{}, err
	}
	switch {
	case found.Count == 0:
		return element{}, contract.ActionErrorf("no text %q on the page; nothing was selected; "+
			"copy the text from the snapshot (text in a field or a frame needs its element's ref)", text)
	case found.Count > 1 || len(found.Places) == 0:
		return element{}, contract.ActionErrorf("text %q appears %d times on the page; nothing was selected: "+
			"give the ref of the element that holds the one you mean, with the text (or start and end, when it holds it more than once): %s",
			text, found.Count, listPlaces(text, found.Places, found.Count, true))
	}
	el, ok, err := o.childEl(page, findTextJS, text, true)
	if err != nil {
		return element{}, err
	}
	if !ok {
		return element{}, contract.ActionErrorf("no text %q on the page any more: it went away as it was found; nothing was selected", text)
	}
	p := found.Places[0]
	el.ref, el.desc = p.Ref, p.Desc
	if p.Ref != "" {
		el.desc += " [ref=" + p.Ref + "]"
	}
	return el, nil
}

// aroundChars is how many characters before and after a place the page
// programs give (AROUND in textRange.js and findText.js).
const aroundChars = 30

// listPlaces writes the places of text for an error: each with its offsets
// and the words around it, and with its holding element when holders is
// set; "and N more" when count is more than listed.
func listPlaces(text string, places []textPlace, count int, holders bool) string {
	parts := make([]string, 0, len(places)+1)
	for _, p := range places {
		s := fmt.Sprintf("characters %d to %d (%s)", p.Start, p.End, strconv.Quote(around(text, p)))
		if holders {
			where := p.Desc
			if p.Ref != "" {
				where += " [ref=" + p.Ref + "]"
			}
			s = where + ", " + s
		}
		parts = append(parts, s)
	}
	if n := count - len(places); n > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", n))
	}
	return strings.Join(parts, "; ")
}

// around is text at a place with the words before and after it, cut at
// whole words, with … where it was cut.
func around(text string, p textPlace) string {
	before, after := p.Before, p.After
	if i := strings.IndexByte(before, ' '); i >= 0 && utf8.RuneCountInString(before) >= aroundChars {
		before = "…" + before[i+1:]
	}
	if i := strings.LastIndexByte(after, ' '); i >= 0 && utf8.RuneCountInString(after) >= aroundChars {
		after = after[:i] + "…"
	}
	return before + strings.Join(strings.Fields(text), " ") + after
}
