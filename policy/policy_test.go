package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPolicyPattern(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"*buy*|*pay*", "Buy now", true},
		{"*buy*|*pay*", "PAYMENT", true},
		{"*buy*|*pay*", "Contact", false},
		{"place order", "Place   Order", true},
		{"place order", "Place order now", false},
		{"*", "", true},
		{"a*c", "abbbc", true},
		{"a*c", "abbbd", false},
		{"*a*b*", "xxaxxbxx", true},
		{"*.shop.example", "www.shop.example", true},
	} {
		if got := MustPattern(c.pat).Match(c.s); got != c.want {
			t.Errorf("%q matching %q = %v, want %v", c.pat, c.s, got, c.want)
		}
	}
	for _, bad := range []string{"", "  ", "a||b", "a|", "|a"} {
		if _, err := ParsePattern(bad); err == nil {
			t.Errorf("pattern %q was accepted", bad)
		}
	}
}

func TestPolicyDecide(t *testing.T) {
	p, err := Parse("p.yaml", []byte(`version: 1
rules:
  - when: {tool: goto|back|forward}
    then: allow
  - when: {site: "*.shop.example", role: button, name: "*buy*"}
    then: confirm
    reason: buying
  - when: {form_method: post, form_action: "https://bank.example/*"}
    then: deny
  - when: {site: "localhost:8080"}
    then: deny
`))
	if err != nil {
		t.Fatal(err)
	}
	post := &Form{Method: "post", Action: "https://bank.example/transfer"}
	for _, c := range []struct {
		name string
		a    Action
		want Decision
		rule string
	}{
		{"a goto is allowed by the first rule", Action{Tool: "goto", URL: "https://shop.example/"}, Allow, "p.yaml:3"},
		{"the domain itself matches *.", Action{Tool: "click", URL: "https://shop.example/x", Role: "button", Name: "Buy now"}, Confirm, "p.yaml:5"},
		{"a subdomain matches", Action{Tool: "click", URL: "https://www.shop.example/x", Role: "button", Name: "BUY"}, Confirm, "p.yaml:5"},
		{"another site does not", Action{Tool: "click", URL: "https://shop.example.org/", Role: "button", Name: "Buy"}, Allow, ""},
		{"a link is not a button", Action{Tool: "click", URL: "https://shop.example/", Role: "link", Name: "Buy"}, Allow, ""},
		{"a form rule needs a form", Action{Tool: "click", URL: "https://bank.example/", Role: "button", Name: "Send"}, Allow, ""},
		{"a POST form to the bank", Action{Tool: "type", URL: "https://bank.example/", Form: post}, Deny, "p.yaml:8"},
		{"a GET form is not", Action{Tool: "type", URL: "https://bank.example/", Form: &Form{Method: "get", Action: post.Action}}, Allow, ""},
		{"a port in the site", Action{Tool: "click", URL: "http://localhost:8080/"}, Deny, "p.yaml:10"},
		{"another port", Action{Tool: "click", URL: "http://localhost:9090/"}, Allow, ""},
	} {
		v := p.Decide(c.a)
		if v.Decision != c.want || v.Rule != c.rule {
			t.Errorf("%s: got %s by %q, want %s by %q", c.name, v.Decision, v.Rule, c.want, c.rule)
		}
	}
	if !p.Needs("click") {
		t.Error("Needs(click) is false; rule 2 looks at the target of any tool")
	}
	ask, _ := Presets("purchases")
	if ask.Needs("goto") || !ask.Needs("press") {
		t.Errorf("--confirm purchases: Needs(goto) %v (want false), Needs(press) %v (want true)", ask.Needs("goto"), ask.Needs("press"))
	}
	var none *Policy
	if v := none.Decide(Action{Tool: "click"}); v.Decision != Allow || none.Asks() {
		t.Errorf("the nil policy decided %s, asks %v", v.Decision, none.Asks())
	}
	if !p.Asks() || !ask.Asks() {
		t.Error("a policy with a confirm rule does not ask")
	}
}

func TestPolicyPresets(t *testing.T) {
	order := &Form{Method: "post", Action: "https://shop.example/order"}
	search := &Form{Method: "get", Action: "https://shop.example/search"}
	for _, c := range []struct {
		preset string
		a      Action
		want   Decision
	}{
		{"submits", Action{Tool: "click", Role: "button", Name: "Send", Form: order}, Confirm},
		{"submits", Action{Tool: "type", Role: "textbox", Name: "Query", Form: search}, Allow},
		{"submits", Action{Tool: "click", Role: "link", Name: "Home"}, Allow},
		{"purchases", Action{Tool: "click", Role: "button", Name: "Place order"}, Confirm},
		{"purchases", Action{Tool: "click", Role: "button", Name: "Proceed to checkout"}, Confirm},
		{"purchases", Action{Tool: "press", Role: "button", Name: "Pay now"}, Confirm},
		{"purchases", Action{Tool: "type", Role: "textbox", Name: "Order notes"}, Allow},
		{"purchases", Action{Tool: "type", Role: "textbox", Name: "Card", Form: &Form{Method: "post", Action: "https://pay.example/payment"}}, Confirm},
		{"purchases", Action{Tool: "click", Role: "link", Name: "Contact us"}, Allow},
		{"purchases", Action{Tool: "click", Role: "button", Name: "Search", Form: search}, Allow},
		{"deletes", Action{Tool: "click", Role: "button", Name: "Delete message"}, Confirm},
		{"deletes", Action{Tool: "click", Role: "button", Name: "Cancel subscription"}, Confirm},
		{"deletes", Action{Tool: "click", Role: "button", Name: "Close account"}, Confirm},
		{"deletes", Action{Tool: "click", Role: "button", Name: "Save"}, Allow},
		{"all", Action{Tool: "click", Role: "link", Name: "Home"}, Confirm},
		{"all", Action{Tool: "select", Role: "combobox", Name: "Size"}, Confirm},
		{"all", Action{Tool: "scroll"}, Allow},
		{"all", Action{Tool: "extract"}, Allow},
		{"all", Action{Tool: "goto", URL: "https://x.example/"}, Allow},
	} {
		p, err := Presets(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		if v := p.Decide(c.a); v.Decision != c.want {
			t.Errorf("--confirm %s, %s %s %q (form %v): %s, want %s", c.preset, c.a.Tool, c.a.Role, c.a.Name, c.a.Form, v.Decision, c.want)
		}
	}
	p, err := Presets("purchases, deletes", "all")
	if err != nil || len(p.Rules) != 8 {
		t.Fatalf("three presets: %v, %d rules", err, len(p.Rules))
	}
	_, err = Presets("purchase")
	var pe *Error
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), `did you mean "purchases"?`) {
		t.Errorf("unknown preset: %v", err)
	}
}

func TestPolicyErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unknown field", "version: 1\nrules:\n  - when: {tol: click}\n    then: confirm\n",
			`p.yaml:3: unknown field "tol"; did you mean "tool"? fields: tool, site, role, name, form_method, form_action, read_only`},
		{"unknown rule field", "rules:\n  - when: {tool: click}\n    than: confirm\n", `p.yaml:3: unknown field "than"; did you mean "then"?`},
		{"unknown tool", "rules:\n  - when: {tool: clik}\n    then: deny\n", `p.yaml:2: unknown tool "clik"; did you mean "click"? tools: `},
		{"unknown then", "rules:\n  - when: {tool: click}\n    then: confrim\n", `p.yaml:3: then "confrim" is not a decision; did you mean "confirm"? write: allow, deny, confirm`},
		{"no then", "rules:\n  - when: {tool: click}\n", "p.yaml:2: the rule has no then"},
		{"empty alternative", "rules:\n  - when: {name: \"*buy*||*pay*\"}\n    then: deny\n", `p.yaml:2: name: the pattern "*buy*||*pay*" has an empty alternative`},
		{"site with a scheme", "rules:\n  - when: {site: \"https://shop.example\"}\n    then: deny\n", `p.yaml:2: site "https://shop.example" is not a host`},
		{"form method", "rules:\n  - when: {form_method: pots}\n    then: deny\n", `p.yaml:2: form_method "pots" is not a form method; did you mean "post"?`},
		{"version", "version: 2\nrules: []\n", `p.yaml:1: version "2" is not known; write version: 1`},
		{"no rules", "version: 1\n", "p.yaml:1: the policy has no rules"},
		{"not YAML", "rules:\n  - when: {tool: click\n", "p.yaml:"},
		{"empty", "", "p.yaml: the policy is empty"},
	} {
		_, err := Parse("p.yaml", []byte(c.src))
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v is not an *Error", c.name, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %s\nwant %s…", c.name, err, c.want)
		}
	}
	_, err := Load(filepath.Join(t.TempDir(), "missing.yaml"))
	var pe *Error
	if !errors.As(err, &pe) || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.yaml: cannot read the policy file") {
		t.Errorf("a missing file: %v", err)
	}
}

// Page tools: the presets ask before one the page does not mark
// read-only (submits, all), or one named like a purchase or a deletion;
// a file's rule can tell them apart by read_only.
func TestPolicyPageTools(t *testing.T) {
	for _, c := range []struct {
		preset   string
		name     string
		readOnly bool
		want     Decision
	}{
		{"submits", "add_to_cart", false, Confirm},
		{"submits", "search", true, Allow},
		{"purchases", "place_order", false, Confirm},
		{"purchases", "add_to_cart", false, Allow},
		{"deletes", "delete_account", false, Confirm},
		{"all", "add_to_cart", false, Confirm},
		{"all", "list_orders", true, Allow},
	} {
		p, err := Presets(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		if v := p.Decide(Action{Tool: "page_tool", URL: "https://shop.example/", Name: c.name, ReadOnly: c.readOnly}); v.Decision != c.want {
			t.Errorf("--confirm %s, page tool %s (read-only %v): %s, want %s", c.preset, c.name, c.readOnly, v.Decision, c.want)
		}
	}
	p, err := Parse("p.yaml", []byte("version: 1\nrules:\n  - when: {tool: page_tool, read_only: false}\n    then: deny\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(Action{Tool: "page_tool", Name: "add_to_cart"}); v.Decision != Deny {
		t.Errorf("read_only: false on a writing tool: %s", v.Decision)
	}
	if v := p.Decide(Action{Tool: "page_tool", Name: "search", ReadOnly: true}); v.Decision != Allow {
		t.Errorf("read_only: false on a read-only tool: %s", v.Decision)
	}
	if _, err := Parse("p.yaml", []byte("version: 1\nrules:\n  - when: {read_only: maybe}\n    then: deny\n")); err == nil || !strings.Contains(err.Error(), "read_only must be true or false") {
		t.Errorf("read_only: maybe: %v", err)
	}
}
