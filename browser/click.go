package browser

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// The click action, with the aim every mouse action on an element takes:
// the element is brought into view and left to settle, and a point of it
// is hit-tested so that nothing else gets the click.

// clickPrepJS starts the change watch and aims at the element, in one
// call (clickPrep.js).
var clickPrepJS = program("clickPrep")

// doClick clicks the element of a.Ref with the mouse (clickElement) and says
// what the click did: a navigation, a change of the page, or none.
func (o *op) doClick(a contract.Action) (string, error) {
	// For an element of the page, the watch starts and the aim is taken
	// in the ref's own round trip (resolveWith).
	w, token := o.newWatch(), o.clickToken()
	var prep struct {
		Watching bool
		Aim      aimAnswer
	}
	el, ran, err := o.resolveWith(a.Ref, clickPrepJS, &prep, w.tokenOf(), pageBinding, hitFractions, token)
	if err != nil {
		w.started(false)
		return "", err
	}
	var first *aimAnswer
	if ran {
		w.started(prep.Watching)
		first = &prep.Aim
	} else {
		w.started(false) // a cross-origin frame's element: no watch
		token = ""
	}
	nav, err := o.clickElementFrom(el, "click on", token, first)
	changed := w.result() // also removes the watcher after an error
	if err != nil {
		return "", err
	}
	if nav != "" {
		return "clicked " + el.desc + nav, nil
	}
	return "clicked " + el.desc + changed, nil
}

// clickToken is a new token for a click the page is to report, "" when
// the tab has no page binding.
func (o *op) clickToken() string {
	if !o.bind() {
		return ""
	}
	return strconv.FormatInt(watchSeq.Add(1), 10)
}

// clickElement clicks el after the checks of aim and waits for a
// navigation the click started; it returns that navigation's description.
// A click is reported done only when it landed on el, as far as the page
// tells (listeners.js reports it through the page binding, before
// anything the click starts can freeze the page): one that the page moved
// away from el at the moment of the click is a *contract.ActionError that
// says where it landed; one that a dialog swallowed is sent once more.
func (o *op) clickElement(el element, verb string) (string, error) {
	token := ""
	if el.frame == nil {
		token = o.clickToken()
	}
	return o.clickElementFrom(el, verb, token, nil)
}

// clickElementFrom is clickElement whose first try reports with token
// ("" for none) and, when first is set, starts from that answer of aimJS
// (with token), which the caller had already.
func (o *op) clickElementFrom(el element, verb, token string, first *aimAnswer) (string, error) {
	b := o.b
	for try := 1; ; try++ {
		if try > 1 && token != "" {
			token = o.clickToken()
		}
		landed, stop := catchEvent(b.tabCtx, runtime.BindingCalled, func(ev runtime.EventBindingCalled) bool {
			return token != "" && ev.Name == pageBinding && strings.HasPrefix(ev.Payload, "click:"+token+":")
		})
		nav, l, err := o.clickOnce(el, verb, token, landed, first)
		first = nil
		stop()
		switch {
		case err != nil || nav != "":
			return nav, err
		case l == nil:
			return "", nil // the page cannot tell (no record of its clicks, or another site's frame)
		case l.Landed && try > 1:
			return "; a dialog opened during the first click, which did not reach the page, so it was clicked again", nil
		case l.Landed:
			return "", nil
		case l.Where != "":
			return "", contract.ActionErrorf("%s %s not done: the click landed on %s instead (the page moved things as it was clicked); take a new snapshot", verb, el.desc, l.Where)
		case try > 1:
			return "", contract.ActionErrorf("%s %s did not reach the page: a dialog opened meanwhile, twice; take a new snapshot and try again", verb, el.desc)
		}
		// A dialog opened while the click was sent and swallowed it: it
		// is sent once more.
	}
}

// landing is where a click landed, as the page reported it.
type landing struct {
	Landed bool
	Where  string // what the click landed on instead
}

