package browser

import (
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"

	"github.com/webagent/webagent/contract"
)

// The mouse: the mouse events every action sends as trusted input through
// Chromium's input pipeline, never as events made up by a script.

// click clicks the left button at the aimed point, first moving the mouse there
// when the page watches pointer motion.
func (o *op) clickAt(at aimed) error {
	return o.clickWith(at, 0)
}

// clickWith clicks the left button at the aimed point with the modifier keys of
// mods held (their key events are the caller's).
func (o *op) clickWith(at aimed, mods int64) error {
	steps := []input.DispatchMouseEventParams{
		{Type: input.DispatchMouseEventTypeMousePressed, X: at.X, Y: at.Y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1, Modifiers: mods},
		{Type: input.DispatchMouseEventTypeMouseReleased, X: at.X, Y: at.Y, Button: input.MouseButtonLeft, ClickCount: 1, Modifiers: mods},
	}
	if at.moves {
		steps = append([]input.DispatchMouseEventParams{{Type: input.DispatchMouseEventTypeMouseMoved, X: at.X, Y: at.Y, Modifiers: mods}}, steps...)
	}
	for _, p := range steps {
		if _, err := cdp.Call(o.ctx, o.b.target, input.DispatchMouseEvent, p); err != nil {
			return err
		}
	}
	return nil
}

// wheel turns the mouse wheel at (x, y) by (dx, dy) CSS pixels.
func (o *op) wheel(x, y, dx, dy float64) error {
	if _, err := cdp.Call(o.ctx, o.b.target, input.DispatchMouseEvent, input.DispatchMouseEventParams{
		Type: input.DispatchMouseEventTypeMouseMoved, X: x, Y: y,
	}); err != nil {
		return err
	}
	// Chromium requires both deltas, and the typed parameters leave out a
	// zero one, so this event is sent as a map.
	return o.b.target.Call(o.ctx, input.CommandDispatchMouseEvent, map[string]any{
		"type": input.DispatchMouseEventTypeMouseWheel, "x": x, "y": y, "deltaX": dx, "deltaY": dy,
	}, nil)
}

// mouse sends one mouse event at (x, y).
func (o *op) mouse(typ input.DispatchMouseEventType, x, y float64, button input.MouseButton, buttons, clicks int64) error {
	p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: button, Buttons: buttons, ClickCount: clicks}
	_, err := cdp.Call(o.ctx, o.b.target, input.DispatchMouseEvent, p)
	return err
}

// mouseSweep presses the left button at the first point, moves through the
// others and releases it at the last, without drag interception.
func (o *op) mouseSweep(moves []contract.Point) error {
	if len(moves) < 2 {
		return fmt.Errorf("a sweep needs two points")
	}
	p0, pn := moves[0], moves[len(moves)-1]
	if err := o.mouse(input.DispatchMouseEventTypeMouseMoved, p0.X, p0.Y, input.MouseButtonNone, 0, 0); err != nil {
		return err
	}
	if err := o.mouse(input.DispatchMouseEventTypeMousePressed, p0.X, p0.Y, input.MouseButtonLeft, 1, 1); err != nil {
		return err
	}
	for _, p := range moves[1:] {
		if err := o.mouse(input.DispatchMouseEventTypeMouseMoved, p.X, p.Y, input.MouseButtonLeft, 1, 0); err != nil {
			return err
		}
	}
	return o.mouse(input.DispatchMouseEventTypeMouseReleased, pn.X, pn.Y, input.MouseButtonLeft, 0, 1)
}
