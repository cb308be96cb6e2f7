package browser

import (
	"context"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Do performs one action and describes what happened, such as `clicked
// link "Pricing" [ref=e7]; navigated to https://x.org/pricing ("Pricing")`.
// The outcome's Navigated is set when the action's tab loaded a new
// document or changed its URL, or another tab became the current one.
//
//   - goto loads a URL (one without a scheme gets https://) and waits for
//     DOMContentLoaded, then up to 1.5 s for load.
//   - click scrolls the element into view, waits a few animation frames for
//     it to stop moving and be enabled, checks that nothing covers the point
//     it will click (else it does not click and says what covers it), and
//     clicks with mouse events. A navigation it starts is waited for like
//     goto's.
//   - type clicks the field, selects and deletes its text with the keyboard
//     and types the new text key by key (Input.insertText for characters no
//     key types), then presses Enter if Submit is set. Date, time, colour and
//     range inputs get their value set directly.
//   - select picks the option of a native <select> whose label or value
//     matches, exactly or else ignoring case, and fires input and change. For
//     an ARIA listbox or combobox it opens the popup with a click (or types
//     the option's text into an editable combobox) and clicks the option.
//     An option that is not there is an error that lists the options, or of
//     a long list the closest ones.
//   - options lists every option of a native select (the snapshot shows
//     the first and last of a long one), or those an ARIA listbox or
//     combobox shows, with the chosen ones marked.
//   - check and uncheck click a checkbox, radio button or switch (or the
//     label of a hidden styled one) unless it is already in that state.
//   - press sends a key or chord ("Enter", "Shift+Tab", "Control+A") to the
//     focused element.
//   - hover moves the mouse over the element.
//   - scroll turns the mouse wheel at the viewport's centre by about a
//     viewport in a direction (up, down, left, right), or brings the element
//     of Ref into view.
//   - drag presses the mouse on the element, moves it in steps onto the
//     element of ToRef (or by DX, DY) and releases it; HTML5 drag and drop
//     is carried out with drag events.
//   - upload sets the files of a file input; the files must lie inside
//     Options.UploadDir.
//   - back and forward move in the tab's history.
//   - wait_for waits for a change, for as long as ctx allows: Text shown
//     once more than when the wait began (also in same-origin frames and
//     open shadow roots; inside Ref when both are given), or gone with
//     State disappear; or the element of Ref visible, gone or enabled.
//   - extract returns the page's main content as Markdown, 8,000 characters
//     at a time.
//   - mouse clicks, double-clicks, right-clicks or hovers at a point: At in
//     viewport CSS pixels, or Anchor of Ref's box moved by DX, DY. A point
//     outside the viewport or the box is refused before anything is sent.
//   - mouse_path presses the left button at the first point of Path, moves
//     through the others in steps of a few pixels and releases it at the
//     last; with Ref, the points are offsets from its top-left corner.
//   - drag also goes from a point (At, or Anchor of Ref) to a point (To, or
//     ToAnchor of ToRef).
//   - set_slider sets a range input's value, or moves an ARIA slider with
//     its keys (or along its track), and reads the value back.
//   - multi_select adds Options to and removes Remove from a multiple
//     select (or an ARIA listbox with several choices), keeping the others;
//     nothing changes unless every option is found.
//   - select_text selects a range of an element's text with the mouse, by
//     Text or by Start and End offsets into its text (spaces collapsed);
//     without Ref, Text must occur once in the page's rendered text (main
//     frame), else nothing is selected and the error lists where it is.
//   - wait waits MS milliseconds.
//
// click and the pointer actions say whether the page changed; type reads
// the field back and says when the page rejected or changed the text.
//
// An action whose element or document goes away in a navigation (the page
// navigated while it ran) waits for the new document and returns an
// outcome that says "the page navigated to URL (title) during ACTION",
// not an error.
//
// An action is checked with its Validate before anything is sent. Actions
// that break its rules, unknown refs and keys, stale refs, elements that
// are hidden, covered or cannot take the action, and URLs that do not load
// are *contract.ActionError.
func (b *Browser) Do(ctx context.Context, a contract.Action) (contract.Outcome, error) {
	if err := a.Validate(); err != nil {
		return contract.Outcome{}, err
	}
	act, ok := actions[a.Name]
	if !ok {
		return contract.Outcome{}, contract.ActionErrorf("%s is not an action of this browser", a.Name)
	}
	o, err := b.begin(ctx)
	if err != nil {
		return contract.Outcome{}, err
	}
	defer o.end()
	s0 := b.nav.state()
	writes0 := b.writes.mark()
	out, err := act(o, a)
	if err != nil {
		nav, ok := o.navigatedDuring(a, s0, err)
		if !ok {
			return contract.Outcome{}, o.fail(a.Name, err)
		}
		out = nav
	}
	if notes := b.notices.since(o.noticeMark); len(notes) > 0 {
		out += "; " + strings.Join(notes, "; ")
	}
	if refused := b.refusedSummary(); refused != "" {
		out += "; " + refused
	}
	if blocked := b.writes.since(writes0); causedWrite(a.Name, s0.url, blocked) {
		// The action made the page write (Options.ReadOnly): an error
		// that says what would have been sent.
		return contract.Outcome{}, blockedError(out, blocked)
	}
	// The tab the action began in loaded a document or changed its URL, or
	// another tab is now the current one (also one that replaced a crashed
	// or closed tab before the action): the snapshot's refs are gone.
	moved := b.cur != o.tab || o.began != o.tab || o.tab.nav.state().moved(s0)
	return contract.Outcome{Text: out, Navigated: moved}, nil
}

// actions are the browser's half of the agent's tools: one entry per
// action of the contract (contract.ActionNames), each a method of op that
// performs it.
var actions = map[string]func(o *op, a contract.Action) (string, error){
	contract.ActGoto:        (*op).doGoto,
	contract.ActClick:       (*op).doClick,
	contract.ActType:        (*op).doType,
	contract.ActSelect:      (*op).doSelect,
	contract.ActCheck:       (*op).doCheck,
	contract.ActUncheck:     (*op).doCheck,
	contract.ActPress:       (*op).doPress,
	contract.ActHover:       (*op).doHover,
	contract.ActScroll:      (*op).doScroll,
	contract.ActDrag:        (*op).doDrag,
	contract.ActUpload:      (*op).doUpload,
	contract.ActBack:        (*op).doBack,
	contract.ActForward:     (*op).doForward,
	contract.ActTabs:        (*op).doTabs,
	contract.ActWaitFor:     (*op).doWaitFor,
	contract.ActExtract:     (*op).doExtract,
	contract.ActBox:         (*op).doBox,
	contract.ActReadRegion:  (*op).doReadRegion,
	contract.ActOptions:     (*op).doOptions,
	contract.ActMouse:       (*op).doMouse,
	contract.ActMousePath:   (*op).doMousePath,
	contract.ActSetSlider:   (*op).doSetSlider,
	contract.ActMultiSelect: (*op).doMultiSelect,
	contract.ActSelectText:  (*op).doSelectText,
	contract.ActWait:        (*op).doWait,
	contract.ActPageTool:    (*op).doPageTool,
}
