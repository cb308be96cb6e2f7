package browser

import (
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"

	"github.com/webagent/webagent/contract"
)

// doHover moves the mouse over the element of a.Ref.
func (o *op) doHover(a contract.Action) (string, error) {
	ref := a.Ref
	b := o.b
	el, err := o.resolve(ref)
	if err != nil {
		return "", err
	}
	at, err := o.aim(el, "hover over", false)
	if err != nil {
		return "", err
	}
	s0 := b.nav.state()
	if _, err := cdp.Call(o.ctx, b.target, input.DispatchMouseEvent, input.DispatchMouseEventParams{
		Type: input.DispatchMouseEventTypeMouseMoved, X: at.X, Y: at.Y,
	}); err != nil {
		return "", err
	}
	nav, err := o.afterInput(s0, inputGrace)
	if err != nil {
		return "", err
	}
	return "hovered over " + el.desc + nav, nil
}
