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
func (o *op) attachFrame(id cdp.FrameID, owner *oopif, targets map[target.ID]bool) (*oopif, bool, error) {
	b := o.b
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
	if in := b.sess.icpt; in != nil {
		if err := in.followFrames(fctx); err != nil {
			b.log.Debug("following a frame's frames", "error", err)
		}
	}
	if err := b.worlds.follow(fctx, fr.target); err != nil {
		b.log.Debug("following a frame's documents", "error", err)
	}
	if o.tab != nil && o.tab.tools != nil {
		if err := o.tab.tools.follow(fctx, fr.target); err != nil {
			b.log.Debug("following a frame's page tools", "error", err)
		}
	}
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
func (o *op) xframeID(fr *oopif, i int) (cdp.FrameID, error) {
	b := o.b
	t := b.targetOf(fr)
	expr := jsCall(xframeJS, i)
	group := fmt.Sprintf("webagent-frame-%d", i)
	r, err := b.evalWorld(o.ctx, t, runtime.EvaluateParams{Expression: expr, Silent: new(true), ObjectGroup: group})
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
func (o *op) walkFrames(res walkResult, budget int) (walkResult, error) {
	b := o.b
	f := &b.snap.frames
	f.refs = map[string]*oopif{}
	f.seen = map[cdp.FrameID]struct{}{}
	text, err := o.spliceFrames(nil, res.Text, res.XFrames, budget, 0, &res)
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
func (o *op) spliceFrames(fr *oopif, text string, n, budget, depth int, res *walkResult) (string, error) {
	if n == 0 {
		return text, nil
	}
	inner := make([]string, n)
	for i := range inner {
		inner[i] = " (another site's frame; its content is not shown)"
	}
	if depth >= maxFrameDepth {
		return spliceLines(text, inner), nil
	}
	frames, err := o.attachFrames(fr, n)
	if err != nil {
		return "", err
	}
	// Walk them one by one: each walker numbers its refs above the last.
	for i, f := range frames {
		if f.err != nil {
			return "", f.err
		}
		if f.child == nil {
			continue
		}
		o.b.snap.frames.seen[f.id] = struct{}{}
		cr, ok, err := o.walkFrame(f.child, budget)
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		res.Tokens += cr.Tokens
		if res.Check == nil {
			res.Check = cr.Check // a check inside a frame is the page's
		}
		ct, err := o.spliceFrames(f.child, cr.Text, cr.XFrames, budget, depth+1, res)
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(ct) == "" {
			inner[i] = "\x00" // an empty frame: its line goes
			continue
		}
		inner[i] = "\n" + ct
	}
	return spliceLines(text, inner), nil
}

// foundFrame is the i-th cross-origin frame of a document: its id, and
// the frame attached to (nil when it has no target of its own).
type foundFrame struct {
	id    cdp.FrameID
	child *oopif
	err   error
}

// attachFrames finds the n cross-origin frames the walker met in fr's
// document and attaches to them, in parallel: each takes a few round
// trips, and a page can hold dozens (ads).
func (o *op) attachFrames(fr *oopif, n int) ([]foundFrame, error) {
	b := o.b
	infos, err := cdp.Call(o.ctx, b.sess.browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return nil, err
	}
	targets := map[target.ID]bool{}
	for _, in := range infos.TargetInfos {
		if in.Type == "iframe" {
			targets[in.TargetID] = true
		}
	}
	frames := make([]foundFrame, n)
	tAttach := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id, err := o.xframeID(fr, i)
			if err != nil || id == "" {
				frames[i].err = err
				return
			}
			child, ok, err := o.attachFrame(id, fr, targets)
			if ok {
				frames[i] = foundFrame{id: id, child: child}
				// Define the walker there now, so that the walks that
				// follow, one after another, send a call and not its
				// source.
				var defined bool
				if err := o.evalIn(child, jsCall(defineWalkerJS), &defined); err != nil && o.ctx.Err() == nil {
					b.log.Debug("defining the walker in a frame", "error", err)
				}
			}
			frames[i].err = err
		})
	}
	wg.Wait()
	b.log.Debug("found and attached to frames", "took", time.Since(tAttach), "frames", n)
	return frames, nil
}

// walkFrame walks the document of an attached frame with a quarter of the
// budget (at least 500 tokens) and notes the refs it gave out; ok is false
// when the frame could not be walked (it is left out).
func (o *op) walkFrame(child *oopif, budget int) (walkResult, bool, error) {
	b := o.b
	var cr walkResult
	fb := max(budget/4, 500)
	var raw json.RawMessage
	err := o.listenersOf(child.target)
	if err == nil {
		err = o.evalIn(child, jsCall(walkStoredJS, b.snap.maxRef, fb), &raw)
	}
	if err == nil && string(raw) == "null" {
		// A new document in the frame: send the walker.
		err = o.evalIn(child, jsCall(snapshotJS, b.snap.maxRef, fb), &raw)
	}
	if err == nil {
		err = json.Unmarshal(raw, &cr)
	}
	if err != nil {
		if o.ctx.Err() != nil {
			return cr, false, err
		}
		b.log.Debug("walking a cross-origin frame", "error", err)
		return cr, false, nil
	}
	b.snap.maxRef = max(b.snap.maxRef, cr.MaxRef)
	for _, r := range refsIn(cr.Text) {
		b.snap.frames.refs[r] = child
	}
	return cr, true, nil
}

// spliceLines replaces the marked frame lines of text: the marker (\x01
// and an index) by inner[index], which is either text to append to the
// line, "\n" and lines to put under it, or "\x00" to drop the line.
func spliceLines(text string, inner []string) string {
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
