package browser

import (
	"fmt"
	"math"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
)

// doBox tells where an element is: its border box in CSS pixels of the
// main viewport (also for elements inside frames), its centre, and whether
// and how far it is out of view. It changes nothing on the page.
func (b *Browser) doBox(o *op, ref string) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	quads, err := cdp.Call(o.ctx, b.targetOf(el.frame), dom.GetContentQuads, dom.GetContentQuadsParams{ObjectID: el.id})
	if err != nil {
		if isProtocolError(err) {
			return "", contract.ActionErrorf("%s is not rendered, so it has no box; take a new snapshot", el.desc)
		}
		return "", err
	}
	var dx, dy float64 // a cross-origin frame's quads are in its own viewport
	if el.frame != nil {
		if dx, dy, err = b.frameOffset(o, el.frame); err != nil {
			return "", err
		}
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range quads.Quads {
		if len(q) != 8 {
			continue
		}
		x0, x1 = min(x0, q[0]+dx, q[2]+dx, q[4]+dx, q[6]+dx), max(x1, q[0]+dx, q[2]+dx, q[4]+dx, q[6]+dx)
		y0, y1 = min(y0, q[1]+dy, q[3]+dy, q[5]+dy, q[7]+dy), max(y1, q[1]+dy, q[3]+dy, q[5]+dy, q[7]+dy)
	}
	if x1 < x0 {
		return "", contract.ActionErrorf("%s is not rendered, so it has no box; take a new snapshot", el.desc)
	}
	lm, err := cdp.Call(o.ctx, b.target, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return "", err
	}
	vw, vh := float64(b.width), float64(b.height)
	if v := lm.CSSLayoutViewport; v != nil && v.ClientWidth > 0 {
		vw, vh = float64(v.ClientWidth), float64(v.ClientHeight)
	}
	out := fmt.Sprintf("%s: x=%d y=%d width=%d height=%d, centre %d,%d (CSS pixels of the %dx%d viewport)",
		el.desc, r(x0), r(y0), r(x1-x0), r(y1-y0), r((x0+x1)/2), r((y0+y1)/2), r(vw), r(vh))
	switch {
	case y1 <= 0:
		out += fmt.Sprintf("; above the view by %d px (scroll up or scroll to it first)", r(-y1))
	case y0 >= vh:
		out += fmt.Sprintf("; below the view by %d px (scroll down or scroll to it first)", r(y0-vh))
	case x1 <= 0 || x0 >= vw:
		out += "; beside the view (scroll to it first)"
	case x0 < 0 || y0 < 0 || x1 > vw || y1 > vh:
		out += "; partly in view"
	default:
		out += "; in view"
	}
	return out, nil
}

func r(f float64) int { return int(math.Round(f)) }
