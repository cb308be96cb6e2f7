package outline

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// rebuilds checks that the delta from prev to cur, applied to prev as its
// text reads, gives cur line for line, and returns the text.
func rebuilds(t *testing.T, prev, cur string) string {
	t.Helper()
	text := Diff(prev, cur).Text()
	got, err := Apply(prev, text)
	if err != nil {
		t.Fatalf("Apply: %v\nprevious:\n%s\ndelta:\n%s", err, prev, text)
	}
	if want := strings.Join(rawLines(cur), "\n"); got != want {
		t.Fatalf("the delta does not rebuild the page\nprevious:\n%s\ndelta:\n%s\nrebuilt:\n%s\nwant:\n%s", prev, text, got, want)
	}
	return text
}

// A delta lists the lines added, removed and changed, and applying it to
// the old snapshot gives the new one.
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
	text := rebuilds(t, prev, cur)
	want := DeltaHeader + `- - Lamp, 1
-   button "Remove" [ref=e2]  (gone: its ref is stale)
~ textbox "Name" value="Ann" [ref=e3]  (was: no value)
= button "Pay" [ref=e4]
+ alert "Card declined"
`
	if text != want {
		t.Errorf("delta:\n%s\nwant:\n%s", text, want)
	}
	// Parse reads a delta as the page is now: added and changed lines,
	// never a removed one.
	if _, ok := FindRef(text, "button", "Remove"); ok {
		t.Errorf("a removed element was found in the delta")
	}
	if ref, ok := FindRef(text, "textbox", "Name"); !ok || ref != "e3" {
		t.Errorf("the changed textbox: %q %v", ref, ok)
	}
	if !Diff(cur, cur).Empty() || Diff(cur, cur).Text() != DeltaHeader+"(nothing changed)\n" {
		t.Errorf("a page compared with itself has changes")
	}
	if _, err := Apply(prev, "Snapshot:\n"+cur); err == nil {
		t.Errorf("Apply took a whole snapshot for a delta")
	}
}

// A delta reads in the page's order: a select whose option changed says
// its value and its options' marks, a box checked and the focus it took
// from a button, text that changed, and lines removed after the last
// unchanged one.
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
	want := DeltaHeader + `~ button "Back" [ref=e2]  (was: focused)
~ checkbox "Gift wrap" checked focused [ref=e7]  (was: not checked, not focused)
~ combobox "Processor" value="Core i9" [ref=e5]  (was: value="Choose")
~   option "Choose"  (was: selected)
~   option "Core i9" selected  (was: not selected)
+ combobox "Memory" value="Choose the memory" [ref=e6]
+   option "Choose the memory" selected
+   option "64 GB"
= heading "Summary" [level=2]
+ Total: $2,299.00
- Total: $1,899.00
= listbox "Size" [ref=e9]
~   option "S"  (was: selected)
~   option "M" selected  (was: not selected)
- | #1041 | Printer jam |
-   button "Open" [ref=e3]  (gone: its ref is stale)
`
	if text := rebuilds(t, prev, cur); text != want {
		t.Errorf("delta:\n%s\nwant:\n%s", text, want)
	}
}

// (a) An element that only moved, or only changed depth, is listed where
// it is now: the "more icon" the click put under a new one, and buttons
// put in another order, which a delta once said nothing of.
func TestDiffMoved(t *testing.T) {
	prev := `heading "Inbox" [level=1]
clickable "more icon" [ref=e8]
Mail from Ann`
	cur := `heading "Inbox" [level=1]
clickable "more icon" expanded [ref=e21]
  clickable "more icon" [ref=e8]
Mail from Ann`
	want := DeltaHeader + `= heading "Inbox" [level=1]
+ clickable "more icon" expanded [ref=e21]
~   clickable "more icon" [ref=e8]  (moved)
`
	if text := rebuilds(t, prev, cur); text != want {
		t.Errorf("delta:\n%s\nwant:\n%s", text, want)
	}
	// The same element, one level deeper in the same place.
	rebuilds(t, "list\nbutton \"a\" [ref=e1]\nend", "list\n  button \"a\" [ref=e1]\nend")
}

func TestDiffReordered(t *testing.T) {
	prev := "Sort the list\nbutton \"a\" [ref=e1]\nbutton \"b\" [ref=e2]\nbutton \"c\" [ref=e3]\nbutton \"Submit\" [ref=e4]"
	cur := "Sort the list\nbutton \"b\" [ref=e2]\nbutton \"c\" [ref=e3]\nbutton \"a\" [ref=e1]\nbutton \"Submit\" [ref=e4]"
	text := rebuilds(t, prev, cur)
	want := DeltaHeader + `= button "c" [ref=e3]
~ button "a" [ref=e1]  (moved)
`
	if text != want {
		t.Errorf("delta:\n%s\nwant:\n%s", text, want)
	}
	// Rows of text without refs, reordered.
	rebuilds(t, "top\nrow 1\nrow 2\nrow 3\nend", "top\nrow 3\nrow 1\nrow 2\nend")
}

