package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

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
//     Text or by Start and End offsets into its text (spaces collapsed).
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
	out, err := act(b, o, a)
	if err != nil {
		nav, ok := b.navigatedDuring(o, a, s0, err)
		if !ok {
			return contract.Outcome{}, o.fail(a.Name, err)
		}
		out = nav
	}
	if notes := b.notices.since(o.noticeMark); len(notes) > 0 {
		out += "; " + strings.Join(notes, "; ")
	}
	// The tab the action began in loaded a document or changed its URL, or
	// another tab is now the current one (also one that replaced a crashed
	// or closed tab before the action): the snapshot's refs are gone.
	moved := b.cur != o.tab || o.began != o.tab || o.tab.nav.state().moved(s0)
	return contract.Outcome{Text: out, Navigated: moved}, nil
}

// actions are the browser's half of the agent's tools: one entry per
// action name.
var actions = map[string]func(b *Browser, o *op, a contract.Action) (string, error){
	contract.ActGoto:  func(b *Browser, o *op, a contract.Action) (string, error) { return b.doGoto(o, a.URL) },
	contract.ActClick: func(b *Browser, o *op, a contract.Action) (string, error) { return b.doClick(o, a.Ref) },
	contract.ActType: func(b *Browser, o *op, a contract.Action) (string, error) {
		if err := b.checkSecretOrigin(o, a); err != nil { // secretorigin.go
			return "", err
		}
		return b.doType(o, a.Ref, a.Text, a.Submit)
	},
	contract.ActSelect:  func(b *Browser, o *op, a contract.Action) (string, error) { return b.doSelect(o, a.Ref, a.Option) },
	contract.ActCheck:   func(b *Browser, o *op, a contract.Action) (string, error) { return b.doCheck(o, a.Ref, true) },
	contract.ActUncheck: func(b *Browser, o *op, a contract.Action) (string, error) { return b.doCheck(o, a.Ref, false) },
	contract.ActPress:   func(b *Browser, o *op, a contract.Action) (string, error) { return b.doPress(o, a.Key) },
	contract.ActHover:   func(b *Browser, o *op, a contract.Action) (string, error) { return b.doHover(o, a.Ref) },
	contract.ActScroll: func(b *Browser, o *op, a contract.Action) (string, error) {
		if strings.TrimSpace(a.Ref) != "" {
			return b.doScrollTo(o, a.Ref)
		}
		return b.doScroll(o, a.Direction)
	},
	contract.ActDrag:    (*Browser).doDrag,
	contract.ActUpload:  func(b *Browser, o *op, a contract.Action) (string, error) { return b.doUpload(o, a.Ref, a.Files) },
	contract.ActBack:    func(b *Browser, o *op, _ contract.Action) (string, error) { return b.doBack(o) },
	contract.ActForward: func(b *Browser, o *op, _ contract.Action) (string, error) { return b.doForward(o) },
	contract.ActTabs:    (*Browser).doTabs,
	contract.ActWaitFor: func(b *Browser, o *op, a contract.Action) (string, error) {
		return b.doWaitFor(o, a.Text, a.Ref, a.State, a.Seen)
	},
	contract.ActExtract:    func(b *Browser, o *op, _ contract.Action) (string, error) { return b.doExtract(o) },
	contract.ActBox:        func(b *Browser, o *op, a contract.Action) (string, error) { return b.doBox(o, a.Ref) },        // geometry.go
	contract.ActReadRegion: func(b *Browser, o *op, a contract.Action) (string, error) { return b.doReadRegion(o, a.Ref) }, // region.go
	contract.ActMouse:      (*Browser).doMouse,
	contract.ActMousePath:  (*Browser).doMousePath,
	contract.ActSetSlider:  func(b *Browser, o *op, a contract.Action) (string, error) { return b.doSetSlider(o, a.Ref, a.Value) },
	contract.ActMultiSelect: func(b *Browser, o *op, a contract.Action) (string, error) {
		return b.doMultiSelect(o, a.Ref, a.Options, a.Remove)
	},
	contract.ActSelectText: (*Browser).doSelectText,
	contract.ActWait:       func(b *Browser, o *op, a contract.Action) (string, error) { return b.doWait(o, a.MS) },
}

