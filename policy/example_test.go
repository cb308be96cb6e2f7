package policy_test

import (
	"fmt"

	"github.com/webagent/webagent/policy"
)

func Example() {
	file, err := policy.Parse("policy.yaml", []byte(`version: 1
rules:
  - when: {form_method: post, form_action: "*/account/delete*"}
    then: deny
    reason: deleting the account is never wanted
  - when: {tool: goto, site: "*.bank.example"}
    then: allow
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	ask, _ := policy.Presets("purchases")
	p := policy.Join(file, ask) // the file's rules first

	for _, a := range []policy.Action{
		{Tool: "click", URL: "https://shop.example/cart", Role: "button", Name: "Place order",
			Form: &policy.Form{Method: "post", Action: "https://shop.example/order"}},
		{Tool: "click", URL: "https://shop.example/me", Role: "button", Name: "Delete my account",
			Form: &policy.Form{Method: "post", Action: "https://shop.example/account/delete"}},
		{Tool: "click", URL: "https://shop.example/", Role: "link", Name: "Contact"},
	} {
		v := p.Decide(a)
		fmt.Printf("%s %q: %s (%s)\n", a.Tool, a.Name, v.Decision, v.Rule)
	}

	_, err = policy.Parse("policy.yaml", []byte("version: 1\nrules:\n  - when: {tol: click}\n    then: confirm\n"))
	fmt.Println(err)
	// Output:
	// click "Place order": confirm (--confirm purchases)
	// click "Delete my account": deny (policy.yaml:3)
	// click "Contact": allow ()
	// policy.yaml:3: unknown field "tol"; did you mean "tool"? fields: tool, site, role, name, form_method, form_action, read_only
}
