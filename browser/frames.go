package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/contract"
)

// Frames of another site run in their own renderer process (site
// isolation) and are separate CDP targets. The page's walker cannot read
// them; it leaves a marked line for each (`iframe "name"` followed by
// \x01 and an index into the registry's xframes). snapshot then attaches to
// the frame's target, runs the walker there with the same ref floor, and
// puts its lines under the marked one. Refs stay globally unique: every
// walker numbers above the highest ref handed out so far. The frame's
// registry lives on the frame's own window; frameSet.refs remembers which
// frame gave out which ref, for the actions.

// maxFrameDepth bounds the nesting of cross-origin frames that are walked.
const maxFrameDepth = 4

// frameSet holds the cross-origin frames attached to.
type frameSet struct {
	mu    sync.Mutex               // guards m while frames are attached to in parallel
	block bool                     // block non-loopback requests in each frame too
	m     map[cdp.FrameID]*oopif   // attached frames, by frame (= target) id
	refs  map[string]*oopif        // ref -> the frame whose walker gave it out
	seen  map[cdp.FrameID]struct{} // frames of the latest snapshot
}

func (f *frameSet) len() int { return len(f.m) }

// oopif is an out-of-process iframe attached to.
type oopif struct {
	id     cdp.FrameID
	cancel context.CancelFunc
	target guarded
	owner  *oopif // the frame whose document holds this frame's element; nil for the page
}

// attachFrame returns the attached frame with the id, attaching to its
// target if needed. ok is false when the frame has no target of its own
// (targets is the set of iframe targets; a frame of another origin but the
// same site stays in the page's process). Frames are attached to in
// parallel: it locks the frame set.
func (b *Browser) attachFrame(o *op, id cdp.FrameID, owner *oopif, targets map[target.ID]bool) (*oopif, bool, error) {
	f := &b.snap.frames
	f.mu.Lock()
	fr, ok := f.m[id]
	f.mu.Unlock()
	if ok {
		fr.owner = owner
		return fr, true, nil
	}
	if !targets[target.ID(id)] {
		return nil, false, nil
	}
	// The frame's event loop lives as long as the tab; the caller's ctx
	// only cancels the attaching.
	fctx, cancel := chromedp.NewContext(b.tabCtx, chromedp.WithTargetID(target.ID(id)), chromedp.WithDetachOnCancel())
	stop := context.AfterFunc(o.ctx, cancel)
	err := chromedp.Do(fctx)
	if !stop() && err == nil {
		err = o.ctx.Err()
	}
	if err != nil {
		cancel()
		if o.ctx.Err() != nil {
			return nil, false, o.ctx.Err()
		}
		b.log.Debug("attaching to a cross-origin frame", "error", err, "frame", string(id))
		return nil, false, nil
	}
	fr = &oopif{id: id, cancel: cancel, target: guarded{chromedp.FromContext(fctx).Target}, owner: owner}
	if f.block {
		if err := blockNonLoopback(o.ctx, fr.target); err != nil {
			b.log.Debug("blocking requests in a frame", "error", err)
		}
	}
	if err := b.throttle(o.ctx, fr.target); err != nil {
		b.log.Debug("throttling a frame", "error", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[cdp.FrameID]*oopif{}
	}
	f.m[id] = fr
	return fr, true, nil
}

// targetOf returns the target of a frame, the page's for nil.
func (b *Browser) targetOf(fr *oopif) guarded {
	if fr == nil {
		return b.target
	}
	return fr.target
}

// xframeID returns the frame id of the i-th cross-origin frame element the
// walker met in fr's document.
func (b *Browser) xframeID(o *op, fr *oopif, i int) (cdp.FrameID, error) {
	t := b.targetOf(fr)
	expr := jsCall(xframeJS, i)
	group := fmt.Sprintf("webagent-frame-%d", i)
	r, err := cdp.Call(o.ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, Silent: new(true), ObjectGroup: group})
	if err != nil {
		return "", err
	}
	defer func() {
		_, _ = cdp.Call(o.ctx, t, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
	}()
	if r.Result == nil || r.Result.ObjectID == "" {
		return "", nil
	}
	n, err := cdp.Call(o.ctx, t, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: r.Result.ObjectID})
	if err != nil {
		if isProtocolError(err) {
			return "", nil
		}
		return "", err
	}
	return n.Node.FrameID, nil
}