// element is a page element resolved from a ref.
type element struct {
	ref   string
	id    runtime.RemoteObjectID
	desc  string // role and name, as in the snapshot, and the ref
	frame *oopif // the cross-origin frame it is in; nil for the page's
}

var refPattern = regexp.MustCompile(`^\[?(?:ref\s*=\s*)?(e\d+)\]?$`)

// resolveJS returns the element of a ref from the registry of the
// document it runs in, or "unknown" or "stale".
var resolveJS = program("resolve")

// describeJS names an element as the snapshot does: role and name.
var describeJS = program("describe")

// resolve finds the element of a ref from the latest snapshot.
func (b *Browser) resolve(o *op, ref string) (element, error) {
	m := refPattern.FindStringSubmatch(strings.TrimSpace(ref))
	if m == nil {
		return element{}, contract.ActionErrorf("%q is not a ref: give a ref such as e12 from the latest snapshot", ref)
	}
	ref = m[1]
	if fe, ok, err := b.resolveFrameRef(o, ref); ok || err != nil {
		if err != nil {
			return element{}, err
		}
		desc := strings.TrimSuffix(strings.TrimSuffix(fe.desc, " [ref="+ref+"]"), " ["+ref+"]")
		return element{ref: ref, id: fe.id, frame: fe.frame, desc: desc + " [ref=" + ref + "]"}, nil
	}
	r, err := b.eval(o, runtime.EvaluateParams{Expression: jsCall(resolveJS, ref), ObjectGroup: o.objectGroup()})
	if err != nil {
		return element{}, err
	}
	if r.ObjectID == "" {
		var code string
		_ = json.Unmarshal(r.Value, &code)
		if code == "stale" {
			return element{}, &contract.ActionError{
				Msg: fmt.Sprintf("ref %s is not on the page any more; take the new snapshot's refs", ref),
				Err: contract.ErrStaleRef,
			}
		}
		return element{}, contract.ActionErrorf("ref %s is not on this page; use a ref from the latest snapshot", ref)
	}
	el := element{ref: ref, id: r.ObjectID}
	if err := b.callEl(o, el, describeJS, &el.desc); err != nil {
		return element{}, err
	}
	el.desc += " [ref=" + ref + "]"
	return el, nil
}

// point scrolls el into view and returns the centre of its visible part in
// main-viewport CSS pixels, also for elements in same-origin iframes, with
// that part's box.
func (b *Browser) point(o *op, el element) (x, y float64, box [4]float64, err error) {
	notVisible := contract.ActionErrorf("%s is not visible, so it cannot be used; take a new snapshot", el.desc)
	if _, err := cdp.Call(o.ctx, b.targetOf(el.frame), dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{ObjectID: el.id}); err != nil {
		if isProtocolError(err) {
			return 0, 0, box, notVisible
		}
		return 0, 0, box, err
	}
	return b.visiblePart(o, el, notVisible)
}

// visiblePart returns the centre and box of the largest part of el inside
// the viewport, without scrolling; notVisible when there is none.
func (b *Browser) visiblePart(o *op, el element, notVisible error) (x, y float64, box [4]float64, err error) {
	return b.visiblePartIn(o, el, [2]float64{}, notVisible)
}

