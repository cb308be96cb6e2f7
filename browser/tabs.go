package browser

import (
	"context"
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

// NewTab opens a blank tab in the Browser's browser context, makes it the
// current tab and returns its id (t2): for a front end that gives each of
// its users tabs of their own (webagent browser --agent).
func (b *Browser) NewTab(ctx context.Context) (string, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return "", err
	}
	defer o.end()
	t, err := b.newTab(o.ctx, b.sess, b.nextTabID())
	if err != nil {
		return "", o.fail("opening a tab", err)
	}
	b.tabs = append(b.tabs, t)
	b.setCurrent(t)
	return t.id, nil
}

// Tabs returns the ids of the Browser's tabs, in the order they were
// opened, the tabs its pages opened since the last call taken in, and the
// id of the current one.
func (b *Browser) Tabs(ctx context.Context) (ids []string, current string, err error) {
	o, err := b.begin(ctx)
	if err != nil {
		return nil, "", err
	}
	defer o.end()
	if err := b.adoptNewlyOpened(o.ctx); err != nil {
		return nil, "", o.fail("listing the tabs", err)
	}
	if _, err := b.closedTabs(o.ctx); err != nil {
		return nil, "", o.fail("listing the tabs", err)
	}
	for _, t := range b.tabs {
		ids = append(ids, t.id)
	}
	return ids, b.cur.id, nil
}
