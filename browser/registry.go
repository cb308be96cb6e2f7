package browser

import (
	"encoding/json"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/runtime"
)

// The listener registry: which elements a page's scripts made actionable
// with a listener, taken from Chromium's own list of the document's event
// listeners (DOMDebugger.getEventListeners over the whole document, its
// same-origin frames and shadow roots), not from a wrapper around
// addEventListener in the page, which a page could see. Before each walk
// of a document the new ones are resolved in webagent's world and added
// to its registry (js/registry.js); those already there are not asked for
// again.

// registryJS records the listened elements in webagent's world.
var registryJS = program("registry")

// The listener types the registry looks for.
var (
	// pointerEvents are those of a person's pointer or keyboard on an
	// element: such an element gets a ref.
	pointerEvents = typeSet("click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "keydown", "dblclick", "dragstart")
	dropEvents    = typeSet("drop", "dragover", "dragenter")
	moveEvents    = typeSet("mousemove", "pointermove", "pointerrawupdate")
	keyEvents     = typeSet("keydown", "keypress", "keyup", "textInput")
)

func typeSet(types ...string) map[string]bool {
	m := make(map[string]bool, len(types))
	for _, t := range types {
		m[t] = true
	}
	return m
}

// registryGroup is the object group of the registry's handles.
const registryGroup = "webagent-registry"

// maxRegistered bounds the elements one walk adds to the registry (the
// first in document order): each is one resolve.
const maxRegistered = 3000

// resolveParallel is how many resolves are in flight at once.
const resolveParallel = 32

// listenersOf brings the registry of t's document up to date before a
// walk. A failure that is not the document going away or the op's end
// costs the walk the registry's refs, not the walk.
func (o *op) listenersOf(t guarded) error {
	return o.registered(o.lookUpListeners(t))
}

// registered registers the listeners of a look-up (listenersOf).
func (o *op) registered(l *listenerLookup) error {
	err := o.registerListeners(l)
	if err == nil || o.ctx.Err() != nil || interruptedByNavigation(err) {
		return err
	}
	o.b.log.Debug("listing the page's listeners", "error", err)
	return nil
}

// listenerLookup is Chromium's list of the event listeners of a target's
// document and window, asked for in the background (lookUpListeners).
type listenerLookup struct {
	t     guarded
	group string // the object group of the handles
	done  chan struct{}

	// Set when done.
	ls   []*domdebugger.EventListener
	win  runtime.RemoteObjectID
	none bool // the document or the window has no handle
	err  error

	// withWalk: when no node is new to the registry, the records of
	// motion and window keys are left to the walk's own call (marks), not
	// a call of their own (webagent's isolated world only).
	withWalk bool
	marks    *listenerMarks
}

// listenerMarks are the records registryJS sets besides the nodes: whether
// the document has a listener for pointer motion, and the window one for
// keys.
type listenerMarks struct{ moves, keys bool }

// lookUpListeners starts asking Chromium for the listeners of t's
// document and of its window, the two at once; registerListeners takes
// the answer. Handles of the page's own document and window: evaluating a
// name runs nothing a page can see. On the tab's own target the handles
// are the op's (released when it ends), elsewhere the registry's group's.
// A caller that never takes the answer leaves nothing behind for long:
// the two calls are the op's, and end with its context at the latest.
func (o *op) lookUpListeners(t guarded) *listenerLookup {
	l := &listenerLookup{t: t, group: registryGroup, done: make(chan struct{})}
	if t.Target == o.tab.target.Target {
		l.group = o.objectGroup()
	}
	var doc, win struct {
		ls   []*domdebugger.EventListener
		id   runtime.RemoteObjectID
		none bool
		err  error
	}
	var wg sync.WaitGroup
	wg.Go(func() { doc.ls, doc.id, doc.none, doc.err = o.listenersOfName(t, l.group, "document") })
	wg.Go(func() { win.ls, win.id, win.none, win.err = o.listenersOfName(t, l.group, "window") })
	go func() {
		defer close(l.done)
		wg.Wait()
		switch {
		case doc.err != nil || doc.none: // the document's first, as when they were asked one by one
			l.err, l.none = doc.err, doc.none
		case win.err != nil || win.none:
			l.err, l.none = win.err, win.none
		default:
			l.ls, l.win = append(doc.ls, win.ls...), win.id
		}
	}()
	return l
}

// wait waits for the look-up to end.
func (l *listenerLookup) wait() { <-l.done }

// listenersOfName asks for the listeners of the page's document (with its
// frames and shadow roots) or window; none is true when it has no handle.
func (o *op) listenersOfName(t guarded, group, name string) ([]*domdebugger.EventListener, runtime.RemoteObjectID, bool, error) {
	r, err := cdp.Call(o.ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: name, ObjectGroup: group, Silent: new(true)})
	if err != nil {
		return nil, "", false, err
	}
	if r.Result == nil || r.Result.ObjectID == "" {
		return nil, "", true, nil
	}
	p := domdebugger.GetEventListenersParams{ObjectID: r.Result.ObjectID}
	if name == "document" {
		p.Depth, p.Pierce = new(int64(-1)), new(true)
	}
	res, err := cdp.Call(o.ctx, t, domdebugger.GetEventListeners, p)
	if err != nil {
		return nil, "", false, err
	}
	return res.Listeners, r.Result.ObjectID, false, nil
}

