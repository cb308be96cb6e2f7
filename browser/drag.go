package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// The drag action: the mouse is pressed on an element or at a point, moved
// in steps, as a hand moves it, and released on another element, at a
// point, or at an offset. An HTML5 drag that the page starts is carried out
// with drag events.

// dragSteps is the number of mouse moves between the press and the release
// of a drag: drag libraries need to see the pointer travel.
const dragSteps = 12

// dragStep is the longest step of a drag between two points (which has at
// least dragSteps).
const dragStep = 30

// doDrag drags the element of a.Ref onto the element of a.ToRef, or by the
// offset a.DX, a.DY. A drag from or to a point, or between anchors of the
// elements' boxes, is dragPoints'.
func (o *op) doDrag(a contract.Action) (string, error) {
	if strings.TrimSpace(a.Ref) == "" {
		return o.dragPoints(a)
	}
	src, err := o.resolve(a.Ref)
	if err != nil {
		return "", err
	}
	if a.To != nil || strings.TrimSpace(a.Anchor) != "" || strings.TrimSpace(a.ToAnchor) != "" {
		return o.dragPoints(a)
	}
	var dst *element
	if strings.TrimSpace(a.ToRef) != "" {
		d, err := o.resolve(a.ToRef)
		if err != nil {
			return "", err
		}
		dst = &d
	}
	aimed, err := o.aim(src, "drag of", false)
	if err != nil {
		return "", err
	}
	from, to := aimed.Point, contract.Point{}
	if dst != nil {
		from, to, err = o.dropOnto(src, *dst)
	} else {
		to, err = o.dragBy(src, from, a.DX, a.DY)
	}
	if err != nil {
		return "", err
	}
	dropped, after, err := o.dragAlong(straightMoves(from, to))
	if err != nil {
		return "", err
	}
	out := "dragged " + src.desc
	if dst != nil {
		out += " onto " + dst.desc
	} else {
		out += fmt.Sprintf(" by (%d, %d)", a.DX, a.DY)
	}
	return out + dragNote(dropped) + after, nil
}

// dropOnto aims a drag of src onto dst: at a point of dst that the mouse
// reaches, brought into view, and from a point of src that it still
// reaches then.
func (o *op) dropOnto(src, dst element) (from, to contract.Point, err error) {
	notVisible := contract.ActionErrorf("%s is not visible, so nothing can be dropped on it; take a new snapshot", dst.desc)
	if err := o.scrollIntoView(dst, notVisible); err != nil {
		return from, to, err
	}
	at, box, err := o.visiblePart(dst, notVisible)
	if err != nil {
		return from, to, err
	}
	onto, err := o.hitTest(dst, "drop onto", at, box, "")
	if err != nil {
		return from, to, err
	}
	// Scrolling to the target may have moved the source.
	at, box, err = o.visiblePart(src, contract.ActionErrorf("%s and %s do not fit in the viewport together; scroll so that both show, or drag by an offset", src.desc, dst.desc))
	if err != nil {
		return from, to, err
	}
	start, err := o.hitTest(src, "drag of", at, box, "")
	if err != nil {
		return from, to, err
	}
	return start.Point, onto.Point, nil
}

// dragBy is where a drag of src from the point from by (dx, dy) ends; it
// must be inside the viewport.
func (o *op) dragBy(src element, from contract.Point, dx, dy int) (contract.Point, error) {
	b := o.b
	to := contract.Point{X: from.X + float64(dx), Y: from.Y + float64(dy)}
	if to.X < 0 || to.Y < 0 || to.X >= float64(b.width) || to.Y >= float64(b.height) {
		return to, contract.ActionErrorf("dragging %s by (%d, %d) leads outside the viewport; scroll first or use a smaller offset", src.desc, dx, dy)
	}
	return to, nil
}

// dragPoints drags from a point (x, y, or an anchor of ref) to a point
// (to_x, to_y, an anchor of to_ref, or the start moved by dx, dy).
func (o *op) dragPoints(a contract.Action) (string, error) {
	src, err := o.locate(a.Ref, a.Anchor, 0, 0, a.At)
	if err != nil {
		return "", err
	}
	var dst spot
	switch {
	case strings.TrimSpace(a.ToRef) != "":
		if dst, err = o.locate(a.ToRef, a.ToAnchor, 0, 0, nil); err != nil {
			return "", err
		}
		if src.el != nil {
			// Bringing the target into view may have moved the source.
			if src, err = o.locate(a.Ref, a.Anchor, 0, 0, nil); err != nil {
				return "", err
			}
		}
	case a.To != nil:
		if dst, err = o.locate("", "", 0, 0, a.To); err != nil {
			return "", err
		}
	default:
		p := contract.Point{X: src.at.X + float64(a.DX), Y: src.at.Y + float64(a.DY)}
		if dst, err = o.locate("", "", 0, 0, &p); err != nil {
			return "", contract.ActionErrorf("dragging by (%d, %d) from %s leads outside the viewport; nothing was done: scroll first or use a smaller offset", a.DX, a.DY, src.desc)
		}
	}
	moves := pathMoves([]contract.Point{src.at, dst.at}, dragStep)
	if len(moves) < dragSteps+1 {
		moves = straightMoves(src.at, dst.at)
	}
	from := o.whatIsAt(src.at)
	dropped, after, err := o.dragAlong(moves)
	if err != nil {
		return "", err
	}
	out := "dragged from " + src.desc
	if src.el == nil && from != "" {
		out += " (" + from + ")"
	}
	return out + " to " + dst.desc + dragNote(dropped) + after, nil
}

