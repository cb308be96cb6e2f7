package browser

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// evalInWorld evaluates expr in webagent's world of b's page, as an op.
func evalInWorld(t *testing.T, b *Browser, expr string) {
	t.Helper()
	o, err := b.begin(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	defer o.end()
	if _, err := o.eval(runtime.EvaluateParams{Expression: expr}); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
}

// The walker's source goes to a document once: the next snapshots of it
// call the walker its world keeps, and read the same; a new document, or
// a world that lost it, is sent the source again.
func TestSnapshotKeepsWalker(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	page := `<title>Kept</title><h1>Orders</h1><button>Pay</button><a href="/other">Other</a>`
	url := serve(t, map[string]string{"/": page, "/other": `<title>Other</title><p>Elsewhere</p>`}) + "/"
	first := open(t, b, url)
	again := snapshot(t, b)
	if again.Text != first.Text {
		t.Errorf("the kept walker reads otherwise:\n%s\nthan the source:\n%s", again.Text, first.Text)
	}
	// The kept walker is the one called: replaced, its answer shows.
	const fake = `Object.defineProperty(window, Symbol.for('webagent.walk'), {configurable: true,
		value: () => ({url: location.href, title: document.title, text: 'the kept walker', tokens: 3, maxRef: 0, timing: []})})`
	evalInWorld(t, b, fake)
	if s := snapshot(t, b); s.Text != "the kept walker" {
		t.Fatalf("the snapshot did not call the kept walker:\n%s", s.Text)
	}
	// A world that lost it is sent the source.
	evalInWorld(t, b, `delete window[Symbol.for('webagent.walk')]`)
	if s := snapshot(t, b); s.Text != first.Text {
		t.Errorf("after the walker went:\n%s\nwant:\n%s", s.Text, first.Text)
	}
	// A new document has its own world, which is sent the source.
	evalInWorld(t, b, fake)
	do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, first, `link "Other"`)})
	if s := snapshot(t, b); !strings.Contains(s.Text, "Elsewhere") {
		t.Errorf("the new document's snapshot:\n%s", s.Text)
	}
}

// Tabs takes in a tab the page opened, told by the browser's events, and
// asks for the list of targets again only after such an event.
func TestTabsTakesInOpenedTabs(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	url := serve(t, map[string]string{
		"/":      `<title>Opener</title><a href="/popup" target=_blank>Open</a>`,
		"/popup": `<title>Popup</title><a href="/third" target=_blank>Open more</a>`,
		"/third": `<title>Third</title>`,
	}) + "/"
	s := open(t, b, url)
	ids, cur, err := b.Tabs(tctx(t))
	if err != nil || len(ids) != 1 {
		t.Fatalf("Tabs = %v, %s, %v; want one tab", ids, cur, err)
	}
	listedBefore := b.listed
	if ids, _, err := b.Tabs(tctx(t)); err != nil || len(ids) != 1 || b.listed != listedBefore {
		t.Errorf("Tabs with no tab opened since = %v, %v, listed %+v then %+v", ids, err, listedBefore, b.listed)
	}
	do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Open"`)})
	ids, _, err = b.Tabs(tctx(t))
	if err != nil || len(ids) != 2 {
		t.Fatalf("Tabs after the page opened one = %v, %v; want two", ids, err)
	}
	// The new tab opens one of its own.
	do(t, b, contract.Action{Name: contract.ActTabs, Op: contract.TabsSwitch, Tab: ids[1]})
	s = snapshot(t, b)
	do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Open more"`)})
	if ids, _, err = b.Tabs(tctx(t)); err != nil || len(ids) != 3 {
		t.Fatalf("Tabs after the new tab opened one = %v, %v; want three", ids, err)
	}
}