// registerListeners brings the registry of the look-up's document up to
// date.
func (o *op) registerListeners(l *listenerLookup) error {
	l.wait()
	t := l.t
	if l.group == registryGroup {
		defer func() {
			_, _ = cdp.Call(o.ctx, t, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: registryGroup})
		}()
	}
	if l.err != nil || l.none {
		return l.err
	}
	ls, win := l.ls, l.win
	var moves, keys bool
	var kinds [3][]cdp.BackendNodeID // pointerKind, keyKind, dropKind
	seen := map[listened]bool{}
	add := func(k int, id cdp.BackendNodeID) {
		if !seen[listened{k, id}] {
			seen[listened{k, id}] = true
			kinds[k] = append(kinds[k], id)
		}
	}
	for _, l := range ls {
		moves = moves || moveEvents[l.Type]
		if l.BackendNodeID == 0 { // the window's
			keys = keys || keyEvents[l.Type]
			continue
		}
		if pointerEvents[l.Type] {
			add(pointerKind, l.BackendNodeID)
		}
		if keyEvents[l.Type] {
			add(keyKind, l.BackendNodeID)
		}
		if dropEvents[l.Type] {
			add(dropKind, l.BackendNodeID)
		}
	}
	_, err := inWorld(o.ctx, &o.b.worlds, t, func(wd *world) (struct{}, error) {
		if l.withWalk && wd.id != 0 && len(wd.fresh(kinds)) == 0 {
			l.marks = &listenerMarks{moves: moves, keys: keys} // set by the walk's call
			return struct{}{}, nil
		}
		return struct{}{}, o.register(t, wd, l.group, win, kinds, moves, keys)
	})
	return err
}

// The kinds of listened nodes, in the order registryJS takes them.
const (
	pointerKind = iota
	keyKind
	dropKind
)

// listened is a node with listeners of a kind.
type listened struct {
	kind int
	id   cdp.BackendNodeID
}

// register adds the nodes of each kind not yet in wd's registry and sets
// its motion and window key records. win is the page's window, for the
// page's own world (worlds.page).
func (o *op) register(t guarded, wd *world, group string, win runtime.RemoteObjectID, kinds [3][]cdp.BackendNodeID, moves, keys bool) error {
	fresh := wd.fresh(kinds)
	// Resolved in parallel; a node gone meanwhile is left out.
	objs := make([]runtime.RemoteObjectID, len(fresh))
	errs := make([]error, len(fresh))
	var wg sync.WaitGroup
	sem := make(chan struct{}, resolveParallel)
	for i, n := range fresh {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			r, err := cdp.Call(o.ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: n.id, ExecutionContextID: wd.id, ObjectGroup: group})
			switch {
			case err == nil && r.Object != nil:
				objs[i] = r.Object.ObjectID
			case err != nil && (!isProtocolError(err) || contextGone(err)):
				errs[i] = err
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var count [3]int
	args := []*runtime.CallArgument{jsonArg(moves), jsonArg(keys), nil, nil}
	var done []listened
	for i, n := range fresh { // fresh is in kind order
		if objs[i] != "" {
			args = append(args, &runtime.CallArgument{ObjectID: objs[i]})
			count[n.kind]++
			done = append(done, n)
		}
	}
	args[2], args[3] = jsonArg(count[pointerKind]), jsonArg(count[keyKind])
	call := runtime.CallFunctionOnParams{FunctionDeclaration: registryJS, ExecutionContextID: wd.id, Arguments: args, Silent: new(true), ReturnByValue: new(true)}
	if wd.id == 0 {
		call.ObjectID = win
	}
	if _, err := cdp.Call(o.ctx, t, runtime.CallFunctionOn, call); err != nil {
		return err
	}
	wd.mu.Lock()
	if wd.registered == nil {
		wd.registered = map[listened]bool{}
	}
	for _, n := range done {
		wd.registered[n] = true
	}
	wd.mu.Unlock()
	return nil
}

// fresh returns the nodes of each kind not yet in wd's registry, the first
// maxRegistered.
func (wd *world) fresh(kinds [3][]cdp.BackendNodeID) []listened {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	var fresh []listened
	for k, ids := range kinds {
		for _, id := range ids {
			if !wd.registered[listened{k, id}] && len(fresh) < maxRegistered {
				fresh = append(fresh, listened{k, id})
			}
		}
	}
	return fresh
}

// jsonArg is a call argument of a JSON value.
func jsonArg(v any) *runtime.CallArgument {
	raw, _ := json.Marshal(v)
	return &runtime.CallArgument{Value: raw}
}
