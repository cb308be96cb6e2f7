package browser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// waitChunk is how long one in-page wait of wait_for lasts before it hands
// back to Go, which checks its context and navigations and starts another.
// A wait abandoned by its caller so ends in the page within this time.
const waitChunkMS = 400

// waitTextJS waits, for one chunk, until the number of times the page shows
// the text (spaces collapsed, case ignored) passes base (appear) or is zero
// (disappear), and returns that number; with base below zero it returns it
// at once. It checks on every DOM change (at most once a frame) and every
// 100 ms. With an element (this), only its text counts.
var waitTextJS = program("waitText")

// waitStateJS waits, for one chunk, until the element is in the state:
// "appear" (rendered with a size), "disappear" (not rendered, or removed)
// or "enabled". It returns "done", "gone" when it left the page (for
// appear and enabled) or "" when the chunk ended.
var waitStateJS = program("waitState")

// doWaitFor waits for a change: a text that appears after the call (one
// more time than the page showed it then; inside the element of ref if
// given), or that disappears; or the element of ref appearing,
// disappearing or becoming enabled. It has no time limit of its own: the
// caller's context ends it. A navigation meanwhile is followed (a text may
// appear on the next page) and reported.
func (o *op) doWaitFor(a contract.Action) (string, error) {
	text, ref, state := strings.TrimSpace(a.Text), strings.TrimSpace(a.Ref), strings.TrimSpace(a.State)
	if state == "" {
		state = contract.WaitAppear
	}
	s0 := o.b.nav.state()
	if ref != "" && text == "" {
		return o.waitForElement(ref, state, s0)
	}
	w := textWait{text: text, disappear: state == contract.WaitDisappear, seen: a.Seen}
	if ref != "" {
		el, err := o.resolve(ref)
		if err != nil {
			return "", err
		}
		w.in = &el
	}
	return o.waitForText(w, s0)
}

// navNote describes the page after a navigation since s0, "" when there
// was none.
func (o *op) navNote(s0 navState) (string, error) {
	if !o.b.nav.state().moved(s0) {
		return "", nil
	}
	n, err := o.navigated()
	if err != nil {
		return "", err
	}
	return "; " + n, nil
}

// waitForElement waits, chunk by chunk, for the element of ref to be in
// the state: appear, disappear or enabled.
func (o *op) waitForElement(ref, state string, s0 navState) (string, error) {
	el, err := o.resolve(ref)
	if err != nil {
		return "", err
	}
	for {
		var st string
		if err := o.callEl(el, waitStateJS, &st, waitChunkMS, state); err != nil {
			return o.elementWaitFailed(el, state, s0, err)
		}
		switch st {
		case "done":
			return o.elementReached(el, state, s0)
		case "gone":
			return "", contract.ActionErrorf("%s left the page while waiting for it; take a new snapshot", el.desc)
		}
		if err := o.ctx.Err(); err != nil {
			return "", err
		}
	}
}

// elementWaitFailed turns the error of a chunk of waitForElement into the
// outcome: an element waited to disappear is gone when the page navigated
// away; one waited to appear cannot any more.
func (o *op) elementWaitFailed(el element, state string, s0 navState, err error) (string, error) {
	if !o.b.nav.state().moved(s0) {
		return "", err
	}
	if state != contract.WaitDisappear {
		return "", contract.ActionErrorf("the page navigated away while waiting for %s; take a new snapshot", el.desc)
	}
	nav, err := o.navNote(s0)
	if err != nil {
		return "", err
	}
	return el.desc + " is gone" + nav, nil
}

// elementReached says that el is in the state waited for.
func (o *op) elementReached(el element, state string, s0 navState) (string, error) {
	what := " is visible"
	switch state {
	case contract.WaitDisappear:
		what = " is gone"
	case contract.WaitEnabled:
		what = " is enabled"
	}
	if state != contract.WaitDisappear {
		// Its name may have been empty while it was hidden.
		if err := o.callEl(el, describeJS, &el.desc); err != nil {
			return "", err
		}
		el.desc += " [ref=" + el.ref + "]"
	}
	nav, err := o.navNote(s0)
	if err != nil {
		return "", err
	}
	return el.desc + what + nav, nil
}