// visiblePartIn is visiblePart in a top viewport of a known size (CSS
// pixels, scroll bars excluded); {0, 0} asks the browser for it.
func (b *Browser) visiblePartIn(o *op, el element, viewport [2]float64, notVisible error) (x, y float64, box [4]float64, err error) {
	quads, err := cdp.Call(o.ctx, b.targetOf(el.frame), dom.GetContentQuads, dom.GetContentQuadsParams{ObjectID: el.id})
	if err != nil {
		if isProtocolError(err) {
			return 0, 0, box, notVisible
		}
		return 0, 0, box, err
	}
	var dx, dy float64 // a cross-origin frame's quads are in its own viewport
	if el.frame != nil {
		if dx, dy, err = b.frameOffset(o, el.frame); err != nil {
			return 0, 0, box, err
		}
	}
	vw, vh := viewport[0], viewport[1]
	if vw <= 0 || vh <= 0 {
		lm, err := cdp.Call(o.ctx, b.target, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return 0, 0, box, err
		}
		vw, vh = float64(b.width), float64(b.height)
		if v := lm.CSSLayoutViewport; v != nil && v.ClientWidth > 0 {
			vw, vh = float64(v.ClientWidth), float64(v.ClientHeight)
		}
	}
	best := 0.0
	for _, q := range quads.Quads {
		if len(q) != 8 {
			continue
		}
		x0, x1 := min(q[0], q[2], q[4], q[6])+dx, max(q[0], q[2], q[4], q[6])+dx
		y0, y1 := min(q[1], q[3], q[5], q[7])+dy, max(q[1], q[3], q[5], q[7])+dy
		// The part inside the viewport.
		x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, vw), min(y1, vh)
		if a := (x1 - x0) * (y1 - y0); x1 > x0 && y1 > y0 && a > best {
			best, x, y = a, (x0+x1)/2, (y0+y1)/2
			box = [4]float64{x0, y0, x1, y1}
		}
	}
	if best == 0 {
		return 0, 0, box, notVisible
	}
	return x, y, box, nil
}

// settleJS waits a few animation frames for the element to stop moving (an
// opening animation, a layout shift) and, if enabled is set, to be enabled.
// It gives up after about 20 frames and reports what it saw.
var settleJS = program("settle")

// settled is what settleJS saw.
type settled struct {
	Stable, Disabled bool
	// InView is set when the element lies wholly inside the top viewport,
	// whose size is VW, VH (0 for an element in a frame).
	InView bool
	VW, VH float64
}

// hitJS hit-tests the candidate points (CSS pixels in the viewport of the
// element's top document) in every frame from that document down to the
// element's: it returns for each point whether a click there reaches the
// element (or a part or label of it), and unless the first point does, a
// description of what covers the element there.
var hitJS = program("hit")

// hitResult is the answer of hitJS.
type hitResult struct {
	OK       []bool
	Moves    bool
	Cover    string
	Controls []string
}

// aimed is where a mouse action on an element goes, in main-viewport CSS
// pixels.
type aimed struct {
	x, y float64
	// moves is whether the page can see the mouse move there (it listens
	// for pointer motion). A move waits for the renderer's next frame; a
	// button press at a new point gives the page the same hover state and
	// enter/over events, so a click sends the move only when the page
	// would see it.
	moves bool
}

// hitFractions are the points of a box tried after its centre, as
// fractions of its width and height: the mouse goes to the first that
// reaches the element.
var hitFractions = [][2]float64{{.25, .25}, {.75, .25}, {.25, .75}, {.75, .75}, {.5, .15}, {.5, .85}, {.1, .5}, {.9, .5}}

// boxPoints returns the points to hit-test in box: (x, y) first, then the
// hitFractions of it.
func boxPoints(x, y float64, box [4]float64) [][2]float64 {
	w, h := box[2]-box[0], box[3]-box[1]
	points := [][2]float64{{x, y}}
	for _, f := range hitFractions {
		points = append(points, [2]float64{box[0] + w*f[0], box[1] + h*f[1]})
	}
	return points
}

// aimJS is settleJS followed, for an element of the page's target (top
// is set: not in a cross-origin frame) that lies wholly in the top viewport
// (most targets), by hitJS on the points of its largest box there: the
// usual aim costs one round trip. For any other element it returns
// settleJS's answer alone.
var aimJS = program("aim")

