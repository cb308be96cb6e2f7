package browser

import (
	"fmt"
	"math"

	"github.com/webagent/webagent/contract"
)

// doBox tells where an element is: its border box in CSS pixels of the
// main viewport (also for elements inside frames), its centre, and whether
// and how far it is out of view. It changes nothing on the page.
func (o *op) doBox(a contract.Action) (string, error) {
	el, err := o.resolve(a.Ref)
	if err != nil {
		return "", err
	}
	notRendered := contract.ActionErrorf("%s is not rendered, so it has no box; take a new snapshot", el.desc)
	boxes, err := o.boxes(el, notRendered)
	if err != nil {
		return "", err
	}
	if len(boxes) == 0 {
		return "", notRendered
	}
	box := boxes[0]
	for _, b := range boxes[1:] {
		box = box.union(b)
	}
	vw, vh, err := o.viewport()
	if err != nil {
		return "", err
	}
	c := box.center()
	return fmt.Sprintf("%s: x=%d y=%d width=%d height=%d, centre %d,%d (CSS pixels of the %dx%d viewport)",
		el.desc, r(box.x0), r(box.y0), r(box.width()), r(box.height()), r(c.X), r(c.Y), r(vw), r(vh)) + whereInView(box, vw, vh), nil
}

// whereInView says where a box is against a viewport of vw x vh.
func whereInView(box rect, vw, vh float64) string {
	switch {
	case box.y1 <= 0:
		return fmt.Sprintf("; above the view by %d px (scroll up or scroll to it first)", r(-box.y1))
	case box.y0 >= vh:
		return fmt.Sprintf("; below the view by %d px (scroll down or scroll to it first)", r(box.y0-vh))
	case box.x1 <= 0 || box.x0 >= vw:
		return "; beside the view (scroll to it first)"
	case box.x0 < 0 || box.y0 < 0 || box.x1 > vw || box.y1 > vh:
		return "; partly in view"
	}
	return "; in view"
}

// r rounds to the nearest pixel.
func r(f float64) int { return int(math.Round(f)) }
