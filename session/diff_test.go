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
	first, v := v.Render(page, true)
	if !strings.Contains(first, "Snapshot (page content") {
		t.Errorf("the first snapshot is not whole:\n%s", first)
	}
	after := page
	after.Text = rows.String() + `button "Pay" disabled [ref=e1]` + "\nalert \"Card declined\""
	delta, v := v.Render(after, true)
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
	if whole, _ := v.Render(other, true); !strings.Contains(whole, "Order 3") {
		t.Errorf("a new document is not whole:\n%s", whole)
	}
	if whole, _ := v.Render(after, false); !strings.Contains(whole, "Order 3") {
		t.Errorf("without diff the page is not whole:\n%s", whole)
	}
}