// dragNote says that a drag was carried out as HTML drag and drop.
func dragNote(dropped bool) string {
	if dropped {
		return " (HTML drag and drop)"
	}
	return ""
}

// dragAlong drags the mouse along moves (dragMouse) and waits for what
// that caused (sendInput); dropped reports an HTML drag and drop.
func (o *op) dragAlong(moves []contract.Point) (dropped bool, after string, err error) {
	after, err = o.sendInput(func() error {
		var err error
		dropped, err = o.dragMouse(moves)
		return err
	})
	return dropped, after, err
}

// straightMoves returns the press point, dragSteps moves in a straight line
// and the release point of a drag from one point to another.
func straightMoves(from, to contract.Point) []contract.Point {
	out := []contract.Point{from}
	for i := 1; i <= dragSteps; i++ {
		f := float64(i) / dragSteps
		out = append(out, contract.Point{X: from.X + (to.X-from.X)*f, Y: from.Y + (to.Y-from.Y)*f})
	}
	return out
}

// dragMouse presses the left button at the first of moves, moves through
// the others and releases it at the last. When the page starts an HTML5
// drag, Chromium hands it over (Input.setInterceptDrags) and the drag
// events are dispatched at the last point; dropped reports that.
func (o *op) dragMouse(moves []contract.Point) (dropped bool, err error) {
	b := o.b
	if len(moves) < 2 {
		return false, fmt.Errorf("a drag needs at least two points")
	}
	start, end := moves[0], moves[len(moves)-1]
	drags, stop := catchEvent(b.tabCtx, input.DragIntercepted, func(input.EventDragIntercepted) bool { return true })
	defer stop()
	if _, err := cdp.Call(o.ctx, b.target, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}); err != nil {
		return false, err
	}
	defer func() {
		// Turn interception off even when the caller's context ended.
		ctx, cancel := context.WithTimeout(b.broken, cleanupTimeout)
		defer cancel()
		if _, err := cdp.Call(ctx, b.target, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false}); err != nil {
			b.log.Debug("turning drag interception off", "error", err)
		}
	}()
	if err := o.dragButton(input.DispatchMouseEventTypeMouseMoved, start, 0); err != nil {
		return false, err
	}
	if err := o.dragButton(input.DispatchMouseEventTypeMousePressed, start, 1); err != nil {
		return false, err
	}
	data, err := o.dragMoves(moves[1:], drags)
	if err != nil {
		return false, err
	}
	if data != nil {
		for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
			if _, err := cdp.Call(o.ctx, b.target, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: end.X, Y: end.Y, Data: data}); err != nil {
				return false, err
			}
		}
	}
	if err := o.dragButton(input.DispatchMouseEventTypeMouseReleased, end, 0); err != nil {
		return false, err
	}
	return data != nil, nil
}

// dragMoves moves the pressed mouse through the points until the page
// starts an HTML5 drag, which Chromium hands over on drags; it returns
// that drag's data, nil when the page started none.
func (o *op) dragMoves(points []contract.Point, drags <-chan input.EventDragIntercepted) (*input.DragData, error) {
	caught := func() *input.DragData {
		select {
		case ev := <-drags:
			return ev.Data
		default:
			return nil
		}
	}
	for _, p := range points {
		if err := o.dragButton(input.DispatchMouseEventTypeMouseMoved, p, 1); err != nil {
			return nil, err
		}
		if data := caught(); data != nil {
			return data, nil
		}
	}
	// A round trip to the page lets a pending interception arrive.
	if _, err := cdp.Call(o.ctx, o.b.target, runtime.Evaluate, runtime.EvaluateParams{Expression: "0", Silent: new(true)}); err != nil {
		return nil, err
	}
	return caught(), nil
}

// dragButton sends one mouse event of a drag with the left button held
// (buttons 1) or not.
func (o *op) dragButton(typ input.DispatchMouseEventType, at contract.Point, buttons int64) error {
	p := input.DispatchMouseEventParams{Type: typ, X: at.X, Y: at.Y, Buttons: buttons}
	if typ != input.DispatchMouseEventTypeMouseMoved {
		p.ClickCount = 1
	}
	if typ != input.DispatchMouseEventTypeMouseMoved || buttons != 0 {
		// A move with the button held names it, or Chromium starts no drag.
		p.Button = input.MouseButtonLeft
	}
	_, err := cdp.Call(o.ctx, o.b.target, input.DispatchMouseEvent, p)
	return err
}