// defineWalkerJS keeps the walker on the frame's window, for the next walks
// of the same document (walkStoredJS).
var defineWalkerJS = program("defineWalker")

// walkStoredJS runs the walker defineWalkerJS kept, or returns null when
// the frame's document has none (a new document).
var walkStoredJS = program("walkStored")

// xframeJS returns the i-th cross-origin frame element the walker met.
var xframeJS = program("xframe")

// walkFrames puts the content of the cross-origin frames under their lines
// in res, walking them in their own targets, and forgets the frames that
// are gone.
func (b *Browser) walkFrames(o *op, res walkResult, budget int) (walkResult, error) {
	f := &b.snap.frames
	f.refs = map[string]*oopif{}
	f.seen = map[cdp.FrameID]struct{}{}
	text, err := b.spliceFrames(o, nil, res.Text, res.XFrames, budget, 0, &res)
	if err != nil {
		return res, err
	}
	res.Text = text
	for id, fr := range f.m {
		if _, ok := f.seen[id]; !ok {
			fr.cancel()
			delete(f.m, id)
		}
	}
	return res, nil
}

// spliceFrames replaces the marked frame lines of text, the walker's output
// for fr's document, with the lines and their frames' content.
func (b *Browser) spliceFrames(o *op, fr *oopif, text string, n, budget, depth int, res *walkResult) (string, error) {
	if n == 0 {
		return text, nil
	}
	inner := make([]string, n)
	for i := range inner {
		inner[i] = " (another site's frame; its content is not shown)"
	}
	if depth >= maxFrameDepth {
		return b.spliceLines(text, inner), nil
	}
	// Find and attach to the frames in parallel: each takes a few round
	// trips, and a page can hold dozens (ads).
	infos, err := cdp.Call(o.ctx, b.cdpBrowser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return "", err
	}
	targets := map[target.ID]bool{}
	for _, in := range infos.TargetInfos {
		if in.Type == "iframe" {
			targets[in.TargetID] = true
		}
	}
	type found struct {
		id    cdp.FrameID
		child *oopif
		err   error
	}
	frames := make([]found, n)
	tAttach := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id, err := b.xframeID(o, fr, i)
			if err != nil || id == "" {
				frames[i].err = err
				return
			}
			child, ok, err := b.attachFrame(o, id, fr, targets)
			if ok {
				frames[i] = found{id: id, child: child}
				// Define the walker there now, so that the walks below,
				// one after another, send a call and not its source.
				var defined bool
				if err := b.evalIn(o, child, jsCall(defineWalkerJS), &defined); err != nil && o.ctx.Err() == nil {
					b.log.Debug("defining the walker in a frame", "error", err)
				}
			}
			frames[i].err = err
		})
	}
	wg.Wait()
	b.log.Debug("found and attached to frames", "took", time.Since(tAttach), "frames", n)
	// Walk them one by one: each walker numbers its refs above the last.
	for i, f := range frames {
		if f.err != nil {
			return "", f.err
		}
		child := f.child
		if child == nil {
			continue
		}
		b.snap.frames.seen[f.id] = struct{}{}
		var cr walkResult
		fb := max(budget/4, 500)
		expr := jsCall(walkStoredJS, b.maxRef, fb)
		var raw json.RawMessage
		err := b.evalIn(o, child, expr, &raw)
		if err == nil && string(raw) == "null" {
			// A new document in the frame: send the walker.
			err = b.evalIn(o, child, jsCall(snapshotJS, b.maxRef, fb), &raw)
		}
		if err == nil {
			err = json.Unmarshal(raw, &cr)
		}
		if err != nil {
			if o.ctx.Err() != nil {
				return "", err
			}
			b.log.Debug("walking a cross-origin frame", "error", err)
			continue
		}
		b.maxRef = max(b.maxRef, cr.MaxRef)
		for _, r := range refsIn(cr.Text) {
			b.snap.frames.refs[r] = child
		}
		res.Tokens += cr.Tokens
		ct, err := b.spliceFrames(o, child, cr.Text, cr.XFrames, budget, depth+1, res)
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(ct) == "" {
			inner[i] = "\x00" // an empty frame: its line goes
			continue
		}
		inner[i] = "\n" + ct
	}
	return b.spliceLines(text, inner), nil
}

