package mcpserver_test

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/routine"
	"github.com/webagent/webagent/testfixture/routinesite"
	"github.com/webagent/webagent/testfixture/tier"
)

// addCustomer is the routine a saved run of routinesite's customer task
// gives (routine.FromTrace), for a site at base.
func addCustomer(base string) *routine.Routine {
	return &routine.Routine{Manifest: routine.Manifest{Name: "add-customer", Description: "Add the customer {full_name} ({email}) on the {plan} plan.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"full_name":{"type":"string"},"email":{"type":"string"},"plan":{"type":"string"}},"required":["full_name","email","plan"],"additionalProperties":false}`),
		Secrets:    []string{"customer_pw"}, Source: routine.Source{Run: "test", URL: base + "/customers/new", Created: "2026-11-29T00:00:00Z"}},
		Program: `start("` + base + `/customers/new");
type({role: "textbox", name: "Full name"}, params.full_name);
type({role: "textbox", name: "Email"}, params.email);
click({role: "button", name: "Next"});
select({role: "combobox", name: "Plan"}, params.plan);
type({role: "textbox", name: "Password"}, secret("customer_pw"));
click({role: "button", name: "Create customer"});
return expect({url: "/customers/added", text: "Customer " + params.full_name + " added"});
`}
}

// TestRoutineTools: mcp --routines offers each routine as a tool with its
// parameters; a call runs it in the session's browser with the secret
// filled on its site; bad values are refused; a renamed button is healed
// by the server's model into a draft.
func TestRoutineTools(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := routinesite.New()
	srv := httptest.NewServer(site)
	defer srv.Close()
	store, err := routine.Open(filepath.Join(t.TempDir(), "routines"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Create(addCustomer(srv.URL)); err != nil {
		t.Fatal(err)
	}
	model, err := modelserver.Start(routinesite.Model())
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	allowed, _ := contract.ParseDomainPatterns("127.0.0.1")
	s := mcpserver.New(mcpserver.Config{Policy: contract.NavigationPolicy{Allowed: allowed}, Model: client, Routines: store,
		Secrets: map[string]string{"customer_pw@" + srv.URL: routinesite.Password}})
	t.Cleanup(func() { _ = s.Close() })
	cs, _ := stdio(t, s, nil)
	defer cs.Close()

	tools, err := cs.ListTools(ctx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, tl := range tools.Tools {
		if tl.Name == "routine_add_customer" {
			found = true
			schema, _ := json.Marshal(tl.InputSchema)
			if !strings.Contains(string(schema), `"full_name"`) || !strings.Contains(tl.Description, "Add the customer {full_name}") {
				t.Errorf("the tool: %s %s", tl.Description, schema)
			}
		}
	}
	if !found {
		t.Fatal("no routine_add_customer tool")
	}
	res, out := call(t, cs, "routine_add_customer", map[string]string{"full_name": "Bob Ray", "email": "bob@example.com", "plan": "Team"})
	if res.IsError || !strings.Contains(out, "Customer Bob Ray added") || strings.Contains(out, routinesite.Password) {
		t.Fatalf("the routine's call: %v %s", res.IsError, out)
	}
	want := routinesite.Customer{Name: "Bob Ray", Email: "bob@example.com", Plan: "Team", Password: routinesite.Password}
	if c := site.Customers(); len(c) != 1 || c[0] != want {
		t.Fatalf("customers %+v", c)
	}
	res, out = call(t, cs, "routine_add_customer", map[string]string{"full_name": "Cy"})
	if !res.IsError || !strings.Contains(out, "email") {
		t.Errorf("missing values: %v %s", res.IsError, out)
	}
	site.Rename("Next", "Continue")
	before := len(model.Requests())
	res, out = call(t, cs, "routine_add_customer", map[string]string{"full_name": "Dee Fox", "email": "dee@example.com", "plan": "Basic"})
	if res.IsError || !strings.Contains(out, "healed") || !strings.Contains(out, "webagent routine accept add-customer") || len(model.Requests()) != before+1 {
		t.Fatalf("the renamed button: %v %s (%d model calls)", res.IsError, out, len(model.Requests())-before)
	}
	if r, _ := store.Load("add-customer"); r.Version != 1 || r.Draft == nil {
		t.Errorf("after the heal: v%d draft %+v", r.Version, r.Draft)
	}
	if c := site.Customers(); len(c) != 2 {
		t.Errorf("customers %+v", c)
	}
}