// (b) What a changed line was is true: a read-only date field that got a
// value and lost the focus had no value and had the focus; it was
// read-only before as it is now.
func TestDiffWasTrue(t *testing.T) {
	prev := "heading \"Pick a date\" [level=2]\ntextbox \"Date\" readonly focused [ref=e1]\nbutton \"Submit\" [ref=e2]"
	cur := "heading \"Pick a date\" [level=2]\ntextbox \"Date\" value=\"12/06/2016\" readonly [ref=e1]\nbutton \"Submit\" [ref=e2]"
	text := rebuilds(t, prev, cur)
	if want := `~ textbox "Date" value="12/06/2016" readonly [ref=e1]  (was: focused, no value)`; !strings.Contains(text, want+"\n") {
		t.Errorf("delta lacks %q:\n%s", want, text)
	}
}

// (c) A line added among equal ones has one place: after the unchanged
// line it follows when no other line reads so, else after the unchanged
// lines back to one that none other does.
func TestDiffPlaceUnique(t *testing.T) {
	prev := `heading "Appetizers" [level=2]
Soup
spinbutton "Quantity" value=0 [ref=e1]
Salad
Bread
Olives`
	cur := `heading "Appetizers" [level=2]
Soup
spinbutton "Quantity" value=0 [ref=e1]
Salad
1
Bread
Olives`
	want := DeltaHeader + `= Salad
+ 1
`
	if text := rebuilds(t, prev, cur); text != want {
		t.Errorf("delta:\n%s\nwant:\n%s", text, want)
	}
	// Four dishes with a count each, the same text: the 1 added after
	// the third is placed from the third dish's name.
	var b strings.Builder
	b.WriteString("heading \"Appetizers\" [level=2]\n")
	for _, dish := range []string{"Soup", "Salad", "Bread", "Olives"} {
		fmt.Fprintf(&b, "%s\n  0\n", dish)
	}
	prev = b.String()
	cur = strings.Replace(prev, "Bread\n  0\n", "Bread\n  0\n  1\n", 1)
	want = DeltaHeader + `= Bread
=   0
+   1
`
	if text := rebuilds(t, prev, cur); text != want {
		t.Errorf("delta:\n%s\nwant:\n%s", text, want)
	}
	// Nothing unique before it: from the top.
	rebuilds(t, "0\n0\n0\nend", "0\n0\n1\n0\nend")
	rebuilds(t, "0\n0\n0", "1\n0\n0\n0")
}

// (d) The focus lost to the page's body is a change of the line that had
// it.
func TestDiffFocusLost(t *testing.T) {
	prev := "heading \"Sign in\" [level=1]\ntextbox \"Email\" focused [ref=e1]\nbutton \"Next\" [ref=e2]"
	cur := "heading \"Sign in\" [level=1]\ntextbox \"Email\" [ref=e1]\nbutton \"Next\" [ref=e2]"
	text := rebuilds(t, prev, cur)
	if want := DeltaHeader + "~ textbox \"Email\" [ref=e1]  (was: focused)\n"; text != want {
		t.Errorf("delta:\n%s\nwant:\n%s", text, want)
	}
	// Moved to another element: both lines say so.
	text = rebuilds(t, prev, strings.Replace(cur, `"Next" [ref=e2]`, `"Next" focused [ref=e2]`, 1))
	if !strings.Contains(text, "(was: focused)") || !strings.Contains(text, "(was: not focused)") {
		t.Errorf("delta:\n%s", text)
	}
}

// A long line removed or used as a place is cut; the cut still names one
// line.
func TestDiffCutLines(t *testing.T) {
	long := strings.Repeat("All work and no play makes Jack a dull boy. ", 5)
	prev := "heading \"Story\" [level=1]\n" + long + "one\n" + long + "two\nbutton \"Next\" [ref=e1]"
	cur := "heading \"Story\" [level=1]\n" + long + "one\n" + long + "two\nNew line\nbutton \"Next\" [ref=e1]"
	text := rebuilds(t, prev, cur)
	if strings.Contains(text, "dull boy. All work and no play makes Jack a dull boy. All") {
		t.Errorf("the place is not cut:\n%s", text)
	}
	rebuilds(t, cur, prev)
	rebuilds(t, prev, strings.Replace(prev, long+"one\n", "", 1))
}

