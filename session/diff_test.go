package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// snapshot --diff gives what changed on the same document, and the whole
// page when the document changed or without --diff.
func TestViewedRender(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	for i := range 200 {
		fmt.Fprintf(&rows, "- Order %d\n", i)
	}
	page := contract.Snapshot{URL: "http://x/", Title: "Orders", Document: "t1/L1", Text: rows.String() + `button "Pay" [ref=e1]`}
	var v Viewed
	none := func(s string) string { return s }
	first, v := v.Render(page, true, none)
	if !strings.Contains(first, "Snapshot (page content") {
		t.Errorf("the first snapshot is not whole:\n%s", first)
	}
	after := page
	after.Text = rows.String() + `button "Pay" disabled [ref=e1]` + "\nalert \"Card declined\""
	delta, v := v.Render(after, true, none)
	for _, want := range []string{"Page: http://x/", `~ button "Pay" disabled [ref=e1]`, `+ alert "Card declined"`} {
		if !strings.Contains(delta, want) {
			t.Errorf("the delta lacks %q:\n%s", want, delta)
		}
	}
	if strings.Contains(delta, "Order 3") {
		t.Errorf("the delta repeats unchanged lines:\n%s", delta)
	}
	other := after
	other.Document = "t1/L2"
	if whole, _ := v.Render(other, true, none); !strings.Contains(whole, "Order 3") {
		t.Errorf("a new document is not whole:\n%s", whole)
	}
	if whole, _ := v.Render(after, false, none); !strings.Contains(whole, "Order 3") {
		t.Errorf("without diff the page is not whole:\n%s", whole)
	}
}

// A delta is taken from the page as the client read it, secrets masked:
// a long line it cuts short never shows the start of a secret.
func TestViewedRenderMasks(t *testing.T) {
	t.Parallel()
	const secret = "hunter2 correct horse battery"
	mask := func(s string) string { return strings.ReplaceAll(s, secret, "<secret>pw</secret>") }
	var rows strings.Builder
	for i := range 100 {
		fmt.Fprintf(&rows, "- Order %d\n", i)
	}
	long := "Recovery phrase: " + secret + " (keep it safe: it is shown only once)"
	page := contract.Snapshot{URL: "http://x/", Title: "Orders", Document: "t1/L1", Text: rows.String() + long + "\nbutton \"Hide\" [ref=e1]"}
	var v Viewed
	_, v = v.Render(page, true, mask)
	after := page
	after.Text = rows.String() + "button \"Hide\" focused [ref=e1]"
	delta, _ := v.Render(after, true, mask)
	if !strings.Contains(delta, "- Recovery phrase: ") || !strings.Contains(delta, "~ button \"Hide\" focused [ref=e1]") {
		t.Fatalf("the delta does not say the line went:\n%s", delta)
	}
	if strings.Contains(delta, "hunter2") {
		t.Errorf("the delta shows the start of a secret:\n%s", delta)
	}
}
