package outline

import (
	"os"
	"strings"
	"testing"
)

// Snapshots as package browser writes them for the built-in sites, and one
// that nests rows and cells as other snapshotters do. Package suite's
// tests read them too.
var shopSnapshot, cartSnapshot, nestedSnapshot = read("shop.txt"), read("cart.txt"), read("nested.txt")

func read(name string) string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestParseOutline(t *testing.T) {
	t.Parallel()
	lines := Parse("a\n  button \"Go\" disabled [ref=e1]\n\n\t- link \"x\" [ref=e2]\n    text [ref=] oops\nheading \"H\" [level=2]\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines", len(lines))
	}
	if l := lines[1]; l.Indent != 2 || l.Role != "button" || l.Name != "Go" || l.Ref != "e1" {
		t.Errorf("button line = %+v", l)
	}
	if l := lines[2]; l.Indent != 2 || l.Role != "link" || l.Ref != "e2" {
		t.Errorf("tab-indented link = %+v", l)
	}
	if lines[3].Actionable() {
		t.Errorf("[ref=] made an element: %+v", lines[3])
	}
	if l := lines[4]; l.Actionable() || l.Role != "heading" || l.Name != "H" {
		t.Errorf("heading = %+v", l)
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	shop, cart, nested := Parse(shopSnapshot), Parse(cartSnapshot), Parse(nestedSnapshot)
	for _, tc := range []struct {
		name  string
		lines []Line
		t     Target
		want  string
	}{
		{"first by name", shop, Target{Name: "Add to cart"}, "e12"},
		{"by role and name", shop, Target{Role: "link", Name: "Blue mug"}, "e13"},
		{"role filters", shop, Target{Role: "button", Name: "Search"}, "e10"},
		{"name with quotes", shop, Target{Name: `Say "hi"`}, "e18"},
		{"name with state", shop, Target{Name: "Gift wrap ($4.00)"}, "e17"},
		{"folded case", shop, Target{Name: "add TO cart"}, "e12"},
		{"partial", shop, Target{Name: "Gift wrap", Partial: true}, "e17"},
		// The heading "Blue mug" anchors, not the notice or the search box
		// that mention it first.
		{"in a flat list", shop, Target{Name: "Add to cart", Scope: "Blue mug"}, "e14"},
		{"in, last item", shop, Target{Name: "Add to cart", Scope: "Blue notebook"}, "e16"},
		{"in, folded scope", shop, Target{Name: "Add to cart", Scope: "blue NOTEBOOK"}, "e16"},
		{"in the row of", cart, Target{Name: "Quantity", Scope: "Red mug"}, "e86"},
		{"in the row of, first row", cart, Target{Role: "button", Name: "Update", Scope: "Blue mug"}, "e83"},
		{"row, notice above", cart, Target{Name: "Remove", Scope: "Red mug"}, "e88"},
		{"nested row", nested, Target{Name: "Edit", Scope: "Priya Patel"}, "r3"},
		{"nested row, before the anchor", nested, Target{Name: "Select", Scope: "Priya Patel"}, "r2"},
		{"nested first row", nested, Target{Name: "Edit", Scope: "Aisha Khan"}, "r1"},
		{"dash items", nested, Target{Role: "link", Name: "Help"}, "r4"},
	} {
		ref, err := Resolve(tc.lines, tc.t)
		if err != nil || ref != tc.want {
			t.Errorf("%s: Resolve(%s) = %q, %v; want %s", tc.name, tc.t, ref, err, tc.want)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	t.Parallel()
	shop := Parse(shopSnapshot)
	for _, tc := range []struct {
		t    Target
		want string
	}{
		{Target{Name: "Checkout"}, `no element "Checkout" on the page`},
		{Target{Role: "link", Name: "Search"}, `no element link "Search" on the page; similar elements: link "Northwind Store", link "Products"`},
		{Target{Name: "Add to basket"}, `no element "Add to basket"`},
		{Target{Name: "Add", Partial: false}, `similar elements: button "Add to cart"`},
		{Target{Name: "Add to cart", Scope: "Green teapot"}, `no line of the page contains "Green teapot"`},
		{Target{Name: "Remove", Scope: "Blue mug"}, `no element "Remove" near the line containing "Blue mug"`},
	} {
		_, err := Resolve(shop, tc.t)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolve(%s) = %v, want %q", tc.t, err, tc.want)
		}
	}
}

func TestFindRef(t *testing.T) {
	t.Parallel()
	if ref, ok := FindRef(shopSnapshot, "textbox", `Say "hi"`); !ok || ref != "e18" {
		t.Errorf("FindRef escaped name = %q, %v", ref, ok)
	}
	if ref, ok := FindRefContains(shopSnapshot, "checkbox", "Gift"); !ok || ref != "e17" {
		t.Errorf("FindRefContains = %q, %v", ref, ok)
	}
	if _, ok := FindRef(shopSnapshot, "heading", "Red mug"); ok {
		t.Error("a heading without a ref was found")
	}
}
