package browser

import (
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
)

// doBack goes back one entry in the tab's history.
func (o *op) doBack(contract.Action) (string, error) { return o.history(-1) }

// doForward goes forward one entry in the tab's history.
func (o *op) doForward(contract.Action) (string, error) { return o.history(+1) }

// history moves step entries back (-1) or forward (+1) in the tab's
// history and waits for the page as after any input.
func (o *op) history(step int) (string, error) {
	b := o.b
	h, err := cdp.Call(o.ctx, b.target, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return "", err
	}
	i, j := int(h.CurrentIndex), int(h.CurrentIndex)+step
	switch {
	case step < 0 && (j < 0 || i >= len(h.Entries) || (j == 0 && h.Entries[0].URL == "about:blank")):
		return "", contract.ActionErrorf("there is no previous page to go back to")
	case step > 0 && (i < 0 || j >= len(h.Entries)):
		return "", contract.ActionErrorf("there is no next page to go forward to")
	}
	s0 := b.nav.state()
	if _, err := cdp.Call(o.ctx, b.target, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[j].ID}); err != nil {
		return "", err
	}
	nav, err := o.followNavigation(s0, settleLoad)
	if err != nil {
		return "", err
	}
	if nav == "" {
		n, err := o.navigated()
		if err != nil {
			return "", err
		}
		nav = "; " + n
	}
	if step < 0 {
		return "went back" + nav, nil
	}
	return "went forward" + nav, nil
}
