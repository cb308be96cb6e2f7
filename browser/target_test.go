package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestDescribeTarget(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	url := servePage(t, `<title>Checkout</title>
<form method="post" action="/order">
  <input aria-label="Coupon" name="coupon">
  <textarea aria-label="Notes"></textarea>
  <button>Place order</button>
  <button type="button">Apply coupon</button>
  <button formmethod="get" formaction="/preview">Preview</button>
</form>
<form action="/search"><input aria-label="Search" name="q"><input type="submit" value="Go"></form>
<a href="/help">Help</a>
<script>
let changed = 0;
new MutationObserver(() => changed++).observe(document, {subtree: true, childList: true, attributes: true});
document.addEventListener('submit', () => { changed += 1000; });
</script>`)
	s := open(t, shared, url)
	base := strings.TrimSuffix(url, "/")
	if i := strings.Index(base[len("http://"):], "/"); i >= 0 {
		base = base[:len("http://")+i]
	}
	for _, c := range []struct {
		name       string
		a          contract.Action
		role, desc string
		form       *contract.Form
	}{
		{"a submit button", contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Place order"`)}, "button", "Place order",
			&contract.Form{Method: "post", Action: base + "/order"}},
		{"a plain button", contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Apply coupon"`)}, "button", "Apply coupon", nil},
		{"formmethod and formaction", contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Preview"`)}, "button", "Preview",
			&contract.Form{Method: "get", Action: base + "/preview"}},
		{"type and submit", contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Coupon"`), Text: "X", Submit: true}, "textbox", "Coupon",
			&contract.Form{Method: "post", Action: base + "/order"}},
		{"type alone", contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Coupon"`), Text: "X"}, "textbox", "Coupon", nil},
		{"Enter in a textarea", contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Notes"`), Text: "X", Submit: true}, "", "", nil},
		{"a GET form", contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Go"`)}, "button", "Go",
			&contract.Form{Method: "get", Action: base + "/search"}},
		{"a link", contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Help"`)}, "link", "Help", nil},
		{"goto", contract.Action{Name: contract.ActGoto, URL: "https://example.org/"}, "", "", nil},
	} {
		got, err := shared.DescribeTarget(tctx(t), c.a)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.URL != url {
			t.Errorf("%s: URL %q, want %q", c.name, got.URL, url)
		}
		if got.Role != c.role || got.Name != c.desc || !sameForm(got.Form, c.form) {
			t.Errorf("%s: got %s %q form %+v, want %s %q form %+v", c.name, got.Role, got.Name, got.Form, c.role, c.desc, c.form)
		}
	}

	// press aims at the focused element, with Enter only.
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `textbox "Search"`)})
	got, err := shared.DescribeTarget(tctx(t), contract.Action{Name: contract.ActPress, Key: "Enter"})
	if err != nil || got.Name != "Search" || !sameForm(got.Form, &contract.Form{Method: "get", Action: base + "/search"}) {
		t.Errorf("press Enter in Search: %+v %v", got, err)
	}
	if got, err := shared.DescribeTarget(tctx(t), contract.Action{Name: contract.ActPress, Key: "Tab"}); err != nil || got.Name != "" || got.Form != nil {
		t.Errorf("press Tab: %+v %v, want no target", got, err)
	}
	if _, err := shared.DescribeTarget(tctx(t), contract.Action{Name: contract.ActClick, Ref: "e999"}); !isActionError(err) {
		t.Errorf("an unknown ref: %v, want an ActionError", err)
	}
	// Asking changed nothing: no mutation, no submit, same URL.
	if n := evalPage[float64](t, shared, "changed"); n != 0 {
		t.Errorf("describing the targets changed the page (%v)", n)
	}
}

func sameForm(a, b *contract.Form) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// A point is judged as the element there also before the first snapshot
// of its document, when the page's refs are not there yet: by its role
// and label or text, so that a rule on its name still sees it.
func TestDescribeTargetAtBeforeSnapshot(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	b := newTab(t)
	url := servePage(t, `<title>Checkout</title><style>body{margin:0} button{position:absolute;left:100px;top:100px;width:200px;height:50px}</style>
<form method="post" action="/order"><button>Place <b>order</b></button></form>`)
	if _, err := b.Do(t.Context(), contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
		t.Fatal(err)
	}
	tg, err := b.DescribeTarget(t.Context(), contract.Action{Name: contract.ActMouse, At: &contract.Point{X: 200, Y: 125}})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Role != "button" || tg.Name != "Place order" || tg.Form == nil || tg.Form.Method != "post" {
		t.Errorf("the point is on %+v", tg)
	}
}
