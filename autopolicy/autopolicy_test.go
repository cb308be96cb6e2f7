package autopolicy_test

import (
	"testing"

	"github.com/webagent/webagent/autopolicy"
	"github.com/webagent/webagent/policy"
)

// The written policy: the sites, what each may not do refused, the rest
// allowed, every other site refused.
func TestProposalPolicy(t *testing.T) {
	p := autopolicy.Proposal{Sites: []autopolicy.Site{{Site: "shop.example", May: []string{"read", "fill", "submit"}}}, Why: "add a mug to the cart"}
	dp, err := p.WithStart("https://shop.example/mugs").Policy()
	if err != nil {
		t.Fatal(err)
	}
	if len(dp.Policy.Sites) != 1 || dp.Policy.Sites[0] != "shop.example" {
		t.Errorf("sites %v", dp.Policy.Sites)
	}
	for _, c := range []struct {
		a    policy.Action
		want policy.Decision
	}{
		{policy.Action{Tool: "click", URL: "https://shop.example/", Role: "button", Name: "Add to cart"}, policy.Allow},
		{policy.Action{Tool: "type", URL: "https://shop.example/", Name: "Quantity"}, policy.Allow},
		{policy.Action{Tool: "click", URL: "https://shop.example/", Role: "link", Name: "Delete my account"}, policy.Deny},
		{policy.Action{Tool: "click", URL: "https://shop.example/", Role: "button", Name: "Place order"}, policy.Deny},
		{policy.Action{Tool: "page_tool", URL: "https://shop.example/", Name: "checkout"}, policy.Deny},
		{policy.Action{Tool: "click", URL: "https://mail.example/", Role: "button", Name: "Send"}, policy.Deny},
	} {
		if v := dp.Policy.Decide(c.a); v.Decision != c.want {
			t.Errorf("%s %q on %s: %s (%s), want %s", c.a.Tool, c.a.Name, c.a.URL, v.Decision, v.Reason, c.want)
		}
	}
	read, err := autopolicy.Proposal{Sites: []autopolicy.Site{{Site: "wiki.example", May: []string{"read"}}}}.Policy()
	if err != nil {
		t.Fatal(err)
	}
	if v := read.Policy.Decide(policy.Action{Tool: "type", URL: "https://wiki.example/", Name: "Search"}); v.Decision != policy.Deny {
		t.Errorf("typing on a read-only site: %s", v.Decision)
	}
	if _, err := (autopolicy.Proposal{Sites: []autopolicy.Site{{Site: "https://x.example/path", May: []string{"read"}}}}).Policy(); err == nil {
		t.Error("a URL for a site was taken")
	}
}
