package browser

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
)

// Pointer actions at a point: a point is given in viewport CSS pixels, or
// as a named anchor of an element's box plus an offset. A point outside
// the viewport, or outside the element's box, is refused before anything
// is sent.

// anchorInset is how far inside the box a corner or an edge anchor lies,
// so that a press there lands on the element (a resize grip sits in the
// corner itself).
const anchorInset = 3

// viewport returns the size of the layout viewport in CSS pixels.
func (b *Browser) viewport(o *op) (w, h float64, err error) {
	lm, err := cdp.Call(o.ctx, b.target, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return 0, 0, err
	}
	w, h = float64(b.width), float64(b.height)
	if v := lm.CSSLayoutViewport; v != nil && v.ClientWidth > 0 {
		w, h = float64(v.ClientWidth), float64(v.ClientHeight)
	}
	return w, h, nil
}

// elementBox scrolls el into view and returns the box (x0, y0, x1, y1) of
// its largest part in main-viewport CSS pixels, not clipped to the viewport.
func (b *Browser) elementBox(o *op, el element) ([4]float64, error) {
	var box [4]float64
	notVisible := contract.ActionErrorf("%s is not visible, so no point of it can be used; take a new snapshot", el.desc)
	if _, err := cdp.Call(o.ctx, b.targetOf(el.frame), dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{ObjectID: el.id}); err != nil {
		if isProtocolError(err) {
			return box, notVisible
		}
		return box, err
	}
	quads, err := cdp.Call(o.ctx, b.targetOf(el.frame), dom.GetContentQuads, dom.GetContentQuadsParams{ObjectID: el.id})
	if err != nil {
		if isProtocolError(err) {
			return box, notVisible
		}
		return box, err
	}
	var dx, dy float64
	if el.frame != nil {
		if dx, dy, err = b.frameOffset(o, el.frame); err != nil {
			return box, err
		}
	}
	best := 0.0
	for _, q := range quads.Quads {
		if len(q) != 8 {
			continue
		}
		x0, x1 := min(q[0], q[2], q[4], q[6])+dx, max(q[0], q[2], q[4], q[6])+dx
		y0, y1 := min(q[1], q[3], q[5], q[7])+dy, max(q[1], q[3], q[5], q[7])+dy
		if a := (x1 - x0) * (y1 - y0); a > best {
			best, box = a, [4]float64{x0, y0, x1, y1}
		}
	}
	if best == 0 {
		return box, notVisible
	}
	return box, nil
}

// anchorPoint returns the named point of a box: center, a corner
// (top-left, ...) or the middle of an edge (left, right, top, bottom),
// corners and edges slightly inside the box.
func anchorPoint(box [4]float64, anchor string) (x, y float64, err error) {
	x0, y0, x1, y1 := box[0], box[1], box[2], box[3]
	ix, iy := min(anchorInset, (x1-x0)/4), min(anchorInset, (y1-y0)/4)
	l, r, t, bt := x0+ix, x1-ix, y0+iy, y1-iy
	cx, cy := (x0+x1)/2, (y0+y1)/2
	switch strings.ToLower(strings.TrimSpace(anchor)) {
	case "", "center", "centre":
		return cx, cy, nil
	case "top-left":
		return l, t, nil
	case "top-right":
		return r, t, nil
	case "bottom-left":
		return l, bt, nil
	case "bottom-right":
		return r, bt, nil
	case "left":
		return l, cy, nil
	case "right":
		return r, cy, nil
	case "top":
		return cx, t, nil
	case "bottom":
		return cx, bt, nil
	}
	return 0, 0, contract.CheckAnchor(anchor)
}

// spot is where a pointer action happens.
type spot struct {
	x, y float64
	desc string // "(120, 40)" or `(120, 40) at the bottom-right of textbox "Notes" [ref=e4]`
	el   *element
	box  [4]float64 // el's box
}

