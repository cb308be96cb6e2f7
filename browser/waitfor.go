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

// pageTextJS returns the shown text of a document: its body's innerText,
// the text of open shadow roots (which innerText leaves out) and of
// same-origin frames.
var pageTextJS = program("pageText")

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
func (b *Browser) doWaitFor(o *op, text, ref, state, snapText string) (string, error) {
	text, ref, state = strings.TrimSpace(text), strings.TrimSpace(ref), strings.TrimSpace(state)
	if state == "" {
		state = contract.WaitAppear
	}
	s0 := b.nav.state()
	navNote := func() (string, error) {
		if !b.nav.state().moved(s0) {
			return "", nil
		}
		n, err := b.navigated(o)
		if err != nil {
			return "", err
		}
		return "; " + n, nil
	}
	if ref != "" && text == "" {
		el, err := b.resolve(o, ref)
		if err != nil {
			return "", err
		}
		for {
			var st string
			if err := b.callEl(o, el, waitStateJS, &st, waitChunkMS, state); err != nil {
				if b.nav.state().moved(s0) {
					if state == contract.WaitDisappear {
						nav, nerr := navNote()
						if nerr != nil {
							return "", nerr
						}
						return el.desc + " is gone" + nav, nil
					}
					return "", contract.ActionErrorf("the page navigated away while waiting for %s; take a new snapshot", el.desc)
				}
				return "", err
			}
			switch st {
			case "done":
				what := " is visible"
				switch state {
				case contract.WaitDisappear:
					what = " is gone"
				case contract.WaitEnabled:
					what = " is enabled"
				}
				if state != contract.WaitDisappear {
					// Its name may have been empty while it was hidden.
					if err := b.callEl(o, el, describeJS, &el.desc); err != nil {
						return "", err
					}
					el.desc += " [ref=" + el.ref + "]"
				}
				nav, err := navNote()
				if err != nil {
					return "", err
				}
				return el.desc + what + nav, nil
			case "gone":
				return "", contract.ActionErrorf("%s left the page while waiting for it; take a new snapshot", el.desc)
			}
			if err := o.ctx.Err(); err != nil {
				return "", err
			}
		}
	}
	var in *element
	if ref != "" {
		el, err := b.resolve(o, ref)
		if err != nil {
			return "", err
		}
		in = &el
	}
	disappear := state == contract.WaitDisappear
	// count runs one chunk of waitTextJS.
	count := func(ms, base int) (int, error) {
		var n int
		if in != nil {
			err := b.callEl(o, *in, waitTextJS, &n, text, ms, base, disappear)
			return n, err
		}
		expr := jsCall(waitTextJS, text, ms, base, disappear)
		r, err := b.eval(o, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true), AwaitPromise: new(true)})
		if err != nil {
			return 0, err
		}
		err = decodeValue(r, &n)
		return n, err
	}
	seen := s0
	base := -1
	for {
		if err := b.nav.settle(o.ctx); err != nil {
			o.stopLoading = true
			return "", err
		}
		ms := waitChunkMS
		if base < 0 && !disappear {
			ms = 0
		}
		n, err := count(ms, base)
		switch {
		case err != nil && o.ctx.Err() == nil && isProtocolError(err):
			if in != nil && b.nav.state().moved(s0) {
				return "", contract.ActionErrorf("the page navigated away while waiting for the text in %s; take a new snapshot", in.desc)
			}
			// The document went away under the wait (a navigation): wait
			// on the next one, where any showing of the text is new.
			moved, werr := b.nav.wait(o.ctx, inputGrace, func(s navState) bool { return s.moved(seen) })
			if werr != nil {
				return "", werr
			}
			if !moved {
				return "", err
			}
			seen, base = b.nav.state(), 0
			continue
		case err != nil:
			return "", err
		}
		if base < 0 && !disappear {
			// What the page showed when the wait began, or what the
			// caller saw in its latest snapshot if that was less: a text
			// that appeared since (after a click of the same reply)
			// counts as appearing.
			base = n
			if snapText != "" {
				base = min(base, countIn(snapText, text))
			}
			if n > base {
				nav, err := navNote()
				if err != nil {
					return "", err
				}
				where := "on the page"
				if in != nil {
					where = "in " + in.desc
				}
				return fmt.Sprintf("the text %s appeared %s%s", strconv.Quote(text), where, nav), nil
			}
			continue
		}
		if disappear && n == 0 || !disappear && n > base {
			nav, err := navNote()
			if err != nil {
				return "", err
			}
			where := "on the page"
			if in != nil {
				where = "in " + in.desc
			}
			if disappear {
				return fmt.Sprintf("the text %s is no longer %s%s", strconv.Quote(text), where, nav), nil
			}
			return fmt.Sprintf("the text %s appeared %s%s", strconv.Quote(text), where, nav), nil
		}
		if err := o.ctx.Err(); err != nil {
			return "", err
		}
	}
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
