package routine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/routine"
	"github.com/webagent/webagent/testfixture/routinesite"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// TestSaveAndRunWithOtherValues: the two-page form task, saved as a
// routine, runs with other values with no model call, and the site has
// the new customer.
func TestSaveAndRunWithOtherValues(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	w := newWorld(t)
	r := w.record("add-customer", routinesite.CustomerTask("Ann Lee", "ann@example.com", "Pro"), "/customers/new", nil)
	t.Logf("v1.js:\n%s", r.Program)
	for _, want := range []string{
		`start("` + w.url + `/customers/new");`,
		`type({role: "textbox", name: "Full name"}, params.full_name);`,
		`select({role: "combobox", name: "Plan"}, params.plan);`,
		`type({role: "textbox", name: "Password"}, secret("customer_pw"));`,
		`click({role: "button", name: "Create customer"});`,
		`return expect({url: "/customers/added", text: "Customer " + params.full_name + " added"});`,
	} {
		if !strings.Contains(r.Program, want) {
			t.Errorf("the program lacks %s", want)
		}
	}
	var schema struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(r.Parameters, &schema)
	if strings.Join(schema.Required, ",") != "full_name,email,plan" {
		t.Errorf("parameters %s, want full_name, email, plan", r.Parameters)
	}
	before := w.requests()
	res := w.runRoutine("add-customer", map[string]string{"full_name": "Bob Ray", "email": "bob@example.com", "plan": "Team"}, false)
	if res.Code != agent.CodeSuccess {
		t.Fatalf("the routine's run: %s %s", res.Code, res.Message)
	}
	if n := w.requests() - before; n != 0 {
		t.Errorf("%d model calls, want 0", n)
	}
	got := w.site.Customers()
	want := routinesite.Customer{Name: "Bob Ray", Email: "bob@example.com", Plan: "Team", Password: password}
	if len(got) != 2 || got[1] != want {
		t.Fatalf("customers %+v, want the recorded one and %+v", got, want)
	}
	if !strings.Contains(res.Answer, "Customer Bob Ray added") {
		t.Errorf("answer %q does not show the postcondition", res.Answer)
	}
	// Secrets by name only, in every file of the routine.
	if hits := folderHas(t, w.store.Dir(), password); len(hits) > 0 {
		t.Errorf("the password is in %v", hits)
	}
	// Values that do not fit the schema change nothing.
	res = w.runRoutine("add-customer", map[string]string{"full_name": "Cy"}, false)
	if res.Code == agent.CodeSuccess || !strings.Contains(res.Message, "do not match its schema") || !strings.Contains(res.Message, `"email"`) {
		t.Errorf("missing parameters: %s %q, want a failure naming the missing email", res.Code, res.Message)
	}
	if n := len(w.site.Customers()); n != 2 {
		t.Errorf("%d customers after a refused run, want 2", n)
	}
}