// aim prepares a mouse action on el: it scrolls it into view, waits
// briefly for it to be stable (and enabled, if enabled is set) and returns
// a point of its visible part where the mouse reaches it. When something
// else covers it, the ActionError says what, and that the action was not
// done.
func (b *Browser) aim(o *op, el element, verb string, enabled bool) (aimed, error) {
	// The element settles and, when it is wholly in view, is hit-tested
	// in the same call. Only one not wholly in view is scrolled to (and
	// settles again), and its visible part is measured by the browser.
	var st struct {
		settled
		Points [][2]float64
		Hit    *hitResult
	}
	if err := b.callEl(o, el, aimJS, &st, enabled, hitFractions, el.frame == nil); err != nil {
		return aimed{}, err
	}
	if !st.InView {
		if _, err := cdp.Call(o.ctx, b.targetOf(el.frame), dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{ObjectID: el.id}); err != nil {
			if isProtocolError(err) {
				return aimed{}, contract.ActionErrorf("%s is not visible, so it cannot be used; take a new snapshot", el.desc)
			}
			return aimed{}, err
		}
		if err := b.callEl(o, el, settleJS, &st.settled, enabled); err != nil {
			return aimed{}, err
		}
		st.Hit = nil
	}
	if enabled && st.Disabled {
		return aimed{}, contract.ActionErrorf("%s %s not done: it is disabled; something else may have to be done first (fill in required fields, choose an option)", verb, el.desc)
	}
	if st.Hit != nil {
		return hitVerdict(el, verb, st.Points, st.Hit.OK, st.Hit.Moves, st.Hit)
	}
	viewport := [2]float64{st.VW, st.VH}
	if el.frame != nil {
		viewport = [2]float64{} // settleJS measured the frame's, not the top one
	}
	x, y, box, err := b.visiblePartIn(o, el, viewport, contract.ActionErrorf("%s is not visible, so it cannot be used; take a new snapshot", el.desc))
	if err != nil {
		return aimed{}, err
	}
	return b.hitTest(o, el, verb, x, y, box)
}

// hitTest checks that the mouse at (x, y), or else at another point of box,
// reaches el: in el's document, and for an element in a cross-origin frame,
// also at the frame's element in each document around it.
func (b *Browser) hitTest(o *op, el element, verb string, x, y float64, box [4]float64) (aimed, error) {
	points := boxPoints(x, y, box)
	// The levels to test, innermost first: the element in its frame, then
	// each cross-origin frame's element in the frame around it.
	type level struct {
		el     element
		dx, dy float64 // where the level's viewport starts in the main viewport
	}
	var levels []level
	for cur, fr := el, el.frame; ; fr = fr.owner {
		var dx, dy float64
		if fr != nil {
			var err error
			if dx, dy, err = b.frameOffset(o, fr); err != nil {
				return aimed{}, err
			}
		}
		levels = append(levels, level{cur, dx, dy})
		if fr == nil {
			break
		}
		owner, err := b.frameOwner(o, fr)
		if err != nil {
			return aimed{}, err
		}
		cur = owner
	}
	okAll := make([]bool, len(points))
	for i := range okAll {
		okAll[i] = true
	}
	var blocked *hitResult
	moves := false
	for _, lv := range levels {
		pts := make([][2]float64, len(points))
		for i, p := range points {
			pts[i] = [2]float64{p[0] - lv.dx, p[1] - lv.dy}
		}
		var hit hitResult
		if err := b.callEl(o, lv.el, hitJS, &hit, pts); err != nil {
			return aimed{}, err
		}
		for i := range okAll {
			okAll[i] = okAll[i] && i < len(hit.OK) && hit.OK[i]
		}
		moves = moves || hit.Moves
		if hit.Cover != "" {
			blocked = &hit // the outermost cover is named
		}
	}
	return hitVerdict(el, verb, points, okAll, moves, blocked)
}

