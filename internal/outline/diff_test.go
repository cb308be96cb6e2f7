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
		`~ textbox "Name" value="Ann" [ref=e3]  (was: no value)`,
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

// A delta reads in the page's order, one place line for the changes of
// a place, a changed line with only what it was (an element that lost
// the focus is not listed: the one that has it is): a select's new option is not listed again under it (its line,
// changed, says what is chosen), and what was added (or removed) under a
// line added (or removed) with it stands indented under it, not under a
// place line that repeats it.
func TestDiffCompact(t *testing.T) {
	prev := `heading "Build" [level=2]
button "Back" focused [ref=e2]
checkbox "Gift wrap" [ref=e7]
combobox "Processor" value="Choose" [ref=e5]
  option "Choose" selected
  option "Core i9"
heading "Summary" [level=2]
Total: $1,899.00
listbox "Size" [ref=e9]
  option "S" selected
  option "M"
| #1041 | Printer jam |
  button "Open" [ref=e3]`
	cur := `heading "Build" [level=2]
button "Back" [ref=e2]
checkbox "Gift wrap" checked focused [ref=e7]
combobox "Processor" value="Core i9" [ref=e5]
  option "Choose"
  option "Core i9" selected
combobox "Memory" value="Choose the memory" [ref=e6]
  option "Choose the memory" selected
  option "64 GB"
heading "Summary" [level=2]
Total: $2,299.00
listbox "Size" [ref=e9]
  option "S"
  option "M" selected`
	want := DeltaHeader + `under heading "Build" [level=2]:
~ checkbox "Gift wrap" checked focused [ref=e7]  (was: not checked)
~ combobox "Processor" value="Core i9" [ref=e5]  (was: value="Choose")
+ combobox "Memory" value="Choose the memory" [ref=e6]
+   option "Choose the memory" selected
+   option "64 GB"
under heading "Summary" [level=2]:
+ Total: $2,299.00
- Total: $1,899.00
under heading "Summary" [level=2] > listbox "Size" [ref=e9]:
+   option "S"
+   option "M" selected
-   option "S" selected
-   option "M"
under heading "Summary" [level=2]:
- | #1041 | Printer jam |
-   button "Open" [ref=e3]  (gone: its ref is stale)
`
	text := Diff(prev, cur).Text()
	if text != want {
		t.Errorf("delta:\n%s\nwant:\n%s", text, want)
	}
	// The reader of observations keeps the page's elements.
	got := Apply(prev, text)
	for _, line := range []string{`combobox "Memory" value="Choose the memory" [ref=e6]`, `combobox "Processor" value="Core i9" [ref=e5]`, `  option "M" selected`} {
		if !strings.Contains(got, line) {
			t.Errorf("applied lacks %q:\n%s", line, got)
		}
	}
	if strings.Contains(got, `"Open"`) {
		t.Errorf("applied keeps the removed button:\n%s", got)
	}
}

// A changed line says only what it was.
func TestDiffWas(t *testing.T) {
	for _, c := range []struct{ now, before, want string }{
		{`combobox "Processor" value="Core i9" [ref=e5]`, `combobox "Processor" value="Choose a processor" [ref=e5]`, `value="Choose a processor"`},
		{`textbox "Name" value="Ann" [ref=e3]`, `textbox "Name" focused [ref=e3]`, `no value`},
		{`checkbox "Gift" checked focused [ref=e7]`, `checkbox "Gift" [ref=e7]`, `not checked`},
		{`button "Save" focused [ref=e15]`, `button "Save" [ref=e15]`, `not focused`},
		{`button "Hide" expanded [ref=e4]`, `button "Open" collapsed [ref=e4]`, `"Open" collapsed`},
		{`link "Home" [ref=e4]`, `button "Home" [ref=e4]`, `button "Home" [ref=e4]`},
		{`textbox "Note" value="a b" [ref=e9]`, `textbox "Note" [ref=e9]`, `no value`},
		{`textbox "Note" value="say \"hi\" there" [ref=e9]`, `textbox "Note" [ref=e9]`, `no value`},
		{`textbox "Note" value="a b" required [ref=e9]`, `textbox "Note" [ref=e9]`, `textbox "Note" [ref=e9]`},
		{`slider "Volume" value=40 disabled [ref=e2]`, `slider "Volume" [ref=e2]`, `slider "Volume" [ref=e2]`},
	} {
		if got := was(c.now, c.before); got != c.want {
			t.Errorf("was(%q, %q) = %q, want %q", c.now, c.before, got, c.want)
		}
	}
}
