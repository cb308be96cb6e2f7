package outline

import "testing"

// TestRecallFlatList: in a flat list of product cards, each ends with an
// "Add to cart" button, and its price and its line of colour and category
// are shared with other cards. The recorded button is found again in a
// page where a new product stands first (so its place among the equal
// buttons changed), by a text that tells it from the others in the
// recorded page, not by the nearest unique text (another card's).
func TestRecallFlatList(t *testing.T) {
	t.Parallel()
	card := func(name, price, tags, ref string) string {
		return "heading \"" + name + "\" [level=2]\n  link \"" + name + "\" [ref=l" + ref + "]\n" + price + "\n" + tags + "\nbutton \"Add to cart\" [ref=b" + ref + "]\n"
	}
	old := Parse(card("Steel kettle", "$49.00", "Silver · Kitchen", "1") + card("Black notebook", "$8.99", "Black · Office", "2") +
		card("Black pen", "$8.99", "Black · Office", "3"))
	now := Parse(card("Blue mug", "$9.00", "Blue · Kitchen", "1") + card("Steel kettle", "$49.00", "Silver · Kitchen", "2") +
		card("Black notebook", "$8.99", "Black · Office", "3") + card("Black pen", "$8.99", "Black · Office", "4"))
	for _, c := range []struct{ old, now string }{{"b1", "b2"}, {"b2", "b3"}, {"b3", "b4"}} {
		r, err := Recall(old, c.old)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Find(now, old)
		if err != nil || got != c.now {
			t.Errorf("%s (%s): found %q, %v; want %s", c.old, r, got, err, c.now)
		}
	}
}

// TestWithoutRefs: two snapshots of one page compare equal without refs.
func TestWithoutRefs(t *testing.T) {
	t.Parallel()
	a := "heading \"Cart\" [level=1]\nbutton \"Pay\" [ref=e12]\n"
	b := "heading \"Cart\" [level=1]\nbutton \"Pay\" [ref=e3]\n"
	if WithoutRefs(a) != WithoutRefs(b) || WithoutRefs(a) != "heading \"Cart\" [level=1]\nbutton \"Pay\"\n" {
		t.Fatalf("%q / %q", WithoutRefs(a), WithoutRefs(b))
	}
}