// spliceLines replaces the marked frame lines of text: the marker (\x01
// and an index) by inner[index], which is either text to append to the
// line, "\n" and lines to put under it, or "\x00" to drop the line.
func (b *Browser) spliceLines(text string, inner []string) string {
	n := len(inner)
	var out strings.Builder
	for line := range strings.Lines(text) {
		k := strings.IndexByte(line, '\x01')
		if k < 0 {
			out.WriteString(line)
			continue
		}
		nl := strings.HasSuffix(line, "\n")
		idx, _ := strconv.Atoi(strings.TrimSuffix(line[k+1:], "\n"))
		if idx >= 0 && idx < n && inner[idx] == "\x00" {
			continue
		}
		out.WriteString(line[:k])
		switch {
		case idx < 0 || idx >= n:
		case strings.HasPrefix(inner[idx], "\n"):
			ind := strings.Repeat(" ", len(line)-len(strings.TrimLeft(line, " "))+2)
			for cl := range strings.Lines(inner[idx][1:]) {
				out.WriteString("\n" + ind + strings.TrimSuffix(cl, "\n"))
			}
		default:
			out.WriteString(inner[idx])
		}
		if nl {
			out.WriteString("\n")
		}
	}
	return strings.TrimRight(out.String(), "\n")
}

// frameCoverage runs the coverage count in the attached frames of the
// latest snapshot.
func (b *Browser) frameCoverage(o *op) (Coverage, error) {
	var total Coverage
	for id, fr := range b.snap.frames.m {
		if _, ok := b.snap.frames.seen[id]; !ok {
			continue
		}
		var c Coverage
		if err := b.evalIn(o, fr, jsCall(coverageJS), &c); err != nil {
			return total, err
		}
		total.Interactive += c.Interactive
		total.Covered += c.Covered
		total.Missed = append(total.Missed, c.Missed...)
	}
	return total, nil
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
func (b *Browser) resolveFrameRef(o *op, ref string) (frameElement, bool, error) {
	fr, ok := b.snap.frames.refs[ref]
	if !ok {
		return frameElement{}, false, nil
	}
	r, err := cdp.Call(o.ctx, fr.target, runtime.Evaluate, runtime.EvaluateParams{
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
	if err := b.callIn(o, fr, fe.id, describeJS, &fe.desc); err != nil {
		return frameElement{}, true, err
	}
	fe.desc += " [" + ref + "]"
	return fe, true, nil
}

// frameOffset is where the viewport of fr starts in the main viewport: the
// sum of the content-box origins of its frame elements.
func (b *Browser) frameOffset(o *op, fr *oopif) (dx, dy float64, err error) {
	for ; fr != nil; fr = fr.owner {
		t := b.targetOf(fr.owner)
		owner, err := cdp.Call(o.ctx, t, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: fr.id})
		if err != nil {
			return 0, 0, err
		}
		box, err := cdp.Call(o.ctx, t, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: owner.BackendNodeID})
		if err != nil {
			return 0, 0, err
		}
		if c := box.Model.Content; len(c) == 8 {
			dx += min(c[0], c[2], c[4], c[6])
			dy += min(c[1], c[3], c[5], c[7])
		}
	}
	return dx, dy, nil
}

// staleRef and unknownRef are the errors of a frame's ref whose element is
// gone, or that no walker gave out; they read like the page's.
func staleRef(ref string) error {
	return &contract.ActionError{
		Msg: fmt.Sprintf("ref %s is not on the page any more; take the new snapshot's refs", ref),
		Err: contract.ErrStaleRef,
	}
}

func unknownRef(ref string) error {
	return contract.ActionErrorf("ref %s is not on this page; use a ref from the latest snapshot", ref)
}