// Random edits of real snapshots (lines added, removed, changed, moved,
// re-indented, equal lines repeated) are rebuilt exactly by their deltas.
func TestDiffRebuildsRandomEdits(t *testing.T) {
	var pages []string
	for _, name := range []string{"shop.txt", "cart.txt", "nested.txt"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, string(b))
	}
	r := rand.New(rand.NewPCG(67, 1))
	next := 100
	for range 3000 {
		prev := rawLines(pages[r.IntN(len(pages))])
		cur := mutate(r, prev, &next)
		rebuilds(t, strings.Join(prev, "\n"), strings.Join(cur, "\n"))
		rebuilds(t, strings.Join(cur, "\n"), strings.Join(prev, "\n"))
	}
}

// mutate makes a few random edits of a page's lines; next numbers the
// refs of new elements.
func mutate(r *rand.Rand, lines []string, next *int) []string {
	out := append([]string(nil), lines...)
	texts := []string{"1", "0", "Soup", "| a | b |", "  option \"Kitchen\"", "  1"}
	for range 1 + r.IntN(4) {
		if len(out) == 0 {
			out = append(out, "text")
		}
		k := r.IntN(len(out))
		switch r.IntN(6) {
		case 0: // a text line, often one the page has already
			out = append(out[:k], append([]string{texts[r.IntN(len(texts))]}, out[k:]...)...)
		case 1: // a new element
			*next++
			out = append(out[:k], append([]string{fmt.Sprintf("  button \"New\" [ref=e%d]", *next)}, out[k:]...)...)
		case 2:
			out = append(out[:k], out[k+1:]...)
		case 3: // a state
			if strings.HasSuffix(out[k], "]") {
				i := strings.LastIndex(out[k], " [")
				out[k] = out[k][:i] + " focused" + out[k][i:]
			} else {
				out[k] += " selected"
			}
		case 4: // moved
			l := out[k]
			out = append(out[:k], out[k+1:]...)
			j := r.IntN(len(out) + 1)
			out = append(out[:j], append([]string{l}, out[j:]...)...)
		case 5: // re-indented
			out[k] = "  " + out[k]
		}
	}
	return out
}

// A changed line says only what it was.
func TestDiffWas(t *testing.T) {
	for _, c := range []struct{ now, before, want string }{
		{`combobox "Processor" value="Core i9" [ref=e5]`, `combobox "Processor" value="Choose a processor" [ref=e5]`, `value="Choose a processor"`},
		{`textbox "Name" value="Ann" [ref=e3]`, `textbox "Name" focused [ref=e3]`, `focused, no value`},
		{`textbox "Name" value="Ann" focused [ref=e3]`, `textbox "Name" focused [ref=e3]`, `no value`},
		{`checkbox "Gift" checked focused [ref=e7]`, `checkbox "Gift" [ref=e7]`, `not checked, not focused`},
		{`button "Save" focused [ref=e15]`, `button "Save" [ref=e15]`, `not focused`},
		{`button "Hide" expanded [ref=e4]`, `button "Open" collapsed [ref=e4]`, `"Open", collapsed, not expanded`},
		{`link "Home" [ref=e4]`, `button "Home" [ref=e4]`, `button "Home" [ref=e4]`},
		{`textbox "Note" value="a b" [ref=e9]`, `textbox "Note" [ref=e9]`, `no value`},
		{`textbox "Note" value="say \"hi\" there" [ref=e9]`, `textbox "Note" [ref=e9]`, `no value`},
		{`textbox "Note" value="a b" required [ref=e9]`, `textbox "Note" [ref=e9]`, `no value, not required`},
		{`slider "Volume" value=40 disabled [ref=e2]`, `slider "Volume" [ref=e2]`, `no value, not disabled`},
		{`heading "Cart" [level=2]`, `heading "Cart" [level=1]`, `[level=1]`},
		{`x "a" b c [ref=e1]`, `x "a" c b [ref=e1]`, `x "a" c b [ref=e1]`},
		{`polygon "" points=1 2,3 4 box=1 [ref=e1]`, `polygon "" points=1 5,3 4 box=1 [ref=e1]`, `polygon "" points=1 5,3 4 box=1 [ref=e1]`},
	} {
		if got := was(c.now, c.before); got != c.want {
			t.Errorf("was(%q, %q) = %q, want %q", c.now, c.before, got, c.want)
		}
	}
}

// A delta that does not fit the page is an error, not a wrong page.
func TestApplyErrors(t *testing.T) {
	prev := "heading \"A\" [level=1]\nSoup\nSoup\nbutton \"Go\" [ref=e1]"
	for _, delta := range []string{
		"- Bread\n",
		"= Soup\n+ 1\n",
		"~ button \"Go\" focused [ref=e9]  (was: not focused)\n",
		"~ button \"Go\" [ref=e1]\n",
		"* what\n",
		"= heading \"B\" [level=1]\n",
	} {
		if got, err := Apply(prev, DeltaHeader+delta); err == nil {
			t.Errorf("Apply of %q gave no error:\n%s", delta, got)
		}
	}
}