// clickOnce aims at el (from aimJS's first answer, when set), clicks,
// and waits for a navigation the click started. Unless it led to one, it
// says where the click landed (nil when the page does not tell): what the
// page reported on landed, or, when a dialog opened meanwhile and no click
// was reported, that none arrived.
func (o *op) clickOnce(el element, verb, token string, landed <-chan runtime.EventBindingCalled, first *aimAnswer) (string, *landing, error) {
	b := o.b
	var at aimed
	var err error
	if first != nil {
		at, err = o.aimFrom(el, verb, true, token, *first)
	} else {
		at, err = o.aimFor(el, verb, true, token)
	}
	if err != nil {
		return "", nil, err
	}
	s0 := b.nav.state()
	mark := b.notices.mark()
	if err := o.clickAt(at); err != nil {
		return "", nil, err
	}
	nav, err := o.afterInput(s0, inputGrace)
	if err != nil || nav != "" {
		return nav, nil, err
	}
	if l, ok := reported(landed); ok || token == "" {
		return "", l, nil
	}
	// No click reported yet. The page is asked whether one arrived: that
	// call runs after every dialog that opened meanwhile was answered (a
	// page's script waits for its dialog), so that, once it returns, any
	// such dialog is in the notices, however late its event was handled.
	var arrived bool
	if err := o.callEl(el, clickArrivedJS, &arrived); err != nil || arrived {
		l, _ := reported(landed) // the report, if it came meanwhile
		return "", l, nil        // gone with a navigation, or done
	}
	if b.notices.mark() == mark {
		// No dialog: the click went elsewhere than this window (a
		// frame of another site over it), or the window keeps no record
		// of its clicks (a document loaded before the tab was set up).
		return "", nil, nil
	}
	// A dialog opened and no click arrived: the dialog swallowed it.
	return "", &landing{}, nil
}

// reported returns the landing the page reported on landed, if it did.
func reported(landed <-chan runtime.EventBindingCalled) (*landing, bool) {
	select {
	case ev := <-landed:
		var l landing
		_, report, _ := strings.Cut(strings.TrimPrefix(ev.Payload, "click:"), ":")
		if json.Unmarshal([]byte(report), &l) != nil {
			return nil, true
		}
		return &l, true
	default:
		return nil, false
	}
}

// clickArrivedJS reports whether a trusted click arrived in the element's
// window since its hit test; true when the window keeps no record.
var clickArrivedJS = program("clickArrived")

// settleJS waits a few animation frames for the element to stop moving (an
// opening animation, a layout shift) and, if enabled is set, to be enabled.
// It gives up after about 20 frames and reports what it saw.
var settleJS = program("settle")

// settled is what settleJS saw.
type settled struct {
	Stable, Disabled bool
	// InView is set when the element shows wholly inside the top viewport,
	// cut by no scrolled container; Clip is the rectangle of the viewport
	// that its containers let show (nil when none of it shows), and VW,
	// VH the viewport's size (0 for an element in a frame).
	InView bool
	Clip   []float64
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
	Cover    string   // what covers the element where the click would land
	Controls []string // the controls of the cover
	Clipped  string   // the container that cuts the element off there
}