// hitVerdict aims at the first of points that reaches el (ok), or says
// what covers it (blocked, when a hit test named a cover).
func hitVerdict(el element, verb string, points [][2]float64, ok []bool, moves bool, blocked *hitResult) (aimed, error) {
	for i, reached := range ok {
		if reached && i < len(points) {
			return aimed{points[i][0], points[i][1], moves}, nil
		}
	}
	if blocked == nil || blocked.Cover == "" {
		return aimed{}, contract.ActionErrorf("%s %s not done: no point of it can be reached with the mouse; take a new snapshot", verb, el.desc)
	}
	msg := fmt.Sprintf("%s %s not done: it is covered by %s", verb, el.desc, blocked.Cover)
	if len(blocked.Controls) > 0 {
		msg += " with " + strings.Join(blocked.Controls, ", ")
	}
	msg += "; close or answer what covers it first (or scroll it out of the way), then retry"
	for _, c := range blocked.Controls {
		if !strings.Contains(c, "[ref=") {
			msg += "; take a new snapshot for the refs of what covers it"
			break
		}
	}
	return aimed{}, contract.ActionErrorf("%s", msg)
}

// frameOwner returns the element of a cross-origin frame in the document
// around it.
func (b *Browser) frameOwner(o *op, fr *oopif) (element, error) {
	t := b.targetOf(fr.owner)
	owner, err := cdp.Call(o.ctx, t, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: fr.id})
	if err != nil {
		return element{}, err
	}
	r, err := cdp.Call(o.ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: owner.BackendNodeID, ObjectGroup: o.objectGroup()})
	if err != nil {
		return element{}, err
	}
	return element{id: r.Object.ObjectID, desc: "iframe", frame: fr.owner}, nil
}

func (b *Browser) doClick(o *op, ref string) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	watch := func() string { return "" }
	if el.frame == nil {
		watch = b.watchChanges(o)
	}
	nav, err := b.clickElement(o, el, "click on")
	changed := watch() // also removes the watcher after an error
	if err != nil {
		return "", err
	}
	if nav != "" {
		return "clicked " + el.desc + nav, nil
	}
	return "clicked " + el.desc + changed, nil
}

// clickElement clicks el after the checks of target and waits for a
// navigation the click started; it returns that navigation's description.
func (b *Browser) clickElement(o *op, el element, verb string) (string, error) {
	at, err := b.aim(o, el, verb, true)
	if err != nil {
		return "", err
	}
	s0 := b.nav.state()
	mark := b.notices.mark()
	if err := b.click(o.ctx, at); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil || nav != "" || b.notices.mark() == mark {
		return nav, err
	}
	// A dialog opened while the click was sent: it may have swallowed the
	// click. If no click arrived, it is sent once more.
	var arrived bool
	if err := b.callEl(o, el, clickArrivedJS, &arrived); err != nil || arrived {
		return "", nil // gone with a navigation, or done
	}
	if at, err = b.aim(o, el, verb, true); err != nil {
		return "", err
	}
	s0 = b.nav.state()
	if err := b.click(o.ctx, at); err != nil {
		return "", err
	}
	if nav, err = b.afterInput(o, s0, inputGrace); err != nil || nav != "" {
		return nav, err
	}
	if err := b.callEl(o, el, clickArrivedJS, &arrived); err == nil && !arrived {
		return "", contract.ActionErrorf("%s %s did not reach the page: a dialog opened meanwhile, twice; take a new snapshot and try again", verb, el.desc)
	}
	return "; a dialog opened during the first click, which did not reach the page, so it was clicked again", nil
}

// clickArrivedJS reports whether a trusted click arrived in the element's
// window since its hit test (hitJS forgets the one before); true when the
// window keeps no record.
var clickArrivedJS = program("clickArrived")

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

var valueFormats = map[string]string{
	"date":           "a date as YYYY-MM-DD",
	"time":           "a time as HH:MM",
	"datetime-local": "a date and time as YYYY-MM-DDTHH:MM",
	"month":          "a month as YYYY-MM",
	"week":           "a week as YYYY-Www",
	"color":          "a colour as #rrggbb",
	"range":          "a number within its range",
}

