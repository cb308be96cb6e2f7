package suite

import (
	"strings"
	"testing"
)

// Snapshots as package browser writes them for the built-in sites.
const shopSnapshot = `heading "Northwind Store" [level=1]
  link "Northwind Store" [ref=e1]
link "Products" [ref=e2]
link "Cart" [ref=e3]
(1 item)
Added Blue mug to your cart.
searchbox "Search products" value="Blue mug" [ref=e5]
combobox "Category" value="All categories" [ref=e6]
  option "All categories" selected
  option "Kitchen"
button "Search" [ref=e10]
3 products
heading "Red mug" [level=2]
  link "Red mug" [ref=e11]
$11.50
Red · Kitchen
button "Add to cart" [ref=e12]
heading "Blue mug" [level=2]
  link "Blue mug" [ref=e13]
$12.00
Blue · Kitchen
button "Add to cart" [ref=e14]
heading "Blue notebook" [level=2]
  link "Blue notebook" [ref=e15]
$8.99
button "Add to cart" [ref=e16]
checkbox "Gift wrap ($4.00)" checked [ref=e17]
textbox "Say \"hi\"" [ref=e18]`

const cartSnapshot = `heading "Your cart" [level=1]
Updated the quantity of Red mug to 2.
| Product | Price | Quantity | Total | Actions |
| Blue mug | $12.00 | Update | $12.00 | Remove |
  link "Blue mug" [ref=e81]
  spinbutton "Quantity" value="1" [ref=e82]
  button "Update" [ref=e83]
  button "Remove" [ref=e84]
| Red mug | $11.50 | Update | $23.00 | Remove |
  link "Red mug" [ref=e85]
  spinbutton "Quantity" value="2" [ref=e86]
  button "Update" [ref=e87]
  button "Remove" [ref=e88]
Subtotal: $35.00
link "Proceed to checkout" [ref=e91]`

// A snapshot that nests rows and cells, as other snapshotters do.
const nestedSnapshot = `table "Users"
  row "Name Role"
  row
    cell "Aisha Khan"
    cell
      button "Edit" [ref=r1]
  row
    checkbox "Select" [ref=r2]
    cell "Priya Patel"
    cell
      button "Edit" [ref=r3]
  - listitem
    - link "Help" [ref=r4]`

func TestParseOutline(t *testing.T) {
	lines := parseOutline("a\n  button \"Go\" disabled [ref=e1]\n\n\t- link \"x\" [ref=e2]\n    text [ref=] oops\nheading \"H\" [level=2]\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines", len(lines))
	}
	if l := lines[1]; l.indent != 2 || l.role != "button" || l.name != "Go" || l.ref != "e1" {
		t.Errorf("button line = %+v", l)
	}
	if l := lines[2]; l.indent != 2 || l.role != "link" || l.ref != "e2" {
		t.Errorf("tab-indented link = %+v", l)
	}
	if lines[3].actionable() {
		t.Errorf("[ref=] made an element: %+v", lines[3])
	}
	if l := lines[4]; l.actionable() || l.role != "heading" || l.name != "H" {
		t.Errorf("heading = %+v", l)
	}
}

func TestResolve(t *testing.T) {
	shop, cart, nested := parseOutline(shopSnapshot), parseOutline(cartSnapshot), parseOutline(nestedSnapshot)
	for _, tc := range []struct {
		name  string
		lines []outlineLine
		t     target
		want  string
	}{
		{"first by name", shop, target{name: "Add to cart"}, "e12"},
		{"by role and name", shop, target{role: "link", name: "Blue mug"}, "e13"},
		{"role filters", shop, target{role: "button", name: "Search"}, "e10"},
		{"name with quotes", shop, target{name: `Say "hi"`}, "e18"},
		{"name with state", shop, target{name: "Gift wrap ($4.00)"}, "e17"},
		{"folded case", shop, target{name: "add TO cart"}, "e12"},
		{"partial", shop, target{name: "Gift wrap", partial: true}, "e17"},
		// The heading "Blue mug" anchors, not the notice or the search box
		// that mention it first.
		{"in a flat list", shop, target{name: "Add to cart", scope: "Blue mug"}, "e14"},
		{"in, last item", shop, target{name: "Add to cart", scope: "Blue notebook"}, "e16"},
		{"in, folded scope", shop, target{name: "Add to cart", scope: "blue NOTEBOOK"}, "e16"},
		{"in the row of", cart, target{name: "Quantity", scope: "Red mug"}, "e86"},
		{"in the row of, first row", cart, target{role: "button", name: "Update", scope: "Blue mug"}, "e83"},
		{"row, notice above", cart, target{name: "Remove", scope: "Red mug"}, "e88"},
		{"nested row", nested, target{name: "Edit", scope: "Priya Patel"}, "r3"},
		{"nested row, before the anchor", nested, target{name: "Select", scope: "Priya Patel"}, "r2"},
		{"nested first row", nested, target{name: "Edit", scope: "Aisha Khan"}, "r1"},
		{"dash items", nested, target{role: "link", name: "Help"}, "r4"},
	} {
		ref, err := resolve(tc.lines, tc.t)
		if err != nil || ref != tc.want {
			t.Errorf("%s: resolve(%s) = %q, %v; want %s", tc.name, tc.t, ref, err, tc.want)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	shop := parseOutline(shopSnapshot)
	for _, tc := range []struct {
		t    target
		want string
	}{
		{target{name: "Checkout"}, `no element "Checkout" on the page`},
		{target{role: "link", name: "Search"}, `no element link "Search" on the page; similar elements: link "Northwind Store", link "Products"`},
		{target{name: "Add to basket"}, `no element "Add to basket"`},
		{target{name: "Add", partial: false}, `similar elements: button "Add to cart"`},
		{target{name: "Add to cart", scope: "Green teapot"}, `no line of the page contains "Green teapot"`},
		{target{name: "Remove", scope: "Blue mug"}, `no element "Remove" near the line containing "Blue mug"`},
	} {
		_, err := resolve(shop, tc.t)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resolve(%s) = %v, want %q", tc.t, err, tc.want)
		}
	}
}
