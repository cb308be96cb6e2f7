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

// resolve finds the element of a ref from the latest snapshot.
func (o *op) resolve(ref string) (element, error) {
	m := refPattern.FindStringSubmatch(strings.TrimSpace(ref))
	if m == nil {
		return element{}, contract.ActionErrorf("%q is not a ref: give a ref such as e12 from the latest snapshot", ref)
	}
	ref = m[1]
	if fe, ok, err := o.resolveFrameRef(ref); ok || err != nil {
		if err != nil {
			return element{}, err
		}
		desc := strings.TrimSuffix(strings.TrimSuffix(fe.desc, " [ref="+ref+"]"), " ["+ref+"]")
		return element{ref: ref, id: fe.id, frame: fe.frame, desc: desc + " [ref=" + ref + "]"}, nil
	}
	r, err := o.eval(runtime.EvaluateParams{Expression: jsCall(resolveJS, ref), ObjectGroup: o.objectGroup()})
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
	if err := o.callEl(el, describeJS, &el.desc); err != nil {
		return element{}, err
	}
	el.desc += " [ref=" + ref + "]"
	return el, nil
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
