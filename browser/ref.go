package browser

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/contract"
)

// Refs: the snapshot gives each element the model can act on a ref (e12),
// kept in a registry on the page's window (or a cross-origin frame's);
// an action resolves its ref there to the element.

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

// refInfoJS names the element of a ref and calls a program on it, by the
// ref, in the page's registry (refInfo.js).
var refInfoJS = program("refInfo")

// resolve finds the element of a ref from the latest snapshot.
func (o *op) resolve(ref string) (element, error) {
	el, _, err := o.resolveWith(ref, "", nil)
	return el, err
}

// resolveWith is resolve that also calls the program fn on the element,
// as callEl would, and decodes its value into v. For an element of the
// page, the element's handle and, in a second call sent at once beside
// the first, its description and fn's answer, both found by the ref,
// come back in about one round trip where they took three one after the
// other. ran is false when fn was not called: for an element of a
// cross-origin frame, whose registry answers in a target of its own, the
// caller calls it itself.
func (o *op) resolveWith(ref, fn string, v any, args ...any) (el element, ran bool, err error) {
	m := refPattern.FindStringSubmatch(strings.TrimSpace(ref))
	if m == nil {
		return element{}, false, contract.ActionErrorf("%q is not a ref: give a ref such as e12 from the latest snapshot", ref)
	}
	ref = m[1]
	if fe, ok, err := o.resolveFrameRef(ref); ok || err != nil {
		if err != nil {
			return element{}, false, err
		}
		desc := strings.TrimSuffix(strings.TrimSuffix(fe.desc, " [ref="+ref+"]"), " ["+ref+"]")
		return element{ref: ref, id: fe.id, frame: fe.frame, desc: desc + " [ref=" + ref + "]"}, false, nil
	}
	var info struct {
		Code, Desc string
		V          json.RawMessage
	}
	infoErr := make(chan error, 1)
	b := o.b
	// Both calls read the same registry in the same world, so the order
	// they reach the page in does not matter; both are bounded by the
	// op's context and waited for before resolveWith returns.
	o.evaluating = true
	go func() {
		r, err := b.evalWorld(o.ctx, b.target, runtime.EvaluateParams{
			Expression: refInfoCall(ref, fn, args), ReturnByValue: new(true), AwaitPromise: new(true), Silent: new(true),
		})
		switch {
		case err != nil:
		case r.ExceptionDetails != nil:
			err = &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
		default:
			err = decodeValue(r.Result, &info)
		}
		infoErr <- err
	}()
	r, err := b.evalWorld(o.ctx, b.target, runtime.EvaluateParams{Expression: jsCall(resolveJS, ref), ObjectGroup: o.objectGroup(), Silent: new(true)})
	ierr := <-infoErr
	if err == nil && r.ExceptionDetails != nil {
		err = &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	if err != nil {
		return element{}, false, err
	}
	if ierr != nil {
		return element{}, false, ierr
	}
	o.evaluating = false
	if r.Result == nil || r.Result.ObjectID == "" {
		var code string
		if r.Result != nil {
			_ = json.Unmarshal(r.Result.Value, &code)
		}
		if code == "stale" {
			return element{}, false, staleRef(ref)
		}
		return element{}, false, unknownRef(ref)
	}
	if info.Code != "" {
		// The registry changed between the two calls, which only a
		// snapshot does, and no snapshot runs during an op.
		return element{}, false, fmt.Errorf("browser: ref %s resolved, then its description found %s", ref, info.Code)
	}
	el = element{ref: ref, id: r.Result.ObjectID, desc: info.Desc + " [ref=" + ref + "]"}
	if fn != "" && v != nil {
		if len(info.V) == 0 || string(info.V) == "null" {
			return element{}, false, fmt.Errorf("the script returned no value for %s", el.desc)
		}
		if err := json.Unmarshal(info.V, v); err != nil {
			return element{}, false, fmt.Errorf("decoding the script's result: %w", err)
		}
	}
	return el, fn != "", nil
}

// refInfoCall is the expression that calls refInfoJS for ref with the
// program fn (none for "") and its arguments.
func refInfoCall(ref, fn string, args []any) string {
	f := "null"
	if fn != "" {
		f = "(" + fn + "\n)"
	}
	if args == nil {
		args = []any{}
	}
	r, err := json.Marshal(ref)
	if err != nil {
		panic(err) // a string always encodes
	}
	a, err := json.Marshal(args)
	if err != nil {
		panic(fmt.Sprintf("browser: page program arguments %#v: %v", args, err)) // arguments are Go values of ours
	}
	return "(" + refInfoJS + "\n)(" + string(r) + ", " + f + ", " + string(a) + ")"
}

// frameElement is an element of a cross-origin frame, found from its ref.
type frameElement struct {
	frame *oopif
	id    runtime.RemoteObjectID // in the frame's target
	desc  string                 // role and name, as in the snapshot
}

// resolveFrameRef finds the element of a ref that the walker of a
// cross-origin frame gave out. ok is false when no such frame gave it out:
// then it is the page's registry's (resolveJS). An unknown or stale ref of
// a frame is an *contract.ActionError like the page's.
func (o *op) resolveFrameRef(ref string) (frameElement, bool, error) {
	b := o.b
	fr, ok := b.snap.frames.refs[ref]
	if !ok {
		return frameElement{}, false, nil
	}
	r, err := b.evalWorld(o.ctx, fr.target, runtime.EvaluateParams{
		Expression: jsCall(resolveJS, ref), Silent: new(true), ObjectGroup: o.objectGroup(),
	})
	if err != nil {
		return frameElement{}, true, err
	}
	if r.ExceptionDetails != nil {
		return frameElement{}, true, &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	if r.Result == nil || r.Result.ObjectID == "" {
		var code string
		if r.Result != nil {
			_ = json.Unmarshal(r.Result.Value, &code)
		}
		if code == "stale" {
			return frameElement{}, true, staleRef(ref)
		}
		return frameElement{}, true, unknownRef(ref)
	}
	fe := frameElement{frame: fr, id: r.Result.ObjectID}
	if err := o.callIn(fr, fe.id, describeJS, &fe.desc); err != nil {
		return frameElement{}, true, err
	}
	fe.desc += " [" + ref + "]"
	return fe, true, nil
}

// staleRef and unknownRef are the errors of a frame's ref whose element is
// gone, or that no walker gave out; they read like the page's.
func staleRef(ref string) error {
	return &contract.ActionError{
		Msg: fmt.Sprintf("ref %s is not on the page any more; take the new snapshot's refs", ref),
		Err: contract.ErrStaleRef,
	}
}

// unknownRef is the error of a ref no walker gave out.
func unknownRef(ref string) error {
	return contract.ActionErrorf("ref %s is not on this page; use a ref from the latest snapshot", ref)
}
