package outline

import (
	"strings"
	"testing"
)

// A delta lists the lines added, removed and changed with their place,
// and applying it to the old snapshot gives the new one's lines.
func TestDiffAndApply(t *testing.T) {
	prev := `heading "Cart" [level=1]
- Lamp, 1
  button "Remove" [ref=e2]
textbox "Name" [ref=e3]
button "Pay" [ref=e4]`
	cur := `heading "Cart" [level=1]
textbox "Name" value="Ann" [ref=e3]
button "Pay" [ref=e4]
alert "Card declined"`
	d := Diff(prev, cur)
	text := d.Text()
	for _, want := range []string{
		`~ textbox "Name" value="Ann" [ref=e3]  (was: textbox "Name" [ref=e3])`,
		`-   button "Remove" [ref=e2]  (gone: its ref is stale)`,
		`+ alert "Card declined"`,
		`under heading "Cart" [level=1]:`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("delta lacks %q:\n%s", want, text)
		}
	}
	got := Parse(Apply(prev, text))
	want := Parse(cur)
	if len(got) != len(want) {
		t.Fatalf("applied:\n%s\nwant:\n%s", Apply(prev, text), cur)
	}
	// Parse reads a delta as the page is now: added and changed lines,
	// never a removed one.
	if _, ok := FindRef(text, "button", "Remove"); ok {
		t.Errorf("a removed element was found in the delta")
	}
	if ref, ok := FindRef(text, "textbox", "Name"); !ok || ref != "e3" {
		t.Errorf("the changed textbox: %q %v", ref, ok)
	}
	if !Diff(cur, cur).Empty() {
		t.Errorf("a page compared with itself has changes")
	}
}
