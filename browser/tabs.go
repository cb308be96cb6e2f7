package browser

import (
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
)

// doTabs lists, switches and closes tabs.
func (o *op) doTabs(a contract.Action) (string, error) {
	b := o.b
	switch strings.ToLower(strings.TrimSpace(a.Op)) {
	case contract.TabsList, "":
		return o.listTabs()
	case contract.TabsSwitch:
		t, err := o.findTab(a.Tab)
		if err != nil {
			return "", err
		}
		if t == b.cur {
			return fmt.Sprintf("tab %s is already the current tab", t.id), nil
		}
		b.setCurrent(t)
		_, _ = cdp.Call(o.ctx, t.target, page.BringToFront, cdp.Empty{})
		return "switched to tab " + t.id + ": " + b.describeTab(o.ctx, t), nil
	case contract.TabsClose:
		t, err := o.findTab(a.Tab)
		if err != nil {
			return "", err
		}
		if len(b.tabs) == 1 {
			return "", contract.ActionErrorf("tab %s is the only tab and cannot be closed", t.id)
		}
		b.dropTab(t)
		out := "closed tab " + t.id
		if t == b.cur {
			next := b.tabs[len(b.tabs)-1]
			b.setCurrent(next)
			_, _ = cdp.Call(o.ctx, next.target, page.BringToFront, cdp.Empty{})
			out += "; switched to tab " + next.id + ": " + b.describeTab(o.ctx, next)
		}
		return out, nil
	}
	return "", fmt.Errorf("browser: tabs op %q", a.Op) // not one of them: Validate refuses it
}

// findTab returns the tab the model named, after taking in new tabs the
// pages opened on their own (by a timer, say).
func (o *op) findTab(id string) (*tab, error) {
	b := o.b
	if err := b.adoptOpened(o.ctx); err != nil {
		return nil, err
	}
	t := b.tabByID(id)
	if t == nil {
		ids := make([]string, len(b.tabs))
		for i, t := range b.tabs {
			ids[i] = t.id
		}
		return nil, contract.ActionErrorf("there is no tab %q; the tabs are %s", id, strings.Join(ids, ", "))
	}
	return t, nil
}

// listTabs lists the tabs, the current one marked.
func (o *op) listTabs() (string, error) {
	b := o.b
	if err := b.adoptOpened(o.ctx); err != nil {
		return "", err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d tab(s):", len(b.tabs))
	for _, t := range b.tabs {
		sb.WriteString("\n")
		sb.WriteString(t.id)
		sb.WriteString(" ")
		sb.WriteString(b.describeTab(o.ctx, t))
		if t == b.cur {
			sb.WriteString(" (current)")
		}
	}
	return sb.String(), nil
}
