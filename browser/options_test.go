package browser

import (
	"fmt"
	"html"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// countries are 240 labels of a country select, sorted.
func countries(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("testdata/countries.txt")
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(names) != 240 {
		t.Fatalf("%d countries in testdata/countries.txt, want 240", len(names))
	}
	return names
}

// A 240-option select: the snapshot shows its first and last options and
// how many lie between; the options tool lists all of them; a select of
// a label it lacks lists the closest ones; a chosen option in the middle
// stays in sight. A select of 25 options is listed whole.
func TestOptionsOfALongSelect(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	names := countries(t)
	var sb strings.Builder
	sb.WriteString(`<title>Address</title><label for=c>Country</label><select id=c>`)
	for _, n := range names {
		fmt.Fprintf(&sb, "<option>%s</option>", html.EscapeString(n))
	}
	sb.WriteString(`</select><label for=s>Size</label><select id=s>`)
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&sb, "<option>Size %d</option>", i)
	}
	sb.WriteString(`</select>`)
	s := open(t, shared, servePage(t, sb.String()))
	ref := refOf(t, s, `combobox "Country"`)
	wantLine(t, s, `option "Afghanistan" selected`)
	wantLine(t, s, `option "Aruba"`) // the tenth
	wantLine(t, s, `… 227 more options, "Australia" to "Western Sahara": select takes any of them; options ref=`+ref+` lists them all`)
	for _, last := range []string{"Yemen", "Zambia", "Zimbabwe"} {
		wantLine(t, s, `option "`+last+`"`)
	}
	if hasLine(s, `option "Australia"`) || hasLine(s, `option "France"`) {
		t.Errorf("the snapshot lists options it summarises:\n%s", s.Text)
	}
	wantLine(t, s, `option "Size 25"`)
	if strings.Count(s.Text, "more options") != 1 {
		t.Errorf("a select of 25 options is summarised:\n%s", s.Text)
	}

	out := do(t, shared, contract.Action{Name: contract.ActOptions, Ref: ref})
	head, list, _ := strings.Cut(out, "\n")
	if head != `combobox "Country" [ref=`+ref+`] has 240 options, chosen "Afghanistan":` {
		t.Errorf("options: first line %q", head)
	}
	var got []string
	for line := range strings.SplitSeq(list, "\n") {
		label, err := strconv.Unquote(strings.TrimSuffix(line, " selected"))
		if err != nil {
			t.Fatalf("options: line %q is not a quoted label", line)
		}
		got = append(got, label)
	}
	if !slices.Equal(got, names) {
		t.Errorf("options listed %d labels, want the 240 of the select:\n%s", len(got), out)
	}

	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActSelect, Ref: ref, Option: "Untied States"})
	if !isActionError(err) || !strings.Contains(err.Error(), `has no option "Untied States"; the closest of its 240 options are "United States"; `) ||
		!strings.Contains(err.Error(), "; options ref="+ref+" lists them all") {
		t.Errorf("select of a near-miss label: %v", err)
	}
	if got := evalPage[string](t, shared, "document.getElementById('c').value"); got != "Afghanistan" {
		t.Errorf("a failed select changed the choice to %q", got)
	}

	do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref, Option: "france"})
	s = snapshot(t, shared)
	wantLine(t, s, `option "France" selected`)
	wantLine(t, s, `… 62 more options, "Australia" to "Finland": select takes any of them; options ref=`+ref+` lists them all`)
	wantLine(t, s, `… 164 more options, "French Guiana" to "Western Sahara"`)
}

// The options tool on an ARIA listbox lists the options it shows; on
// anything else it says there are none to list.
func TestOptionsOfAListbox(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Listbox</title>
<ul role=listbox aria-label="Flavour"><li role=option aria-selected=true>Vanilla</li><li role=option>Mint</li><li role=option hidden>Gone</li></ul>
<button>Order</button>`))
	out := do(t, shared, contract.Action{Name: contract.ActOptions, Ref: ref(t, s, "listbox", "Flavour")})
	if !strings.HasSuffix(out, "shows 2 options:\n\"Vanilla\"\n\"Mint\"") {
		t.Errorf("options of a listbox: %q", out)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActOptions, Ref: ref(t, s, "button", "Order")})
	if !isActionError(err) || !strings.Contains(err.Error(), "is not a select, listbox or combobox") {
		t.Errorf("options of a button: %v", err)
	}
}

func TestClosestOptions(t *testing.T) {
	names := countries(t)
	cases := []struct {
		want  []string
		first string
	}{
		{[]string{"Untied States"}, "United States"},
		{[]string{"germny"}, "Germany"},
		{[]string{"Korea"}, "Korea (North)"},
		{[]string{"Bolivia, Plurinational State of"}, "Bolivia"},
		{[]string{"nowhere", "New  Zealand"}, "New Zealand"},
	}
	for _, c := range cases {
		got := closest(c.want, names, optionsClose)
		if len(got) == 0 || got[0] != c.first {
			t.Errorf("closest to %q: %q, want %q first", c.want, got, c.first)
		}
	}
	// Far names are left out; what is near comes in the names' order.
	if got := closest([]string{"Untied States"}, names, optionsClose); !slices.Equal(got, []string{"United States"}) {
		t.Errorf("closest to Untied States: %q", got)
	}
	if got := closest([]string{"Atlantis"}, names, optionsClose); len(got) != 0 {
		t.Errorf("closest to Atlantis: %q, want none", got)
	}
	if got := closest([]string{"x"}, []string{"a", "b", "xyz"}, 8); !slices.Equal(got, []string{"xyz", "a", "b"}) {
		t.Errorf("few names: %q", got)
	}
}
