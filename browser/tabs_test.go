package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func tabs(t *testing.T, b *Browser, op, id string) string {
	t.Helper()
	return do(t, b, contract.Action{Name: contract.ActTabs, Op: op, Tab: id})
}

// Popups and target=_blank become tabs: the click says so and switches to
// the new tab; tabs lists, switches and closes them; dialogs are answered in
// every tab.
func TestNewTabsBecomeTabs(t *testing.T) {
	tier.Slow(t)
	b := launch(t, Options{})
	base := serve(t, map[string]string{
		"/": `<title>Opener</title>
<a href="/next" target="_blank">New tab link</a>
<button onclick="window.open('/next?from=script')">Script popup</button>`,
		"/next": `<title>Next</title><p>next page</p><button onclick="document.title = confirm('sure?') ? 'confirmed' : 'no'">Ask</button>`,
	})
	s := open(t, b, base+"/")
	out := do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "New tab link"`)})
	if !strings.Contains(out, "opened a new tab t2; switched to it") || !strings.Contains(out, "navigated to "+base+`/next ("Next")`) {
		t.Errorf("click the link: %q", out)
	}
	s = snapshot(t, b)
	if s.URL != base+"/next" {
		t.Errorf("after the click the current tab shows %s", s.URL)
	}
	// A dialog in the new tab does not block.
	do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Ask"`)})
	if s := snapshot(t, b); s.Title != "confirmed" || len(s.Notices) == 0 || !strings.Contains(s.Notices[0], "confirm dialog") {
		t.Errorf("after the confirm in t2: %q %v", s.Title, s.Notices)
	}

	out = tabs(t, b, "switch", "t1")
	if !strings.Contains(out, "switched to tab t1") || snapshot(t, b).Title != "Opener" {
		t.Errorf("switch to t1: %q", out)
	}
	s = snapshot(t, b)
	out = do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Script popup"`)})
	if !strings.Contains(out, "opened a new tab t3") || !strings.Contains(out, "from=script") {
		t.Errorf("click the script popup: %q", out)
	}
	list := tabs(t, b, "list", "")
	for _, want := range []string{"3 tab(s)", "t1 " + base + `/ ("Opener")`, "t2 " + base + `/next ("confirmed")`, "t3 " + base + `/next?from=script ("Next") (current)`} {
		if !strings.Contains(list, want) {
			t.Errorf("list has no %q:\n%s", want, list)
		}
	}
	if n := len(pagesOf(t, b)); n != 3 {
		t.Errorf("%d page targets, want 3", n)
	}

	out = tabs(t, b, "close", "t3")
	if !strings.Contains(out, "closed tab t3; switched to tab t2") {
		t.Errorf("close the current tab: %q", out)
	}
	if s := snapshot(t, b); s.URL != base+"/next" {
		t.Errorf("after closing t3 the tab shows %s", s.URL)
	}
	tabs(t, b, "close", "t1")
	waitFor(t, "the tabs to close", 5e9, func() bool { return len(pagesOf(t, b)) == 1 })
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActTabs, Op: "close", Tab: "t2"}); !isActionError(err) {
		t.Errorf("closing the last tab: %v", err)
	}
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActTabs, Op: "switch", Tab: "t9"}); !isActionError(err) || !strings.Contains(err.Error(), "t2") {
		t.Errorf("switching to an unknown tab: %v", err)
	}
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActTabs, Op: "shuffle"}); !isActionError(err) {
		t.Errorf("unknown op: %v", err)
	}
}

// A tab the page opens by itself (a timer) is listed and can be switched to.
func TestTabOpenedByTimerIsListed(t *testing.T) {
	tier.Slow(t)
	b := launch(t, Options{})
	base := serve(t, map[string]string{
		"/":      `<title>Opener</title><script>setTimeout(() => window.open('/later'), 10)</script>`,
		"/later": `<title>Later</title><p>later page</p>`,
	})
	open(t, b, base+"/")
	waitFor(t, "the popup", 5e9, func() bool { return len(pagesOf(t, b)) == 2 })
	list := tabs(t, b, "list", "")
	if !strings.Contains(list, "t2 ") || !strings.Contains(list, "t1 "+base+`/ ("Opener") (current)`) {
		t.Fatalf("list:\n%s", list)
	}
	tabs(t, b, "switch", "t2")
	waitFor(t, "the popup's page", 5e9, func() bool { return snapshot(t, b).Title == "Later" })
}

// A tab the page closes itself (window.close) is dropped; the Browser
// switches to another.
func TestTabClosedByPage(t *testing.T) {
	tier.Slow(t)
	b := launch(t, Options{})
	base := serve(t, map[string]string{
		"/":       `<title>Opener</title><button onclick="window.open('/closer')">Open</button>`,
		"/closer": `<title>Closer</title><button onclick="window.close()">Close me</button>`,
	})
	s := open(t, b, base+"/")
	do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Open"`)})
	s = snapshot(t, b)
	// The click itself may see its tab go (an ActionError that says so), or
	// the next snapshot does (a notice).
	out, err := b.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Close me"`)})
	if err != nil && !isActionError(err) {
		t.Fatalf("click Close me: %v", err)
	}
	waitFor(t, "the tab to close", 5e9, func() bool { return len(pagesOf(t, b)) == 1 })
	s = snapshot(t, b)
	said := fmt.Sprint(out, err, s.Notices)
	if s.Title != "Opener" || !strings.Contains(said, "tab t2 was closed") || !strings.Contains(said, "switched to tab t1") {
		t.Errorf("after the page closed its tab: %q; %s", s.Title, said)
	}
}
