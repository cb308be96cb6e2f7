package browser

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/chromedp/cdproto/input"

	"github.com/webagent/webagent/contract"
)

// The mouse actions at a point (mouse, mouse_path): a point is given in
// viewport CSS pixels, or as a named anchor of an element's box plus an
// offset. A point outside the viewport, or outside the element's box, is
// refused before anything is sent.

// spot is where a pointer action happens.
type spot struct {
	at   contract.Point
	desc string // "(120, 40)" or `(120, 40) at the bottom-right of textbox "Notes" [ref=e4]`
	el   *element
	box  rect // el's box
}

// locate resolves a point: with ref, the anchor of its box moved by (dx,
// dy), which must stay inside the box; else at, in the viewport. Either
// must lie inside the viewport.
func (o *op) locate(ref, anchor string, dx, dy float64, at *contract.Point) (spot, error) {
	vw, vh, err := o.viewport()
	if err != nil {
		return spot{}, err
	}
	if strings.TrimSpace(ref) != "" {
		return o.locateOn(ref, anchor, contract.Point{X: dx, Y: dy}, vw, vh)
	}
	if at == nil {
		return spot{}, errors.New("browser: a point needs a ref or x and y") // Validate sees to it
	}
	if at.X < 0 || at.Y < 0 || at.X >= vw || at.Y >= vh {
		return spot{}, contract.ActionErrorf("the point (%g, %g) is outside the viewport, which is %gx%g CSS pixels (x 0-%g, y 0-%g); nothing was done: give a point inside it, or scroll first",
			at.X, at.Y, vw, vh, vw-1, vh-1)
	}
	return spot{at: *at, desc: fmt.Sprintf("(%g, %g)", at.X, at.Y)}, nil
}

// locateOn resolves the anchor of the box of ref's element moved by off
// (rounded to whole pixels), which must lie in the box and in the viewport
// of vw x vh.
func (o *op) locateOn(ref, anchor string, off contract.Point, vw, vh float64) (spot, error) {
	el, err := o.resolve(ref)
	if err != nil {
		return spot{}, err
	}
	box, err := o.elementBox(el)
	if err != nil {
		return spot{}, err
	}
	ap, err := anchorPoint(box, anchor)
	if err != nil {
		return spot{}, err
	}
	x, y := math.Round(ap.X+off.X), math.Round(ap.Y+off.Y)
	where := "the center"
	if a := strings.TrimSpace(anchor); a != "" && a != "center" {
		where = "the " + a
	}
	if off.X != 0 || off.Y != 0 {
		where = fmt.Sprintf("%g, %g px from %s", off.X, off.Y, where)
	}
	if x < math.Floor(box.x0) || y < math.Floor(box.y0) || x >= math.Ceil(box.x1) || y >= math.Ceil(box.y1) {
		return spot{}, contract.ActionErrorf("%s of %s is outside its box, which is %gx%g CSS pixels; nothing was done: give a smaller offset",
			where, el.desc, math.Round(box.width()), math.Round(box.height()))
	}
	if x < 0 || y < 0 || x >= vw || y >= vh {
		return spot{}, contract.ActionErrorf("%s of %s is outside the viewport; nothing was done: scroll so that it shows, or use another anchor", where, el.desc)
	}
	return spot{at: contract.Point{X: x, Y: y}, el: &el, box: box, desc: fmt.Sprintf("(%g, %g), %s of %s", x, y, where, el.desc)}, nil
}

// atPointJS describes the element at a viewport point of the main
// document, through open shadow roots, with its ref when it has one.
var atPointJS = program("atPoint")

// whatIsAt describes the element at a viewport point, or "" when it cannot.
func (o *op) whatIsAt(p contract.Point) string {
	var d string
	if err := o.evalValue(jsCall(atPointJS, p.X, p.Y), &d); err != nil {
		return ""
	}
	return d
}

// mouseVerbs say what each operation of the mouse action did.
var mouseVerbs = map[string]string{contract.MouseClick: "clicked", contract.MouseDoubleClick: "double-clicked", contract.MouseRightClick: "right-clicked", contract.MouseHover: "hovered", contract.MouseTripleClick: "triple-clicked"}

