package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/webagent/webagent/contract"
)

// nativeKeyRepeats bounds a key action's repeat.
const nativeKeyRepeats = 50

// pageTool is the webagent tool of the name, from the fixed table: the
// budget and checks a native action's step runs under.
func pageTool(name string) *tool {
	for _, t := range tools {
		if t.name == name {
			return t
		}
	}
	panic("agent: no tool " + name) // static names
}

// nativeStep is a step of a native action: webagent's tool and action.
func nativeCall(name string, a contract.Action) call {
	t := pageTool(name)
	a.Name = name
	return call{tool: t, action: a, budget: t.budget}
}

// nativeSteps turns a native action into the calls of the run that carry
// it out; local is the outcome of an action that needs no call (a
// screenshot, the cursor's position, a zoom). An *contract.ActionError is
// for the model: the action cannot be done, and why.
func (r *run) nativeSteps(ctx context.Context, na contract.NativeAction, out *iterOut, nr *nativeRun) (steps []call, local string, err error) {
	if steps, local, ok, err := r.browserSteps(ctx, na, out); ok {
		return steps, local, err
	}
	if steps, ok, err := pointerSteps(na, nr); ok {
		return steps, "", err
	}
	switch na.Kind {
	case contract.NativeDrag:
		return nativeDrag(na.Path)
	case contract.NativeType:
		if na.Text == "" {
			return nil, "", contract.ActionErrorf("it needs the text to type")
		}
		return []call{nativeCall(contract.ActType, contract.Action{Text: na.Text})}, "", nil
	case contract.NativeKey:
		return nativeKeys(na)
	case contract.NativeWait:
		ms := min(max(na.MS, 1), int(contract.MaxWait.Milliseconds()))
		if na.MS == 0 {
			ms = 1000
		}
		c := nativeCall(contract.ActWait, contract.Action{MS: ms})
		c.budget = time.Duration(ms)*time.Millisecond + waitSlack
		return []call{c}, "", nil
	case contract.NativeScreenshot:
		return nil, "took a screenshot", nil
	case contract.NativeCursor:
		if nr.cursor == nil {
			return nil, "the pointer has not been placed yet", nil
		}
		return nil, fmt.Sprintf("the pointer is at (%g, %g)", nr.cursor.X, nr.cursor.Y), nil
	case contract.NativeZoom:
		return r.nativeZoom(ctx, na, nr)
	case contract.NativeMouseDown, contract.NativeMouseUp:
		return nil, "", contract.ActionErrorf("pressing and releasing the button apart is not supported: drag with one action from its start to its end")
	}
	return nil, "", contract.ActionErrorf("this computer tool has no action %q; it has %s", cmpStr(na.Vendor, na.Kind), strings.Join(contract.NativeActions, ", "))
}

// pointerSteps are the steps of the actions at the pointer: clicks, a
// move, a scroll, at the action's point (or ref), else where the pointer
// is; ok is false for another action.
func pointerSteps(na contract.NativeAction, nr *nativeRun) (steps []call, ok bool, err error) {
	at := na.At
	if at == nil {
		at = nr.cursor
	}
	mouse := func(op string) ([]call, bool, error) {
		switch {
		case na.Ref != "" && na.Key == "":
			return []call{nativeCall(contract.ActMouse, contract.Action{Op: op, Ref: na.Ref})}, true, nil
		case na.Key != "":
			return nil, true, contract.ActionErrorf("clicking with keys held (%s) is not supported; press the keys apart, or click alone", na.Key)
		case at == nil:
			return nil, true, contract.ActionErrorf("it needs a coordinate: the pointer has not been placed yet")
		}
		return []call{nativeCall(contract.ActMouse, contract.Action{Op: op, At: at})}, true, nil
	}
	switch na.Kind {
	case contract.NativeClick:
		switch na.Button {
		case "", "left":
			return mouse(contract.MouseClick)
		case "right":
			return mouse(contract.MouseRightClick)
		}
		return nil, true, contract.ActionErrorf("a click with the %s button is not supported: use left or right", na.Button)
	case contract.NativeDoubleClick:
		return mouse(contract.MouseDoubleClick)
	case contract.NativeTripleClick:
		return mouse(contract.MouseTripleClick)
	case contract.NativeMove:
		return mouse(contract.MouseHover)
	case contract.NativeScroll:
		switch {
		case at == nil:
			return nil, true, contract.ActionErrorf("it needs a coordinate: the pointer has not been placed yet")
		case na.ScrollX == 0 && na.ScrollY == 0:
			return nil, true, contract.ActionErrorf("it needs an amount to scroll by")
		}
		return []call{nativeCall(contract.ActScroll, contract.Action{At: at, DX: na.ScrollX, DY: na.ScrollY})}, true, nil
	}
	return nil, false, nil
}

// nativeDrag is a drag along a path: from the first point to the last,
// through the others.
func nativeDrag(path []contract.Point) ([]call, string, error) {
	switch {
	case len(path) < 2:
		return nil, "", contract.ActionErrorf("a drag needs where it starts and where it ends")
	case len(path) == 2:
		from, to := path[0], path[1]
		return []call{nativeCall(contract.ActDrag, contract.Action{At: &from, To: &to})}, "", nil
	}
	c := nativeCall(contract.ActMousePath, contract.Action{Path: path})
	return []call{c}, "", nil
}

// nativeKeys is a key action: its chord pressed Repeat times.
func nativeKeys(na contract.NativeAction) ([]call, string, error) {
	if strings.TrimSpace(na.Key) == "" {
		return nil, "", contract.ActionErrorf("it needs the key to press")
	}
	n := max(na.Repeat, 1)
	if n > nativeKeyRepeats {
		return nil, "", contract.ActionErrorf("it repeats the key %d times; at most %d", n, nativeKeyRepeats)
	}
	steps := make([]call, n)
	for i := range steps {
		steps[i] = nativeCall(contract.ActPress, contract.Action{Key: na.Key})
	}
	return steps, "", nil
}

// nativeZoom takes a region of the screen at the display's size.
func (r *run) nativeZoom(ctx context.Context, na contract.NativeAction, nr *nativeRun) ([]call, string, error) {
	if len(na.Region) != 4 {
		return nil, "", contract.ActionErrorf("zoom needs a region: x0, y0, x1, y1")
	}
	region := make([]float64, 4)
	for i, v := range na.Region {
		region[i] = float64(v)
	}
	nt := r.tools.native
	sctx, cancel := context.WithTimeout(ctx, nativeShotBudget)
	defer cancel()
	png, err := r.a.browser.(NativeBrowser).ScreenshotCSS(sctx, region, nt.Width, nt.Height)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", err
		}
		return nil, "", contract.ActionErrorf("the region could not be taken: %v", err)
	}
	nr.zoom = png
	return nil, fmt.Sprintf("the region (%d, %d)-(%d, %d), scaled to fit %dx%d", na.Region[0], na.Region[1], na.Region[2], na.Region[3], nt.Width, nt.Height), nil
}