// locate resolves a point: with ref, the anchor of its box moved by (dx,
// dy), which must stay inside the box; else at, in the viewport. Either
// must lie inside the viewport.
func (b *Browser) locate(o *op, ref, anchor string, dx, dy float64, at *contract.Point) (spot, error) {
	vw, vh, err := b.viewport(o)
	if err != nil {
		return spot{}, err
	}
	if strings.TrimSpace(ref) == "" {
		if at == nil {
			return spot{}, errors.New("browser: a point needs a ref or x and y") // Validate sees to it
		}
		if at.X < 0 || at.Y < 0 || at.X >= vw || at.Y >= vh {
			return spot{}, contract.ActionErrorf("the point (%g, %g) is outside the viewport, which is %gx%g CSS pixels (x 0-%g, y 0-%g); nothing was done: give a point inside it, or scroll first",
				at.X, at.Y, vw, vh, vw-1, vh-1)
		}
		return spot{x: at.X, y: at.Y, desc: fmt.Sprintf("(%g, %g)", at.X, at.Y)}, nil
	}
	el, err := b.resolve(o, ref)
	if err != nil {
		return spot{}, err
	}
	box, err := b.elementBox(o, el)
	if err != nil {
		return spot{}, err
	}
	ax, ay, err := anchorPoint(box, anchor)
	if err != nil {
		return spot{}, err
	}
	x, y := math.Round(ax+dx), math.Round(ay+dy)
	where := "the center"
	if a := strings.TrimSpace(anchor); a != "" && a != "center" {
		where = "the " + a
	}
	if dx != 0 || dy != 0 {
		where = fmt.Sprintf("%g, %g px from %s", dx, dy, where)
	}
	if x < math.Floor(box[0]) || y < math.Floor(box[1]) || x >= math.Ceil(box[2]) || y >= math.Ceil(box[3]) {
		return spot{}, contract.ActionErrorf("%s of %s is outside its box, which is %gx%g CSS pixels; nothing was done: give a smaller offset",
			where, el.desc, math.Round(box[2]-box[0]), math.Round(box[3]-box[1]))
	}
	if x < 0 || y < 0 || x >= vw || y >= vh {
		return spot{}, contract.ActionErrorf("%s of %s is outside the viewport; nothing was done: scroll so that it shows, or use another anchor", where, el.desc)
	}
	return spot{x: x, y: y, el: &el, box: box, desc: fmt.Sprintf("(%g, %g), %s of %s", x, y, where, el.desc)}, nil
}

// atPointJS describes the element at a viewport point of the main
// document, through open shadow roots, with its ref when it has one.
var atPointJS = program("atPoint")

// whatIsAt describes the element at a viewport point, or "" when it cannot.
func (b *Browser) whatIsAt(o *op, x, y float64) string {
	var d string
	if err := b.evalValue(o, jsCall(atPointJS, x, y), &d); err != nil {
		return ""
	}
	return d
}

// mouse sends one mouse event at (x, y).
func (b *Browser) mouse(ctx context.Context, typ input.DispatchMouseEventType, x, y float64, button input.MouseButton, buttons, clicks int64) error {
	p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: button, Buttons: buttons, ClickCount: clicks}
	_, err := cdp.Call(ctx, b.target, input.DispatchMouseEvent, p)
	return err
}

// doMouse clicks, double-clicks, right-clicks or hovers at a point, and says
// what was there and what changed.
func (b *Browser) doMouse(o *op, a contract.Action) (string, error) {
	op := strings.TrimSpace(a.Op)
	if op == "" {
		op = contract.MouseClick
	}
	verbs := map[string]string{contract.MouseClick: "clicked", contract.MouseDoubleClick: "double-clicked", contract.MouseRightClick: "right-clicked", contract.MouseHover: "hovered"}
	verb := verbs[op] // one of them (Validate)
	sp, err := b.locate(o, a.Ref, a.Anchor, float64(a.DX), float64(a.DY), a.At)
	if err != nil {
		return "", err
	}
	target := b.whatIsAt(o, sp.x, sp.y)
	watch := b.watchChanges(o)
	s0 := b.nav.state()
	x, y := sp.x, sp.y
	if err := b.mouse(o.ctx, input.DispatchMouseEventTypeMouseMoved, x, y, input.MouseButtonNone, 0, 0); err != nil {
		return "", err
	}
	press := func(btn input.MouseButton, mask, n int64) error {
		if err := b.mouse(o.ctx, input.DispatchMouseEventTypeMousePressed, x, y, btn, mask, n); err != nil {
			return err
		}
		return b.mouse(o.ctx, input.DispatchMouseEventTypeMouseReleased, x, y, btn, 0, n)
	}
	switch op {
	case contract.MouseClick:
		err = press(input.MouseButtonLeft, 1, 1)
	case contract.MouseDoubleClick:
		if err = press(input.MouseButtonLeft, 1, 1); err == nil {
			err = press(input.MouseButtonLeft, 1, 2)
		}
	case contract.MouseRightClick:
		err = press(input.MouseButtonRight, 2, 1)
	}
	if err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	out := verb + " at " + sp.desc
	if op == contract.MouseHover {
		out = "hovered over " + sp.desc
	}
	if target != "" && (sp.el == nil || !strings.HasSuffix(sp.desc, target)) {
		out += " on " + target
	}
	if nav != "" {
		return out + nav, nil
	}
	return out + watch(), nil
}

// pathMoves returns the points the mouse passes through along the path:
// each given point, and steps of at most about maxStep pixels between them.
func pathMoves(pts []contract.Point, maxStep float64) []contract.Point {
	if len(pts) == 0 {
		return nil
	}
	out := []contract.Point{pts[0]}
	for i := 1; i < len(pts); i++ {
		a, c := pts[i-1], pts[i]
		n := int(math.Ceil(math.Hypot(c.X-a.X, c.Y-a.Y) / maxStep))
		n = max(n, 2)
		for k := 1; k <= n; k++ {
			f := float64(k) / float64(n)
			out = append(out, contract.Point{X: a.X + (c.X-a.X)*f, Y: a.Y + (c.Y-a.Y)*f})
		}
	}
	return out
}