// TestHealIntoDraft: a renamed button heals into a draft; the current
// version stays; accept makes the draft current, which then runs with no
// model. A renamed "Place order" on an unattended run is not healed.
func TestHealIntoDraft(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	w := newWorld(t)
	w.record("add-customer", routinesite.CustomerTask("Ann Lee", "ann@example.com", "Pro"), "/customers/new", nil)
	w.site.Rename("Next", "Continue")
	before := w.requests()
	res := w.runRoutine("add-customer", map[string]string{"full_name": "Dee Fox", "email": "dee@example.com", "plan": "Basic"}, true)
	if res.Code != agent.CodeSuccess {
		t.Fatalf("the healed run: %s %s", res.Code, res.Message)
	}
	if n := w.requests() - before; n != 1 {
		t.Errorf("%d model calls, want 1 (the heal)", n)
	}
	if c := w.site.Customers(); len(c) != 2 || c[1].Name != "Dee Fox" {
		t.Errorf("customers %+v", c)
	}
	r, err := w.store.Load("add-customer")
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != 1 || !strings.Contains(r.Program, `name: "Next"`) {
		t.Errorf("the current version changed: v%d\n%s", r.Version, r.Program)
	}
	if r.Draft == nil || r.Draft.Version != 2 || len(r.Draft.Heals) != 1 {
		t.Fatalf("draft %+v, want version 2 with one heal", r.Draft)
	}
	diff, err := w.store.Diff("add-customer")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("diff:\n%s", diff)
	if !strings.Contains(diff, `-click({role: "button", name: "Next"});`) || !strings.Contains(diff, `+click({role: "button", name: "Continue"});`) {
		t.Errorf("the diff does not show the healed line:\n%s", diff)
	}
	if _, err := w.store.Accept("add-customer"); err != nil {
		t.Fatal(err)
	}
	r, _ = w.store.Load("add-customer")
	if r.Version != 2 || r.Draft != nil || !strings.Contains(r.Program, `name: "Continue"`) {
		t.Fatalf("after accept: v%d draft %v\n%s", r.Version, r.Draft, r.Program)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "v1.js")); err != nil {
		t.Errorf("version 1 is gone: %v", err)
	}
	before = w.requests()
	res = w.runRoutine("add-customer", map[string]string{"full_name": "Eve Gao", "email": "eve@example.com", "plan": "Pro"}, true)
	if res.Code != agent.CodeSuccess || w.requests() != before {
		t.Errorf("the accepted version: %s %s, %d model calls", res.Code, res.Message, w.requests()-before)
	}

	// A renamed "Place order", unattended: not healed, no order.
	w.record("order-item", routinesite.OrderTask(12, "Red mug"), "/shop", map[string]string{"product": "Red mug", "quantity": "12"})
	w.site.Rename("Place order", "Complete purchase")
	orders := len(w.site.Orders())
	res = w.runRoutine("order-item", map[string]string{"product": "Teapot", "quantity": "20"}, true)
	if res.Code == agent.CodeSuccess || !strings.Contains(res.Message, routine.CodeNeedsPerson) {
		t.Fatalf("the renamed Place order: %s %q, want %s", res.Code, res.Message, routine.CodeNeedsPerson)
	}
	if n := len(w.site.Orders()); n != orders {
		t.Errorf("%d orders, want %d: an unattended heal placed one", n, orders)
	}
	if r, _ := w.store.Load("order-item"); r.Draft != nil {
		t.Errorf("a draft was written: %+v", r.Draft)
	}

	// With a person, who is asked and says yes: healed, ordered, a draft.
	var asked []string
	yes := agent.ConfirmerFunc(func(_ context.Context, c agent.Confirmation) (bool, error) {
		asked = append(asked, c.Question)
		return true, nil
	})
	res = w.runRoutine("order-item", map[string]string{"product": "Teapot", "quantity": "20"}, true, agent.WithConfirmer(yes))
	if res.Code != agent.CodeSuccess {
		t.Fatalf("the renamed Place order with a person: %s %s", res.Code, res.Message)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], `button "Complete purchase"`) || !strings.Contains(asked[0], "changes data") {
		t.Errorf("the person was asked %q", asked)
	}
	if o := w.site.Orders(); len(o) != orders+1 || o[len(o)-1].Product != "Teapot" || o[len(o)-1].Quantity != 20 {
		t.Errorf("orders %+v", o)
	}
	if r, _ := w.store.Load("order-item"); r.Draft == nil || r.Version != 1 {
		t.Errorf("after the person's yes: v%d draft %+v, want version 1 and a draft", r.Version, r.Draft)
	}
}

// TestRoutinesAsTools: a task that needs two saved routines and one step
// of its own takes 3 model calls with the routines offered as tools, and
// the scripted model's one call a step without them.
func TestRoutinesAsTools(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	w := newWorld(t)
	w.record("add-customer", routinesite.CustomerTask("Ann Lee", "ann@example.com", "Pro"), "/customers/new", nil)
	w.record("order-item", routinesite.OrderTask(12, "Red mug"), "/shop", map[string]string{"product": "Red mug", "quantity": "12"})
	tools, err := routine.Tools(w.store, routine.ToolOptions{Healer: routine.ModelHealer(w.llm, 0)})
	if err != nil {
		t.Fatal(err)
	}
	task := routinesite.BothTask("Bob Ray", "bob@example.com", "Team", 30, "Teapot")

	before := w.requests()
	traced := filepath.Join(t.TempDir(), "trace-both")
	res := w.run(task, "/customers/new", traced, agent.WithTools(tools...))
	with, withTokens := w.requests()-before, res.Usage.PromptTokens
	if res.Code != agent.CodeSuccess {
		t.Fatalf("with routines: %s %s", res.Code, res.Message)
	}
	before = w.requests()
	res = w.run(task, "/customers/new", "")
	without := w.requests() - before
	if res.Code != agent.CodeSuccess {
		t.Fatalf("without routines: %s %s", res.Code, res.Message)
	}
	t.Logf("model calls: %d with the routines (%d prompt tokens), %d without (%d prompt tokens)", with, withTokens, without, res.Usage.PromptTokens)
	if with > 3 || without < 8 {
		t.Errorf("model calls: %d with the routines (want at most 3), %d without (want at least 8)", with, without)
	}
	// Both runs did the whole task: the server's record.
	c := w.site.Customers()
	if len(c) != 3 || c[1] != (routinesite.Customer{Name: "Bob Ray", Email: "bob@example.com", Plan: "Team", Password: password}) || c[2] != c[1] {
		t.Errorf("customers %+v", c)
	}
	waitFor(t, func() bool {
		o := w.site.Orders()
		return len(o) == 3 && o[1] == routinesite.Order{Product: "Teapot", Quantity: 30, Receipt: true} && o[2] == o[1]
	}, func() string { return fmt.Sprintf("orders %+v", w.site.Orders()) })
	// That run, which called two routines, saves as one routine: their
	// steps and its own, flat.
	tr, err := trace.Read(traced)
	if err != nil {
		t.Fatal(err)
	}
	both, err := routine.FromTrace(tr, routine.SaveOptions{Name: "customer-and-order", Source: traced})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`type({role: "textbox", name: "Full name"}, params.full_name);`, `click({role: "link", name: params.link});`,
		`type({role: "textbox", name: "Password"}, secret("customer_pw"));`, `click({role: "button", name: "Place order"});`,
		`check({role: "checkbox", name: "Email me the receipt"});`} {
		if !strings.Contains(both.Program, want) {
			t.Errorf("the flat routine lacks %s:\n%s", want, both.Program)
		}
	}
	// What the model was offered: the routine's description and
	// parameters, never the recorded secret.
	for _, r := range w.model.Requests() {
		if strings.Contains(string(r.Req.Raw), password) {
			t.Fatal("the password reached the model")
		}
	}
}