func (b *Browser) doType(o *op, ref, text string, submit bool) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	var kind struct {
		Kind, Type, Why, Value string
		Secret, Keys           bool
	}
	if err := b.callEl(o, el, typeKindJS, &kind); err != nil {
		return "", err
	}
	old := kind.Value
	switch kind.Kind {
	case "no":
		return "", contract.ActionErrorf("%s cannot be typed into: %s", el.desc, kind.Why)
	case "value":
		// Pickers take their value in a fixed format, not keystrokes.
		var res struct{ OK bool }
		if err := b.callEl(o, el, setValueJS, &res, text); err != nil {
			return "", err
		}
		if !res.OK {
			return "", contract.ActionErrorf("%s does not accept %q: it takes %s", el.desc, text, valueFormats[kind.Type])
		}
	default:
		if err := b.fill(o, el, text, kind.Keys); err != nil {
			return "", err
		}
	}
	typed := strconv.Quote(text)
	if kind.Secret {
		typed = fmt.Sprintf("%d characters", len([]rune(text)))
	}
	out := fmt.Sprintf("typed %s into %s", typed, el.desc)
	if kind.Kind == "text" {
		note, err := b.checkTyped(o, el, text, old, kind.Secret)
		if err != nil {
			return "", err
		}
		out += note
	}
	if !submit {
		return out, nil
	}
	s0 := b.nav.state()
	if err := b.press(o.ctx, chord{key: namedKeys["enter"]}); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	return out + " and pressed Enter" + nav, nil
}