// aimed is where a mouse action on an element goes, in main-viewport CSS
// pixels.
type aimed struct {
	contract.Point
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

// boxPoints returns the points to hit-test in box: first first, then the
// hitFractions of it.
func boxPoints(first contract.Point, box rect) []contract.Point {
	points := []contract.Point{first}
	for _, f := range hitFractions {
		points = append(points, box.at(f[0], f[1]))
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
func (o *op) aim(el element, verb string, enabled bool) (aimed, error) {
	return o.aimFor(el, verb, enabled, "")
}

// aimFor is aim for a click that the page is to report with token (see
// clickElement); "" for none.
func (o *op) aimFor(el element, verb string, enabled bool, token string) (aimed, error) {
	var st aimAnswer
	if err := o.callEl(el, aimJS, &st, enabled, hitFractions, el.frame == nil, false, token, pageBinding); err != nil {
		return aimed{}, err
	}
	return o.aimFrom(el, verb, enabled, token, st)
}

// aimAnswer is what aimJS returns: settleJS's answer and, for an element
// wholly in view, the points it tried and what the hit test found there.
type aimAnswer struct {
	settled
	Points []contract.Point
	Hit    *hitResult
}

// aimFrom is aimFor from aimJS's first answer st, which a caller may have
// had in the same call as the element's ref (resolveWith).
func (o *op) aimFrom(el element, verb string, enabled bool, token string, st aimAnswer) (aimed, error) {
	// The element settles and, when it is wholly in view, is hit-tested
	// in the same call. Only one not wholly in view is scrolled to (and
	// settles again), and its visible part is measured by the browser.
	notVisible := contract.ActionErrorf("%s is not visible, so it cannot be used; take a new snapshot", el.desc)
	if !st.InView {
		// Scrolled to as a person would, in every scrolled container
		// around it, then aimed at the part of it that shows.
		if err := o.scrollIntoView(el, notVisible); err != nil {
			return aimed{}, err
		}
		st.Hit = nil
		if err := o.callEl(el, aimJS, &st, enabled, hitFractions, el.frame == nil, true, token, pageBinding); err != nil {
			return aimed{}, err
		}
	}
	if enabled && st.Disabled {
		return aimed{}, contract.ActionErrorf("%s %s not done: it is disabled; something else may have to be done first (fill in required fields, choose an option)", verb, el.desc)
	}
	if st.Hit != nil {
		return hitVerdict(el, verb, st.Points, st.Hit.OK, st.Hit.Moves, st.Hit)
	}
	vw, vh := st.VW, st.VH
	if el.frame != nil {
		vw, vh = 0, 0 // settleJS measured the frame's viewport, not the top one
	}
	at, box, err := o.visiblePartIn(el, vw, vh, notVisible)
	if err != nil {
		return aimed{}, err
	}
	return o.hitTest(el, verb, at, box, token)
}

// hitTest checks that the mouse at first, or else at another point of box,
// reaches el: in el's document, and for an element in a cross-origin frame,
// also at the frame's element in each document around it.
func (o *op) hitTest(el element, verb string, first contract.Point, box rect, token string) (aimed, error) {
	points := boxPoints(first, box)
	// The levels to test, innermost first: the element in its frame, then
	// each cross-origin frame's element in the frame around it.
	type level struct {
		el  element
		off contract.Point // where the level's viewport starts in the main viewport
	}
	var levels []level
	for cur, fr := el, el.frame; ; fr = fr.owner {
		var off contract.Point
		if fr != nil {
			var err error
			if off, err = o.frameOffset(fr); err != nil {
				return aimed{}, err
			}
		}
		levels = append(levels, level{cur, off})
		if fr == nil {
			break
		}
		owner, err := o.frameOwner(fr)
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
		pts := make([]contract.Point, len(points))
		for i, p := range points {
			pts[i] = contract.Point{X: p.X - lv.off.X, Y: p.Y - lv.off.Y}
		}
		var hit hitResult
		expect := ""
		if lv.el.id == el.id {
			expect = token
		}
		if err := o.callEl(lv.el, hitJS, &hit, pts, expect, pageBinding); err != nil {
			return aimed{}, err
		}
		for i := range okAll {
			okAll[i] = okAll[i] && i < len(hit.OK) && hit.OK[i]
		}
		moves = moves || hit.Moves
		if hit.Cover != "" || hit.Clipped != "" {
			blocked = &hit // the outermost cover is named
		}
	}
	return hitVerdict(el, verb, points, okAll, moves, blocked)
}

// hitVerdict aims at the first of points that reaches el (ok), or says
// what covers it (blocked, when a hit test named a cover).
func hitVerdict(el element, verb string, points []contract.Point, ok []bool, moves bool, blocked *hitResult) (aimed, error) {
	for i, reached := range ok {
		if reached && i < len(points) {
			return aimed{points[i], moves}, nil
		}
	}
	if blocked != nil && blocked.Cover == "" && blocked.Clipped != "" {
		return aimed{}, contract.ActionErrorf("%s %s not done: the mouse cannot reach it, %s cuts it off from view even when scrolled to; take a new snapshot", verb, el.desc, blocked.Clipped)
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
func (o *op) frameOwner(fr *oopif) (element, error) {
	b := o.b
	t := b.targetOf(fr.owner)
	owner, err := cdp.Call(o.ctx, t, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: fr.id})
	if err != nil {
		return element{}, err
	}
	id, err := o.resolveIn(t, owner.BackendNodeID)
	if err != nil {
		return element{}, err
	}
	return element{id: id, desc: "iframe", frame: fr.owner}, nil
}
