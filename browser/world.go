package browser

import (
	"context"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// webagent's programs run in an isolated world of their own in each
// document: the page's DOM, but not its JavaScript globals, so that
// nothing webagent defines (its ref registry, its walker, its binding,
// its observers) is a name, property or prototype change a page script
// can see, and nothing a page script redefines (a hostile
// Array.prototype.map, a getter on window) reaches webagent's programs.
// The page's own world is used only for Browser.Eval, the caller's own
// expression, and for the main-world handles the listener registry asks
// Chromium about (registry.go).

// worldName names the isolated world. Pages never see it.
const worldName = "webagent"

// worlds keeps the execution context of the isolated world of each
// target's document (a tab's, a cross-origin frame's), by session: made
// on the first call, forgotten when the target's document changes
// (Page.frameNavigated of its frame) or when Chromium no longer knows it.
type worlds struct {
	// page runs webagent's programs in the page's own world instead
	// (Options.Observable: the canvas log is there).
	page bool
	mu   sync.Mutex
	m    map[target.SessionID]*world
}

// world is webagent's isolated world in one document.
type world struct {
	// id is the world's execution context; 0 for the page's own world
	// (worlds.page), which CDP calls the default.
	id runtime.ExecutionContextID
	// registered are the nodes with listeners already in the world's
	// registry (registry.go); guarded by mu.
	mu         sync.Mutex
	registered map[listened]bool
	walker     bool // the world keeps the snapshot walker (keepWalkerJS)
}

// keepsWalker reports whether the world keeps the snapshot walker.
func (wd *world) keepsWalker() bool {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	return wd.walker
}

// keepWalker records that the world keeps the snapshot walker.
func (wd *world) keepWalker() {
	wd.mu.Lock()
	wd.walker = true
	wd.mu.Unlock()
}

// follow forgets t's world when t's own frame commits a new document: the
// world went with the old one.
func (w *worlds) follow(ctx context.Context, t guarded) error {
	sid, frame := t.SessionID, cdp.FrameID(t.TargetID)
	return chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*page.EventFrameNavigated); ok && e.Frame.ID == frame {
			w.mu.Lock()
			delete(w.m, sid)
			w.mu.Unlock()
		}
	})
}

// of returns t's isolated world, making it if needed.
func (w *worlds) of(ctx context.Context, t guarded) (*world, error) {
	w.mu.Lock()
	wd, ok := w.m[t.SessionID]
	w.mu.Unlock()
	if ok {
		return wd, nil
	}
	if w.page {
		wd = &world{}
		w.mu.Lock()
		defer w.mu.Unlock()
		if old, ok := w.m[t.SessionID]; ok {
			return old, nil
		}
		if w.m == nil {
			w.m = map[target.SessionID]*world{}
		}
		w.m[t.SessionID] = wd
		return wd, nil
	}
	// The main frame of a page or frame target has the target's id.
	r, err := cdp.Call(ctx, t, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: cdp.FrameID(t.TargetID), WorldName: worldName})
	if err != nil {
		return nil, err
	}
	// The binding: Chromium installs a binding by context name only in
	// the contexts that exist when it is added, unless Runtime is
	// enabled, which it never is (quiet.go): each world gets it here.
	if err := t.Call(ctx, runtime.CommandAddBinding, map[string]any{"name": pageBinding, "executionContextId": r.ExecutionContextID}, nil); err != nil {
		return nil, err
	}
	wd = &world{id: r.ExecutionContextID}
	w.mu.Lock()
	defer w.mu.Unlock()
	if old, ok := w.m[t.SessionID]; ok && old.id == wd.id {
		return old, nil // made meanwhile by another call
	}
	if w.m == nil {
		w.m = map[target.SessionID]*world{}
	}
	w.m[t.SessionID] = wd
	return wd, nil
}

// forget drops t's world if it is still wd.
func (w *worlds) forget(t guarded, wd *world) {
	w.mu.Lock()
	if w.m[t.SessionID] == wd {
		delete(w.m, t.SessionID)
	}
	w.mu.Unlock()
}

// inWorld calls f with t's isolated world; when Chromium no longer knows
// its context (its document went away before the navigation's event
// arrived), once more with a new one.
func inWorld[R any](ctx context.Context, w *worlds, t guarded, f func(*world) (R, error)) (R, error) {
	for retry := false; ; retry = true {
		wd, err := w.of(ctx, t)
		if err != nil {
			var zero R
			return zero, err
		}
		r, err := f(wd)
		if err != nil && !retry && contextGone(err) {
			w.forget(t, wd)
			continue
		}
		return r, err
	}
}

// contextGone reports whether err is Chromium's answer for an execution
// context that no longer exists.
func contextGone(err error) bool {
	return isProtocolError(err) && strings.Contains(err.Error(), "Cannot find context with specified id")
}

// evalWorld runs Runtime.evaluate in t's isolated world.
func (b *Browser) evalWorld(ctx context.Context, t guarded, p runtime.EvaluateParams) (runtime.EvaluateResult, error) {
	return inWorld(ctx, &b.worlds, t, func(wd *world) (runtime.EvaluateResult, error) {
		p.ContextID = wd.id
		return cdp.Call(ctx, t, runtime.Evaluate, p)
	})
}

// inWorld returns the handle, in webagent's world of the page, of the node
// whose handle in another world is id.
func (o *op) inWorld(id runtime.RemoteObjectID) (runtime.RemoteObjectID, error) {
	t := o.b.target
	n, err := cdp.Call(o.ctx, t, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: id})
	if err != nil {
		return "", err
	}
	return o.resolveIn(t, n.Node.BackendNodeID)
}

// resolveIn returns the handle of the node in webagent's world of t.
func (o *op) resolveIn(t guarded, node cdp.BackendNodeID) (runtime.RemoteObjectID, error) {
	return inWorld(o.ctx, &o.b.worlds, t, func(wd *world) (runtime.RemoteObjectID, error) {
		r, err := cdp.Call(o.ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: node, ExecutionContextID: wd.id, ObjectGroup: o.objectGroup()})
		if err != nil {
			return "", err
		}
		return r.Object.ObjectID, nil
	})
}