// maxPathMoves bounds the mouse moves of one path; pathStep is the longest
// step of a path, dragStep of a drag (which has at least dragSteps).
const (
	maxPathMoves = 300
	pathStep     = 16
	dragStep     = 30
)

// doMousePath presses the left button at the first point, moves through the
// others in small steps and releases it at the last.
func (b *Browser) doMousePath(o *op, a contract.Action) (string, error) {
	vw, vh, err := b.viewport(o)
	if err != nil {
		return "", err
	}
	pts := make([]contract.Point, len(a.Path))
	copy(pts, a.Path)
	on := ""
	if strings.TrimSpace(a.Ref) != "" {
		el, err := b.resolve(o, a.Ref)
		if err != nil {
			return "", err
		}
		box, err := b.elementBox(o, el)
		if err != nil {
			return "", err
		}
		w, h := box[2]-box[0], box[3]-box[1]
		for i, p := range pts {
			if p.X < 0 || p.Y < 0 || p.X >= w || p.Y >= h {
				return "", contract.ActionErrorf("point %d (%g, %g) is outside %s, whose box is %gx%g CSS pixels (offsets from its top-left corner); nothing was done",
					i+1, p.X, p.Y, el.desc, math.Round(w), math.Round(h))
			}
			pts[i] = contract.Point{X: box[0] + p.X, Y: box[1] + p.Y}
		}
		on = " on " + el.desc
	}
	for i, p := range pts {
		if p.X < 0 || p.Y < 0 || p.X >= vw || p.Y >= vh {
			return "", contract.ActionErrorf("point %d (%g, %g) is outside the viewport, which is %gx%g CSS pixels; nothing was done: give points inside it, or scroll first",
				i+1, p.X, p.Y, vw, vh)
		}
	}
	// Each move costs about a frame (Chromium aligns mouse moves to
	// frames): steps of 16 px draw a shape closely enough.
	moves := pathMoves(pts, pathStep)
	if len(moves) > maxPathMoves {
		moves = pathMoves(pts, pathStep*float64(len(moves))/maxPathMoves+1)
	}
	watch := b.watchChanges(o)
	s0 := b.nav.state()
	dropped, err := b.dragMouse(o, moves)
	if err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(a.Path))
	for i, p := range a.Path {
		parts[i] = fmt.Sprintf("%g,%g", p.X, p.Y)
	}
	out := fmt.Sprintf("pressed the mouse at %s, moved through %d points and released it at %s%s", parts[0], len(parts)-2, parts[len(parts)-1], on)
	if dropped {
		out += " (HTML drag and drop)"
	}
	if nav != "" {
		return out + nav, nil
	}
	return out + watch(), nil
}

// dragPoints drags from a point (x, y, or an anchor of ref) to a point
// (to_x, to_y, an anchor of to_ref, or the start moved by dx, dy).
func (b *Browser) dragPoints(o *op, a contract.Action) (string, error) {
	src, err := b.locate(o, a.Ref, a.Anchor, 0, 0, a.At)
	if err != nil {
		return "", err
	}
	var dst spot
	switch {
	case strings.TrimSpace(a.ToRef) != "":
		if dst, err = b.locate(o, a.ToRef, a.ToAnchor, 0, 0, nil); err != nil {
			return "", err
		}
		if src.el != nil {
			// Bringing the target into view may have moved the source.
			if src, err = b.locate(o, a.Ref, a.Anchor, 0, 0, nil); err != nil {
				return "", err
			}
		}
	case a.To != nil:
		if dst, err = b.locate(o, "", "", 0, 0, a.To); err != nil {
			return "", err
		}
	default:
		p := contract.Point{X: src.x + float64(a.DX), Y: src.y + float64(a.DY)}
		if dst, err = b.locate(o, "", "", 0, 0, &p); err != nil {
			return "", contract.ActionErrorf("dragging by (%d, %d) from %s leads outside the viewport; nothing was done: scroll first or use a smaller offset", a.DX, a.DY, src.desc)
		}
	}
	pts := []contract.Point{{X: src.x, Y: src.y}, {X: dst.x, Y: dst.y}}
	moves := pathMoves(pts, dragStep)
	if len(moves) < dragSteps+1 {
		moves = straightMoves(src.x, src.y, dst.x, dst.y)
	}
	from := b.whatIsAt(o, src.x, src.y)
	watch := b.watchChanges(o)
	s0 := b.nav.state()
	dropped, err := b.dragMouse(o, moves)
	if err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	out := "dragged from " + src.desc
	if src.el == nil && from != "" {
		out += " (" + from + ")"
	}
	out += " to " + dst.desc
	if dropped {
		out += " (HTML drag and drop)"
	}
	if nav != "" {
		return out + nav, nil
	}
	return out + watch(), nil
}
