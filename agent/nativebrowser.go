package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/watchdog"
)

// A vendor's browser tool (contract.NativeBrowser, Claude's browser use
// tool): the computer's actions, by coordinate or by ref, and the page's
// structure. Its refs are webagent's: read_page gives the page's outline
// as the observation does, and a target {ref} is the element of that ref.
// navigate, form_input and the tabs run as webagent's goto, back,
// forward, type, select, check and tabs; read_page, get_page_text and
// find read the page. Each result reports the tabs (contract.BrowserState)
// and, for screenshot and zoom, the picture.

// TabStater is what a browser tool's results need of the browser: its
// tabs. Package browser implements it.
type TabStater interface {
	TabStates(ctx context.Context) ([]contract.TabState, error)
}

// findMax bounds the lines find returns.
const findMax = 20

// browserSteps are the steps of a browser tool's own actions; ok is false
// for an action that is not one of them.
func (r *run) browserSteps(ctx context.Context, na contract.NativeAction, out *iterOut) (steps []call, local string, ok bool, err error) {
	ok = true
	switch na.Kind {
	case contract.NativeNavigate:
		steps, err = navigateSteps(na.URL, out.url)
	case contract.NativeReadPage, contract.NativeFind:
		local, err = r.readPage(ctx, na)
	case contract.NativePageText:
		steps = []call{nativeCall(contract.ActExtract, contract.Action{})}
	case contract.NativeScrollTo:
		if na.Ref == "" {
			return nil, "", true, contract.ActionErrorf("it needs the ref of the element to bring into view")
		}
		steps = []call{nativeCall(contract.ActScroll, contract.Action{Ref: na.Ref})}
	case contract.NativeFormInput:
		steps, err = formInputSteps(na, out.seen)
	case contract.NativeTabs:
		if na.Op == "new" {
			return nil, "", true, contract.ActionErrorf("opening an empty tab is not supported: open the page with navigate")
		}
		steps = []call{nativeCall(contract.ActTabs, contract.Action{Op: na.Op, Tab: na.Tab})}
	default:
		ok = false
	}
	return steps, local, ok, err
}

// navigateSteps is navigate: an address, or back, forward or reload.
func navigateSteps(url, current string) ([]call, error) {
	switch strings.ToLower(strings.TrimSpace(url)) {
	case "":
		return nil, contract.ActionErrorf("it needs the address to open, or back, forward or reload")
	case "back":
		return []call{nativeCall(contract.ActBack, contract.Action{})}, nil
	case "forward":
		return []call{nativeCall(contract.ActForward, contract.Action{})}, nil
	case "reload":
		if current == "" {
			return nil, contract.ActionErrorf("there is no page to reload")
		}
		url = current
	}
	return []call{nativeCall(contract.ActGoto, contract.Action{URL: url})}, nil
}

// formInputSteps sets a field's value as its role takes it: a checkbox,
// radio or switch checked or not, an option chosen, a text typed.
func formInputSteps(na contract.NativeAction, seen string) ([]call, error) {
	if na.Ref == "" {
		return nil, contract.ActionErrorf("it needs the ref of the field")
	}
	role := ""
	for _, l := range outline.Parse(seen) {
		if l.Ref == na.Ref {
			role = l.Role
			break
		}
	}
	switch role {
	case "checkbox", "radio", "switch", "menuitemcheckbox":
		switch strings.ToLower(na.Text) {
		case "true", "on", "yes", "1", "checked":
			return []call{nativeCall(contract.ActCheck, contract.Action{Ref: na.Ref})}, nil
		case "false", "off", "no", "0", "unchecked":
			return []call{nativeCall(contract.ActUncheck, contract.Action{Ref: na.Ref})}, nil
		}
		return nil, contract.ActionErrorf("%s is a %s: its value is true or false, not %q", na.Ref, role, na.Text)
	case "combobox", "listbox":
		return []call{nativeCall(contract.ActSelect, contract.Action{Ref: na.Ref, Option: na.Text})}, nil
	}
	return []call{nativeCall(contract.ActType, contract.Action{Ref: na.Ref, Text: na.Text})}, nil
}

// readPage is read_page (the outline, or the part under a ref) and find
// (the lines of the outline that hold every word of the query).
func (r *run) readPage(ctx context.Context, na contract.NativeAction) (string, error) {
	snap, err := watchdog.Run(ctx, "snapshot", scriptSnapshotBudget, r.a.browser.Snapshot)
	if err != nil {
		if ctx.Err() != nil {
			return "", err
		}
		return "", contract.ActionErrorf("the page could not be read: %v", err)
	}
	lines := outline.Parse(snap.Text)
	if na.Kind == contract.NativeFind {
		return findLines(lines, na.Text), nil
	}
	if na.Ref == "" {
		return r.sec.Mask(snap.Text), nil
	}
	for i, l := range lines {
		if l.Ref != na.Ref {
			continue
		}
		var b strings.Builder
		b.WriteString(l.Text)
		for _, m := range lines[i+1:] {
			if m.Indent <= l.Indent {
				break
			}
			b.WriteString("\n" + strings.Repeat(" ", m.Indent-l.Indent) + m.Text)
		}
		return r.sec.Mask(b.String()), nil
	}
	return "", contract.ActionErrorf("there is no element %s on the page now; read the page again", na.Ref)
}

// findLines are the lines that hold every word of the query, in any case.
func findLines(lines []outline.Line, query string) string {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return "give a query: the words to look for"
	}
	var found []string
	for _, l := range lines {
		text := strings.ToLower(l.Text)
		all := true
		for _, w := range words {
			all = all && strings.Contains(text, w)
		}
		if all {
			found = append(found, strings.TrimSpace(l.Text))
		}
	}
	switch {
	case len(found) == 0:
		return fmt.Sprintf("nothing on the page has all of %q; read the page for its outline", query)
	case len(found) > findMax:
		return fmt.Sprintf("%d lines match; the first %d:\n%s", len(found), findMax, strings.Join(found[:findMax], "\n"))
	}
	return strings.Join(found, "\n")
}

// browserState is the tabs after a browser tool's call; nil when the
// browser cannot tell.
func (r *run) browserState(ctx context.Context) *contract.BrowserState {
	ts, ok := r.a.browser.(TabStater)
	if !ok {
		return nil
	}
	sctx, cancel := context.WithTimeout(ctx, nativeShotBudget)
	defer cancel()
	tabs, err := ts.TabStates(sctx)
	if err != nil {
		return nil
	}
	for i := range tabs {
		tabs[i].URL, tabs[i].Title = r.sec.Mask(tabs[i].URL), r.sec.Mask(tabs[i].Title)
	}
	return &contract.BrowserState{Tabs: tabs}
}
