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
	err := o.registerListeners(t)
	if err == nil || o.ctx.Err() != nil || interruptedByNavigation(err) {
		return err
	}
	o.b.log.Debug("listing the page's listeners", "error", err)
	return nil
}

// registerListeners brings the registry of t's document up to date.
func (o *op) registerListeners(t guarded) error {
	defer func() {
		_, _ = cdp.Call(o.ctx, t, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: registryGroup})
	}()
	// Handles of the page's own document and window: evaluating a name
	// runs nothing a page can see.
	var ls []*domdebugger.EventListener
	var win runtime.RemoteObjectID
	for _, expr := range []string{"document", "window"} {
		r, err := cdp.Call(o.ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ObjectGroup: registryGroup, Silent: new(true)})
		if err != nil {
			return err
		}
		if r.Result == nil || r.Result.ObjectID == "" {
			return nil
		}
		p := domdebugger.GetEventListenersParams{ObjectID: r.Result.ObjectID}
		if expr == "document" {
			p.Depth, p.Pierce = new(int64(-1)), new(true)
		} else {
			win = r.Result.ObjectID
		}
		res, err := cdp.Call(o.ctx, t, domdebugger.GetEventListeners, p)
		if err != nil {
			return err
		}
		ls = append(ls, res.Listeners...)
	}
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
		return struct{}{}, o.register(t, wd, win, kinds, moves, keys)
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
func (o *op) register(t guarded, wd *world, win runtime.RemoteObjectID, kinds [3][]cdp.BackendNodeID, moves, keys bool) error {
	wd.mu.Lock()
	var fresh []listened
	for k, ids := range kinds {
		for _, id := range ids {
			if !wd.registered[listened{k, id}] && len(fresh) < maxRegistered {
				fresh = append(fresh, listened{k, id})
			}
		}
	}
	wd.mu.Unlock()
	// Resolved in parallel; a node gone meanwhile is left out.
	objs := make([]runtime.RemoteObjectID, len(fresh))
	errs := make([]error, len(fresh))
	var wg sync.WaitGroup
	sem := make(chan struct{}, resolveParallel)
	for i, n := range fresh {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			r, err := cdp.Call(o.ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: n.id, ExecutionContextID: wd.id, ObjectGroup: registryGroup})
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

// jsonArg is a call argument of a JSON value.
func jsonArg(v any) *runtime.CallArgument {
	raw, _ := json.Marshal(v)
	return &runtime.CallArgument{Value: raw}
}