// waitFor waits, within 10 s, for cond (a page's request still on its
// way after the run's end).
func waitFor(t *testing.T, cond func() bool, what func() string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("not within 10 s: %s", what())
		case <-tick.C:
		}
	}
}

// TestRoutineUnderThePolicy: a routine's steps run under the user's
// action policy as the model's own calls do: --confirm purchases asks
// before its "Place order", and a no refuses it (no order).
func TestRoutineUnderThePolicy(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	w := newWorld(t)
	w.record("order-item", routinesite.OrderTask(12, "Red mug"), "/shop", map[string]string{"product": "Red mug", "quantity": "12"})
	p, err := policy.Presets("purchases")
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	no := agent.ConfirmerFunc(func(_ context.Context, c agent.Confirmation) (bool, error) {
		asked = append(asked, c.Question)
		return false, nil
	})
	res := w.runRoutine("order-item", map[string]string{"product": "Teapot", "quantity": "20"}, false, agent.WithPolicy(p), agent.WithConfirmer(no))
	if res.Code == agent.CodeSuccess || !strings.Contains(res.Message, routine.CodeFailed) || !strings.Contains(res.Message, "REFUSED") {
		t.Fatalf("a refused Place order: %s %q", res.Code, res.Message)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], `click button "Place order"`) {
		t.Errorf("asked %q", asked)
	}
	if o := w.site.Orders(); len(o) != 1 {
		t.Errorf("orders %+v: only the recorded one", o)
	}
	if len(res.Policy) != 1 || res.Policy[0].Allowed {
		t.Errorf("the result's policy decisions %+v", res.Policy)
	}
}

// TestRoutineWithinTheIterationBound: a routine whose step waits for what
// never comes ends within the iteration's bound, as a script does, and the
// run says why.
func TestRoutineWithinTheIterationBound(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	w := newWorld(t)
	dir := t.TempDir()
	s := handMade(t, dir, "wait-forever", `start("`+w.url+`/shop");
waitFor("a text this page never shows", {timeout_ms: 60000});
return expect({});
`)
	r, err := s.Load("wait-forever")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	res := w.run("Run the routine wait-forever", "/shop", "", agent.WithLimits(agent.Limits{IterationTimeout: 4 * time.Second, HumanTimeout: time.Second}),
		agent.WithTools(routine.Tool(s, r, routine.ToolOptions{})), agent.WithRecording(routine.Drive(r, json.RawMessage(`{"full_name": "x"}`))))
	took := time.Since(t0)
	if res.Code == agent.CodeSuccess || took > 15*time.Second {
		t.Fatalf("%s %q after %s, want a failure within the 4 s bound and the run's end", res.Code, res.Message, took)
	}
	if !strings.Contains(res.Message, "SCRIPT_TIMEOUT") && res.Code != agent.CodeIterationTimeout {
		t.Errorf("%s %q: want the script's time or the iteration's bound named", res.Code, res.Message)
	}
}
