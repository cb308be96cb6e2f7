package browser

import (
	"math"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
)

// Geometry: where an element is, in CSS pixels of the main viewport (also
// for an element in a frame of another site, whose own coordinates start
// at its frame), and the points a pointer action aims at. A point is a
// contract.Point; a box is a rect.

// rect is a box from (x0, y0) to (x1, y1) in CSS pixels of the main
// viewport.
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) width() float64  { return r.x1 - r.x0 }
func (r rect) height() float64 { return r.y1 - r.y0 }
func (r rect) area() float64   { return r.width() * r.height() }

// empty reports whether the rect has no area.
func (r rect) empty() bool { return r.x1 <= r.x0 || r.y1 <= r.y0 }

func (r rect) center() contract.Point {
	return contract.Point{X: (r.x0 + r.x1) / 2, Y: (r.y0 + r.y1) / 2}
}

// at is the point at the fractions fx, fy of the rect's width and height.
func (r rect) at(fx, fy float64) contract.Point {
	return contract.Point{X: r.x0 + r.width()*fx, Y: r.y0 + r.height()*fy}
}

// clip is the part of the rect inside a viewport of vw x vh.
func (r rect) clip(vw, vh float64) rect {
	return rect{max(r.x0, 0), max(r.y0, 0), min(r.x1, vw), min(r.y1, vh)}
}

// union is the smallest rect that holds both.
func (r rect) union(s rect) rect {
	return rect{min(r.x0, s.x0), min(r.y0, s.y0), max(r.x1, s.x1), max(r.y1, s.y1)}
}

// quadRect is the rect around a quad as CDP gives it (four corners, x and
// y each), moved by off; ok is false for a malformed quad.
func quadRect(q []float64, off contract.Point) (r rect, ok bool) {
	if len(q) != 8 {
		return rect{}, false
	}
	return rect{
		min(q[0], q[2], q[4], q[6]) + off.X, min(q[1], q[3], q[5], q[7]) + off.Y,
		max(q[0], q[2], q[4], q[6]) + off.X, max(q[1], q[3], q[5], q[7]) + off.Y,
	}, true
}