// textWait is a wait_for of a text.
type textWait struct {
	text      string
	in        *element // the element whose text counts; nil for the page's
	disappear bool
	seen      string // the text of the latest snapshot the model saw
}

// where says where the text is looked for.
func (w textWait) where() string {
	if w.in != nil {
		return "in " + w.in.desc
	}
	return "on the page"
}

// waitForText waits, chunk by chunk, until the page shows the text once
// more than at the start (or than the model's latest snapshot, if that is
// less), or no more (disappear). A document that goes away under the wait
// is followed to the next one, where any showing of the text is new.
func (o *op) waitForText(w textWait, s0 navState) (string, error) {
	seen, base := s0, -1
	for {
		if err := o.b.nav.settle(o.ctx); err != nil {
			o.stopLoading = true
			return "", err
		}
		n, err := o.countText(w, base)
		if err != nil && o.ctx.Err() == nil && isProtocolError(err) {
			if seen, err = o.nextDocument(w, s0, seen, err); err != nil {
				return "", err
			}
			base = 0
			continue
		}
		if err != nil {
			return "", err
		}
		switch {
		case base < 0 && !w.disappear:
			// What the page showed when the wait began, or what the
			// caller saw in its latest snapshot if that was less: a text
			// that appeared since (after a click of the same reply)
			// counts as appearing.
			base = n
			if w.seen != "" {
				base = min(base, countIn(w.seen, w.text))
			}
			if n <= base {
				continue
			}
		case w.disappear && n != 0 || !w.disappear && n <= base:
			if err := o.ctx.Err(); err != nil {
				return "", err
			}
			continue
		}
		return o.textReached(w, s0)
	}
}

// countText runs one chunk of waitTextJS: it returns how often the text
// shows once that passes base or is zero (disappear), or at the chunk's
// end; with base below zero, at once.
func (o *op) countText(w textWait, base int) (int, error) {
	ms := waitChunkMS
	if base < 0 && !w.disappear {
		ms = 0
	}
	var n int
	if w.in != nil {
		err := o.callEl(*w.in, waitTextJS, &n, w.text, ms, base, w.disappear)
		return n, err
	}
	r, err := o.eval(runtime.EvaluateParams{Expression: jsCall(waitTextJS, w.text, ms, base, w.disappear), ReturnByValue: new(true), AwaitPromise: new(true)})
	if err != nil {
		return 0, err
	}
	err = decodeValue(r, &n)
	return n, err
}

// nextDocument follows the navigation under a text wait whose document
// went away (err): it returns the state of the new document, or err when
// no navigation came. A wait inside an element cannot follow.
func (o *op) nextDocument(w textWait, s0, seen navState, err error) (navState, error) {
	b := o.b
	if w.in != nil && b.nav.state().moved(s0) {
		return seen, contract.ActionErrorf("the page navigated away while waiting for the text in %s; take a new snapshot", w.in.desc)
	}
	moved, werr := b.nav.wait(o.ctx, inputGrace, func(s navState) bool { return s.moved(seen) })
	if werr != nil {
		return seen, werr
	}
	if !moved {
		return seen, err
	}
	return b.nav.state(), nil
}

// textReached says that the text appeared, or is gone.
func (o *op) textReached(w textWait, s0 navState) (string, error) {
	nav, err := o.navNote(s0)
	if err != nil {
		return "", err
	}
	if w.disappear {
		return fmt.Sprintf("the text %s is no longer %s%s", strconv.Quote(w.text), w.where(), nav), nil
	}
	return fmt.Sprintf("the text %s appeared %s%s", strconv.Quote(w.text), w.where(), nav), nil
}

// countIn counts the times s shows want, spaces collapsed, case ignored.
func countIn(s, want string) int {
	norm := func(x string) string { return strings.ToLower(strings.Join(strings.Fields(x), " ")) }
	w := norm(want)
	if w == "" {
		return 0
	}
	return strings.Count(norm(s), w)
}
