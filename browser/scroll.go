package browser

import (
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// scrollerJS finds what a wheel at (x, y) scrolls in the direction (dx, dy):
// the innermost scrollable element there that has room, else the page.
var scrollerJS = program("scroller")

// scrollPosJS reports the position of a scroller once it has stopped
// moving (smooth scrolling takes a few frames), or after a second.
var scrollPosJS = program("scrollPos")

type scrollPos struct {
	X, Y, MaxX, MaxY int
	Page             bool
}

// doScroll brings the element of a.Ref into view, or scrolls by about a
// viewport in a.Direction.
func (o *op) doScroll(a contract.Action) (string, error) {
	if strings.TrimSpace(a.Ref) != "" {
		return o.scrollTo(a.Ref)
	}
	if a.At != nil && (a.DX != 0 || a.DY != 0) {
		return o.scrollAt(*a.At, float64(a.DX), float64(a.DY))
	}
	return o.scrollBy(a.Direction)
}

// scrollBy turns the mouse wheel at the viewport's centre by about a
// viewport in direction, and says where the page (or the scrollable area
// there) is now.
func (o *op) scrollBy(direction string) (string, error) {
	b := o.b
	dir := strings.ToLower(strings.TrimSpace(direction))
	var dx, dy float64
	w, h := float64(b.width), float64(b.height)
	switch dir {
	case "down":
		dy = h * 0.85
	case "up":
		dy = -h * 0.85
	case "right":
		dx = w * 0.85
	case "left":
		dx = -w * 0.85
	default: // not one of them: Validate refuses it
		return "", fmt.Errorf("browser: scroll direction %q", direction)
	}
	return o.wheelAt(w/2, h/2, dx, dy, dir)
}

// scrollAt turns the mouse wheel at a viewport point by (dx, dy) CSS
// pixels, and says what was under the pointer and where it is now.
func (o *op) scrollAt(at contract.Point, dx, dy float64) (string, error) {
	vw, vh, err := o.viewport()
	if err != nil {
		return "", err
	}
	if at.X < 0 || at.Y < 0 || at.X >= vw || at.Y >= vh {
		return "", contract.ActionErrorf("the point (%g, %g) is outside the viewport, which is %gx%g CSS pixels; nothing was scrolled", at.X, at.Y, vw, vh)
	}
	dir := "down"
	switch {
	case dy < 0:
		dir = "up"
	case dy == 0 && dx > 0:
		dir = "right"
	case dy == 0 && dx < 0:
		dir = "left"
	}
	out, err := o.wheelAt(at.X, at.Y, dx, dy, dir)
	if err != nil {
		return "", err
	}
	if under := o.whatIsAt(at); under != "" {
		out += fmt.Sprintf(" (the wheel at (%g, %g), over %s)", at.X, at.Y, under)
	}
	return out, nil
}

// wheelAt turns the wheel at (cx, cy) by (dx, dy) and says where the
// page, or the scrollable area there, is now; dir names the direction.
func (o *op) wheelAt(cx, cy, dx, dy float64, dir string) (string, error) {
	r, err := o.eval(runtime.EvaluateParams{Expression: jsCall(scrollerJS, cx, cy, dx, dy), ObjectGroup: o.objectGroup()})
	if err != nil {
		return "", err
	}
	var before, after scrollPos
	if err := o.callOn(r.ObjectID, scrollPosJS, &before, false); err != nil {
		return "", err
	}
	if err := o.wheel(cx, cy, dx, dy); err != nil {
		return "", err
	}
	if err := o.callOn(r.ObjectID, scrollPosJS, &after, true); err != nil {
		return "", err
	}
	what := "the page"
	if !after.Page {
		what = "the scrollable area"
	}
	vertical := dy != 0
	pos, end := after.Y, after.MaxY
	if !vertical {
		pos, end = after.X, after.MaxX
	}
	atEnd := (dy > 0 || dx > 0) && pos >= end || (dy < 0 || dx < 0) && pos <= 0
	edge := map[string]string{"down": "bottom", "up": "top", "left": "left edge", "right": "right edge"}[dir]
	if before.X == after.X && before.Y == after.Y {
		return fmt.Sprintf("could not scroll %s: %s is already at the %s", dir, what, edge), nil
	}
	axis := "y"
	if !vertical {
		axis = "x"
	}
	out := fmt.Sprintf("scrolled %s %s: now at %s=%d of %d", what, dir, axis, pos, end)
	if atEnd {
		out += "; reached the " + edge
	}
	return out, nil
}

// scrollTo brings the element of ref into view (centred when it was out
// of view), scrolling every scrollable area around it as needed.
func (o *op) scrollTo(ref string) (string, error) {
	el, err := o.resolve(ref)
	if err != nil {
		return "", err
	}
	if _, _, err := o.inView(el); err != nil {
		return "", err
	}
	// Let scroll handlers (lazy loading, sticky headers) run.
	var st settled
	if err := o.callEl(el, settleJS, &st, false); err != nil {
		return "", err
	}
	return "scrolled " + el.desc + " into view", nil
}
