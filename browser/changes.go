package browser

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
)

// Reporting what an action changed: before the input, an observer is put on
// the page's document; at the first change of its DOM (or an input,
// change or scroll event) it calls a CDP binding once. After the input the
// outcome says whether that call arrived, or else what the page says when
// asked (changesSeen.js); a page that the action froze holds that question
// up for changeGrace at most. A click reports where it landed through the
// same binding (clickElement).

// pageBinding is the name of the binding the page calls to report to the
// action: a change (a watch's token), or a click ("click:" and its token).
const pageBinding = "__webagentChanged"

// bind adds the page binding to the op's tab, once: it lasts across the
// tab's documents. It reports whether the tab has it.
func (o *op) bind() bool {
	if !o.tab.bound {
		p := runtime.AddBindingParams{Name: pageBinding, ExecutionContextName: worldName}
		if o.b.worlds.page {
			p.ExecutionContextName = ""
		}
		if _, err := cdp.Call(o.ctx, o.b.target, runtime.AddBinding, p); err != nil {
			return false
		}
		o.tab.bound = true
	}
	return true
}

// watchChangesJS installs the observer, replacing an earlier one; it calls
// the binding with token at the first change.
var watchChangesJS = program("watchChanges")

// watchSeq numbers the watches (of every Browser of the process), so that
// a late call of an earlier one is not taken for this one's.
var watchSeq atomic.Int64

// watchChanges starts watching the page for changes and returns a function
// that stops it and describes the change: "; the page changed", "; nothing
// on the page changed (yet)", or "" when it cannot tell.
func (o *op) watchChanges() func() string {
	w := o.newWatch()
	if w != nil {
		var ok bool
		err := o.evalValue(jsCall(watchChangesJS, pageBinding, w.token), &ok)
		w.started(err == nil && ok)
	}
	return w.result
}

// changeWatch is one watch for the changes an input makes: its token, and
// the catch of the page's report of the first change.
type changeWatch struct {
	o       *op
	token   string
	changed <-chan runtime.EventBindingCalled
	stop    func()
	// seen is what the page said the watch saw once the input's tasks
	// (and its requests' answers) had run (probeInput), nil until then.
	// A watch that saw nothing then is left on the page, as the question
	// that would end it costs a round trip: it ends at the page's next
	// change, which it reports to no one (its catch has stopped), or when
	// the next watch replaces it.
	seen *bool
}

// newWatch prepares a watch before its page part, watchChangesJS with
// pageBinding and the watch's token, is started (by watchChanges, or by a
// program that also does other work: clickPrep.js); nil when the tab has
// no page binding. Its user calls started, then result.
func (o *op) newWatch() *changeWatch {
	if !o.bind() {
		return nil
	}
	w := &changeWatch{o: o, token: strconv.FormatInt(watchSeq.Add(1), 10)}
	w.changed, w.stop = catchEvent(o.b.tabCtx, runtime.BindingCalled, func(ev runtime.EventBindingCalled) bool {
		return ev.Name == pageBinding && ev.Payload == w.token
	})
	return w
}

// tokenOf is w's token, "" for no watch (nil), which clickPrep.js takes
// for none.
func (w *changeWatch) tokenOf() string {
	if w == nil {
		return ""
	}
	return w.token
}

// started records whether the page part started; a watch that did not
// start stops at once, and its result is "".
func (w *changeWatch) started(ok bool) {
	if w == nil {
		return
	}
	if !ok {
		w.stop()
		w.stop = nil
		return
	}
	w.o.watch = w
}

// result stops the watch and describes the change: "; the page changed",
// "; nothing on the page changed (yet)", or "" when it cannot tell.
func (w *changeWatch) result() string {
	if w == nil || w.stop == nil {
		return ""
	}
	defer w.stop()
	o := w.o
	if o.watch == w {
		o.watch = nil
	}
	select {
	case <-w.changed:
		return "; the page changed"
	default:
	}
	if w.seen != nil {
		if *w.seen {
			return "; the page changed"
		}
		return "; nothing on the page changed (yet)"
	}
	// A change the page made while it handled the input was reported
	// before Chromium answered the input, but the report reaches us
	// through another goroutine than the answer, so it may not be here
	// yet: the page itself is asked, which also ends its watch. A page
	// the input left busy is given changeGrace to answer.
	ctx, cancel := context.WithTimeout(o.ctx, changeGrace)
	defer cancel()
	r, err := o.b.evalWorld(ctx, o.b.target, runtime.EvaluateParams{
		Expression: jsCall(changesSeenJS, w.token), ReturnByValue: new(true), Silent: new(true),
	})
	var seen *bool
	switch {
	case err == nil && r.ExceptionDetails == nil && decodeValue(r.Result, &seen) == nil && seen != nil:
		if *seen {
			return "; the page changed"
		}
		return "; nothing on the page changed (yet)"
	case ctx.Err() != nil && o.ctx.Err() == nil:
		// Busy: a report may have come meanwhile.
		select {
		case <-w.changed:
			return "; the page changed"
		default:
			return "; nothing on the page changed (yet)"
		}
	}
	return "" // gone with its document, or the action's end
}

// changeGrace bounds the wait for a busy page's answer to changesSeenJS.
const changeGrace = 100 * time.Millisecond

// changesSeenJS ends a watch of watchChangesJS and tells whether it saw a
// change.
var changesSeenJS = program("changesSeen")