// viewport returns the size of the layout viewport in CSS pixels (scroll
// bars excluded).
func (o *op) viewport() (w, h float64, err error) {
	b := o.b
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

// scrollIntoView scrolls every scrollable area around el so that it
// shows, as Chromium does for a focused element; notVisible when el is
// not rendered.
func (o *op) scrollIntoView(el element, notVisible error) error {
	_, err := cdp.Call(o.ctx, o.b.targetOf(el.frame), dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{ObjectID: el.id})
	if err != nil && isProtocolError(err) {
		return notVisible
	}
	return err
}

// boxes returns the boxes of el's parts (one per line of an inline
// element), not clipped to the viewport; notVisible when el is not
// rendered.
func (o *op) boxes(el element, notVisible error) ([]rect, error) {
	quads, err := cdp.Call(o.ctx, o.b.targetOf(el.frame), dom.GetContentQuads, dom.GetContentQuadsParams{ObjectID: el.id})
	if err != nil {
		if isProtocolError(err) {
			return nil, notVisible
		}
		return nil, err
	}
	var off contract.Point // a cross-origin frame's quads are in its own viewport
	if el.frame != nil {
		if off, err = o.frameOffset(el.frame); err != nil {
			return nil, err
		}
	}
	var out []rect
	for _, q := range quads.Quads {
		if r, ok := quadRect(q, off); ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// inView scrolls el into view and returns the centre of its visible part
// with that part's box.
func (o *op) inView(el element) (contract.Point, rect, error) {
	notVisible := contract.ActionErrorf("%s is not visible, so it cannot be used; take a new snapshot", el.desc)
	if err := o.scrollIntoView(el, notVisible); err != nil {
		return contract.Point{}, rect{}, err
	}
	return o.visiblePart(el, notVisible)
}

// visiblePart returns the centre and box of the largest part of el inside
// the viewport, without scrolling; notVisible when there is none.
func (o *op) visiblePart(el element, notVisible error) (contract.Point, rect, error) {
	return o.visiblePartIn(el, 0, 0, notVisible)
}

// visiblePartIn is visiblePart in a top viewport of a known size vw x vh
// (CSS pixels, scroll bars excluded); 0 asks the browser for it.
func (o *op) visiblePartIn(el element, vw, vh float64, notVisible error) (contract.Point, rect, error) {
	boxes, err := o.boxes(el, notVisible)
	if err != nil {
		return contract.Point{}, rect{}, err
	}
	if vw <= 0 || vh <= 0 {
		if vw, vh, err = o.viewport(); err != nil {
			return contract.Point{}, rect{}, err
		}
	}
	var best rect
	for _, r := range boxes {
		if part := r.clip(vw, vh); !part.empty() && part.area() > best.area() {
			best = part
		}
	}
	if best.empty() {
		return contract.Point{}, rect{}, notVisible
	}
	return best.center(), best, nil
}

// elementBox scrolls el into view and returns the box of its largest part,
// not clipped to the viewport.
func (o *op) elementBox(el element) (rect, error) {
	notVisible := contract.ActionErrorf("%s is not visible, so no point of it can be used; take a new snapshot", el.desc)
	if err := o.scrollIntoView(el, notVisible); err != nil {
		return rect{}, err
	}
	boxes, err := o.boxes(el, notVisible)
	if err != nil {
		return rect{}, err
	}
	var best rect
	for _, r := range boxes {
		if r.area() > best.area() {
			best = r
		}
	}
	if best.area() == 0 {
		return rect{}, notVisible
	}
	return best, nil
}

// frameOffset is where the viewport of fr starts in the main viewport: the
// sum of the content-box origins of its frame elements.
func (o *op) frameOffset(fr *oopif) (contract.Point, error) {
	b := o.b
	var off contract.Point
	for ; fr != nil; fr = fr.owner {
		t := b.targetOf(fr.owner)
		owner, err := cdp.Call(o.ctx, t, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: fr.id})
		if err != nil {
			return contract.Point{}, err
		}
		box, err := cdp.Call(o.ctx, t, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: owner.BackendNodeID})
		if err != nil {
			return contract.Point{}, err
		}
		if c, ok := quadRect(box.Model.Content, contract.Point{}); ok {
			off.X += c.x0
			off.Y += c.y0
		}
	}
	return off, nil
}

// anchorInset is how far inside the box a corner or an edge anchor lies,
// so that a press there lands on the element (a resize grip sits in the
// corner itself).
const anchorInset = 3

// anchorPoint returns the named point of a box (contract.Anchors): center,
// a corner (top-left, ...) or the middle of an edge (left, right, top,
// bottom), corners and edges slightly inside the box.
func anchorPoint(box rect, anchor string) (contract.Point, error) {
	ix, iy := min(anchorInset, box.width()/4), min(anchorInset, box.height()/4)
	l, r, t, bt := box.x0+ix, box.x1-ix, box.y0+iy, box.y1-iy
	c := box.center()
	pt := func(x, y float64) (contract.Point, error) { return contract.Point{X: x, Y: y}, nil }
	switch strings.ToLower(strings.TrimSpace(anchor)) {
	case "", "center", "centre":
		return c, nil
	case "top-left":
		return pt(l, t)
	case "top-right":
		return pt(r, t)
	case "bottom-left":
		return pt(l, bt)
	case "bottom-right":
		return pt(r, bt)
	case "left":
		return pt(l, c.Y)
	case "right":
		return pt(r, c.Y)
	case "top":
		return pt(c.X, t)
	case "bottom":
		return pt(c.X, bt)
	}
	return contract.Point{}, contract.CheckAnchor(anchor)
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