// doMouse clicks, double-clicks, right-clicks or hovers at a point, and says
// what was there and what changed.
func (o *op) doMouse(a contract.Action) (string, error) {
	op := strings.TrimSpace(a.Op)
	if op == "" {
		op = contract.MouseClick
	}
	sp, err := o.locate(a.Ref, a.Anchor, float64(a.DX), float64(a.DY), a.At)
	if err != nil {
		return "", err
	}
	target := o.whatIsAt(sp.at)
	after, err := o.sendInput(func() error { return o.mouseOp(op, sp.at) })
	if err != nil {
		return "", err
	}
	out := mouseVerbs[op] + " at " + sp.desc // one of them (Validate)
	if op == contract.MouseHover {
		out = "hovered over " + sp.desc
	}
	if target != "" && (sp.el == nil || !strings.HasSuffix(sp.desc, target)) {
		out += " on " + target
	}
	return out + after, nil
}

// mouseOp moves the mouse to at and, unless op is hover, clicks there once
// or twice with the left button, or once with the right one.
func (o *op) mouseOp(op string, at contract.Point) error {
	if err := o.mouse(input.DispatchMouseEventTypeMouseMoved, at.X, at.Y, input.MouseButtonNone, 0, 0); err != nil {
		return err
	}
	press := func(btn input.MouseButton, mask, n int64) error {
		if err := o.mouse(input.DispatchMouseEventTypeMousePressed, at.X, at.Y, btn, mask, n); err != nil {
			return err
		}
		return o.mouse(input.DispatchMouseEventTypeMouseReleased, at.X, at.Y, btn, 0, n)
	}
	switch op {
	case contract.MouseClick:
		return press(input.MouseButtonLeft, 1, 1)
	case contract.MouseDoubleClick:
		if err := press(input.MouseButtonLeft, 1, 1); err != nil {
			return err
		}
		return press(input.MouseButtonLeft, 1, 2)
	case contract.MouseRightClick:
		return press(input.MouseButtonRight, 2, 1)
	case contract.MouseTripleClick:
		for n := int64(1); n <= 3; n++ {
			if err := press(input.MouseButtonLeft, 1, n); err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}

// maxPathMoves bounds the mouse moves of one path; pathStep is the longest
// step of a path.
const (
	maxPathMoves = 300
	pathStep     = 16
)

// doMousePath presses the left button at the first point, moves through the
// others in small steps and releases it at the last.
func (o *op) doMousePath(a contract.Action) (string, error) {
	pts, on, err := o.pathPoints(a)
	if err != nil {
		return "", err
	}
	// Each move costs about a frame (Chromium aligns mouse moves to
	// frames): steps of 16 px draw a shape closely enough.
	moves := pathMoves(pts, pathStep)
	if len(moves) > maxPathMoves {
		moves = pathMoves(pts, pathStep*float64(len(moves))/maxPathMoves+1)
	}
	dropped, after, err := o.dragAlong(moves)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(a.Path))
	for i, p := range a.Path {
		parts[i] = fmt.Sprintf("%g,%g", p.X, p.Y)
	}
	out := fmt.Sprintf("pressed the mouse at %s, moved through %d points and released it at %s%s", parts[0], len(parts)-2, parts[len(parts)-1], on)
	return out + dragNote(dropped) + after, nil
}

// pathPoints returns the points of a mouse path in the viewport, which
// must hold them all: a.Path, or with a.Ref, a.Path as offsets from the
// element's top-left corner, inside its box (on then names it).
func (o *op) pathPoints(a contract.Action) (pts []contract.Point, on string, err error) {
	vw, vh, err := o.viewport()
	if err != nil {
		return nil, "", err
	}
	pts = make([]contract.Point, len(a.Path))
	copy(pts, a.Path)
	if strings.TrimSpace(a.Ref) != "" {
		el, err := o.resolve(a.Ref)
		if err != nil {
			return nil, "", err
		}
		box, err := o.elementBox(el)
		if err != nil {
			return nil, "", err
		}
		w, h := box.width(), box.height()
		for i, p := range pts {
			if p.X < 0 || p.Y < 0 || p.X >= w || p.Y >= h {
				return nil, "", contract.ActionErrorf("point %d (%g, %g) is outside %s, whose box is %gx%g CSS pixels (offsets from its top-left corner); nothing was done",
					i+1, p.X, p.Y, el.desc, math.Round(w), math.Round(h))
			}
			pts[i] = contract.Point{X: box.x0 + p.X, Y: box.y0 + p.Y}
		}
		on = " on " + el.desc
	}
	for i, p := range pts {
		if p.X < 0 || p.Y < 0 || p.X >= vw || p.Y >= vh {
			return nil, "", contract.ActionErrorf("point %d (%g, %g) is outside the viewport, which is %gx%g CSS pixels; nothing was done: give points inside it, or scroll first",
				i+1, p.X, p.Y, vw, vh)
		}
	}
	return pts, on, nil
}