// fill replaces the text of el with text. It clicks el to focus it, as a
// user would. Where the page can see key events (keys), it then selects the
// text and deletes it with the keyboard and types text key by key; where it
// cannot, the text is selected and replaced in one edit, which gives the
// page the same input events without a round trip per key.
func (b *Browser) fill(o *op, el element, text string, keys bool) error {
	at, err := b.aim(o, el, "typing into", true)
	if err != nil {
		return err
	}
	if err := b.click(o.ctx, at); err != nil {
		return err
	}
	if keys || text == "" {
		if err := b.clear(o, el); err != nil {
			return err
		}
		return b.typeText(o.ctx, text)
	}
	var focused bool
	if err := b.callEl(o, el, selectAllJS, &focused); err != nil {
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
func (b *Browser) clear(o *op, el element) error {
	var focused bool
	if err := b.callEl(o, el, focusJS, &focused); err != nil {
		return err
	}
	if !focused {
		return contract.ActionErrorf("%s did not take the keyboard focus; click it first or take a new snapshot", el.desc)
	}
	var cur string
	if err := b.callEl(o, el, valueJS, &cur); err != nil {
		return err
	}
	if cur == "" {
		return nil
	}
	selectAll, _ := parseChord("Control+A")
	if err := b.press(o.ctx, selectAll); err != nil {
		return err
	}
	if err := b.press(o.ctx, chord{key: namedKeys["backspace"]}); err != nil {
		return err
	}
	if err := b.callEl(o, el, valueJS, &cur); err != nil {
		return err
	}
	if cur != "" {
		// The page kept the text (a key handler); clear it directly.
		return b.callEl(o, el, clearJS, nil)
	}
	return nil
}

// selectJS picks an option of a native select by label or value.
var selectJS = program("select")

func (b *Browser) doSelect(o *op, ref, option string) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	var res struct {
		Error, Chosen string
		Options       []string
	}
	s0 := b.nav.state()
	if err := b.callEl(o, el, selectJS, &res, option); err != nil {
		return "", err
	}
	switch res.Error {
	case "":
	case "notselect":
		return b.selectARIA(o, el, option)
	case "disabled":
		return "", contract.ActionErrorf("%s is disabled", el.desc)
	case "optdisabled":
		return "", contract.ActionErrorf("option %q of %s is disabled", res.Chosen, el.desc)
	default:
		quoted := make([]string, len(res.Options))
		for i, s := range res.Options {
			quoted[i] = strconv.Quote(s)
		}
		return "", contract.ActionErrorf("%s has no option %q; its options are %s", el.desc, option, strings.Join(quoted, ", "))
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("selected %s in %s", strconv.Quote(res.Chosen), el.desc)
	if nav != "" {
		return out + nav, nil
	}
	// Read the choice back: a change handler may have altered it.
	var chosen []string
	if err := b.callEl(o, el, chosenJS, &chosen); err != nil {
		return "", err
	}
	switch {
	case len(chosen) == 1 && chosen[0] == res.Chosen:
		return out, nil
	case len(chosen) == 0:
		return out + "; but now nothing is chosen (the page changed it)", nil
	case !slices.Contains(chosen, res.Chosen):
		return out + "; but the page changed it: it shows " + quoteAll(chosen), nil
	}
	return out + "; chosen now " + quoteAll(chosen), nil
}

func (b *Browser) doPress(o *op, keys string) (string, error) {
	c, err := parseChord(keys)
	if err != nil {
		return "", err
	}
	s0 := b.nav.state()
	if err := b.press(o.ctx, c); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	return "pressed " + strings.TrimSpace(keys) + nav, nil
}

// scrollerJS finds what a wheel at (x, y) scrolls in the direction (dx, dy):
// the innermost scrollable element there that has room, else the page.
var scrollerJS = program("scroller")

// scrollPosJS reports the position of a scroller once it has stopped
// moving (smooth scrolling takes a few frames), or after a second.
var scrollPosJS = program("scrollPos")

type scrollPos struct {
	X, Y, MaxX, MaxY int
	Page             bool
}

func (b *Browser) doScroll(o *op, direction string) (string, error) {
	dir := strings.ToLower(strings.TrimSpace(direction))
	var dx, dy float64
	w, h := float64(b.width), float64(b.height)
	switch dir {
	case "down":
		dy = h * 0.85
	case "up":
		dy = -h * 0.85
	case "right":
		dx = w * 0.85
	case "left":
		dx = -w * 0.85
	default: // not one of them: Validate refuses it
		return "", fmt.Errorf("browser: scroll direction %q", direction)
	}
	cx, cy := w/2, h/2
	r, err := b.eval(o, runtime.EvaluateParams{Expression: jsCall(scrollerJS, cx, cy, dx, dy), ObjectGroup: o.objectGroup()})
	if err != nil {
		return "", err
	}
	var before, after scrollPos
	if err := b.callOn(o, r.ObjectID, scrollPosJS, &before, false); err != nil {
		return "", err
	}
	if err := b.wheel(o.ctx, cx, cy, dx, dy); err != nil {
		return "", err
	}
	if err := b.callOn(o, r.ObjectID, scrollPosJS, &after, true); err != nil {
		return "", err
	}
	what := "the page"
	if !after.Page {
		what = "the scrollable area"
	}
	vertical := dy != 0
	pos, end := after.Y, after.MaxY
	if !vertical {
		pos, end = after.X, after.MaxX
	}
	atEnd := (dy > 0 || dx > 0) && pos >= end || (dy < 0 || dx < 0) && pos <= 0
	edge := map[string]string{"down": "bottom", "up": "top", "left": "left edge", "right": "right edge"}[dir]
	if before.X == after.X && before.Y == after.Y {
		return fmt.Sprintf("could not scroll %s: %s is already at the %s", dir, what, edge), nil
	}
	axis := "y"
	if !vertical {
		axis = "x"
	}
	out := fmt.Sprintf("scrolled %s %s: now at %s=%d of %d", what, dir, axis, pos, end)
	if atEnd {
		out += "; reached the " + edge
	}
	return out, nil
}

// doScrollTo brings the element of ref into view (centred when it was out
// of view), scrolling every scrollable area around it as needed.
func (b *Browser) doScrollTo(o *op, ref string) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	if _, _, _, err := b.point(o, el); err != nil {
		return "", err
	}
	// Let scroll handlers (lazy loading, sticky headers) run.
	var st settled
	if err := b.callEl(o, el, settleJS, &st, false); err != nil {
		return "", err
	}
	return "scrolled " + el.desc + " into view", nil
}
