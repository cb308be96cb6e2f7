package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/testfixture/tier"
)

// mugShop is a shop page that adds a mug to the cart either through its
// form (choose a colour, type a quantity, press Add) or through its page
// tools: add_to_cart({colour, qty}), which posts the same cart line, and
// apply_coupon({code}). got returns the cart lines and coupons the server
// received.
func mugShop(t *testing.T) (url string, got func() []string) {
	t.Helper()
	var (
		mu    sync.Mutex
		lines []string
	)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			_ = r.ParseForm()
			line := r.URL.Path + " " + string(body)
			mu.Lock()
			lines = append(lines, line)
			mu.Unlock()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<title>Cart</title><h1>Added to your cart</h1>`)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>Mugs</title><h1>Mugs</h1><p id=status>cart: empty</p>
<form method=post action="/cart"><label>Colour <select name=colour><option>red</option><option>blue</option></select></label>
<label>Quantity <input name=qty></label><button>Add</button></form>
<script>
const post = (path, data) => fetch(path, {method: 'POST', body: new URLSearchParams(data)}).then(r => r.ok);
document.modelContext.registerTool({name: 'add_to_cart', description: 'Add mugs of a colour to the cart',
  inputSchema: {type: 'object', properties: {colour: {type: 'string', enum: ['red', 'blue']}, qty: {type: 'integer', minimum: 1}}, required: ['colour', 'qty']},
  execute: async ({colour, qty}) => { await post('/cart', {colour, qty}); document.getElementById('status').textContent = 'cart: ' + qty + ' ' + colour; return 'added ' + qty + ' ' + colour + ' mugs'; }});
document.modelContext.registerTool({name: 'apply_coupon', description: 'Apply a coupon code',
  inputSchema: {type: 'object', properties: {code: {type: 'string'}}, required: ['code']},
  execute: async ({code}) => { await post('/coupon', {code}); return 'coupon applied'; }});
</script>`)
	}))
	t.Cleanup(s.Close)
	return s.URL + "/", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

// toolTab is a browser of toolChrome for the length of t: pages may
// offer tools, as with --page-tools.
func toolTab(t *testing.T) *browser.Browser {
	t.Helper()
	return toolChrome.Browser(t, browser.Options{})
}

// call is a scripted turn with one tool call.
func callTurn(name string, args any) modelserver.Turn {
	return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
}

// A model that uses the page's tool reaches the task's goal in fewer steps
// than one that clicks its way through the form, with the same cart.
func TestPageToolFewerSteps(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	withTool := func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastTool(), "page tool add_to_cart answered") {
			return callTurn("done", map[string]string{"answer": "2 blue mugs in the cart"})
		}
		if strings.Contains(req.LastUser(), "- add_to_cart(") {
			return callTurn("page_tool", map[string]any{"name": "add_to_cart", "arguments": map[string]any{"colour": "blue", "qty": 2}})
		}
		return callTurn("fail", map[string]string{"reason": "no page tool"})
	}
	step := 0
	var colour, qty, add string // refs are stable: read from the first, whole snapshot
	byClicks := func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		step++
		switch step {
		case 1:
			colour, _ = modelserver.FindRef(obs, "combobox", "Colour")
			qty, _ = modelserver.FindRef(obs, "textbox", "Quantity")
			add, _ = modelserver.FindRef(obs, "button", "Add")
			return callTurn("select", map[string]string{"ref": colour, "option": "blue"})
		case 2:
			return callTurn("type", map[string]string{"ref": qty, "text": "2"})
		case 3:
			return callTurn("click", map[string]string{"ref": add})
		}
		return callTurn("done", map[string]string{"answer": "2 blue mugs in the cart"})
	}
	iterations := map[string]int{}
	for name, r := range map[string]modelserver.ResponderFunc{"page tool": withTool, "clicks": byClicks} {
		url, got := mugShop(t)
		m, _ := newModel(t, r)
		res := mustAgent(t, toolTab(t), m).Run(context.Background(), agent.Task{URL: url, Instruction: "put 2 blue mugs in the cart"})
		if res.Code != agent.CodeSuccess {
			t.Fatalf("%s: %s %s; steps %+v", name, res.Code, res.Message, res.Steps)
		}
		if lines := got(); len(lines) != 1 || !strings.Contains(lines[0], "colour=blue") || !strings.Contains(lines[0], "qty=2") {
			t.Errorf("%s: the shop received %q", name, lines)
		}
		iterations[name] = res.Iterations
	}
	if iterations["page tool"] >= iterations["clicks"] {
		t.Errorf("iterations through the page tool %d, through clicks %d", iterations["page tool"], iterations["clicks"])
	}
}

// The user's policy sees a page tool call as an action: a rule denies
// one tool, --confirm submits asks before another (not read-only), and a
// no leaves the shop untouched; a secret in a tool's arguments reaches the
// page only on its own site, and never the result.
func TestPageToolPolicyAndSecrets(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url, got := mugShop(t)
	deny, err := policy.Parse("p.yaml", []byte("version: 1\nrules:\n  - when: {tool: page_tool, name: apply_coupon}\n    then: deny\n    reason: no coupons\n"))
	if err != nil {
		t.Fatal(err)
	}
	submits, _ := policy.Presets("submits")
	step := 0
	m, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		step++
		switch step {
		case 1:
			return callTurn("page_tool", map[string]any{"name": "apply_coupon", "arguments": map[string]any{"code": "<secret>CODE</secret>"}})
		case 2:
			return callTurn("page_tool", map[string]any{"name": "add_to_cart", "arguments": map[string]any{"colour": "red", "qty": 1}})
		}
		return callTurn("done", map[string]string{"answer": "done"})
	}))
	var asked []string
	a := mustAgent(t, toolTab(t), m, agent.WithPolicy(policy.Join(deny, submits)),
		agent.WithConfirmer(agent.ConfirmerFunc(func(_ context.Context, c agent.Confirmation) (bool, error) {
			asked = append(asked, c.Question)
			return false, nil
		})))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "use coupon <secret>CODE</secret>, add a red mug", Secrets: map[string]string{"CODE": "SAVE-4411"}})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s %s", res.Code, res.Message)
	}
	if lines := got(); len(lines) != 0 {
		t.Errorf("the shop received %q", lines)
	}
	results := toolResults(srv)
	if !strings.Contains(results, "no coupons") || !strings.Contains(results, "refused by the user's policy") {
		t.Errorf("the model was not told of the refusals: %s", results)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], `page tool "add_to_cart" with {"colour":"red","qty":1}`) {
		t.Errorf("the person was asked %q", asked)
	}
	body, _ := json.Marshal(res)
	if strings.Contains(string(body), "SAVE-4411") || strings.Contains(results, "SAVE-4411") {
		t.Errorf("the secret's value reached the result or the model")
	}

	// Allowed, the coupon reaches its own site, filled in.
	step = 0
	url2, got2 := mugShop(t)
	m2, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		step++
		if step == 1 {
			return callTurn("page_tool", map[string]any{"name": "apply_coupon", "arguments": map[string]any{"code": "<secret>CODE</secret>"}})
		}
		return callTurn("done", map[string]string{"answer": req.LastTool()})
	}))
	res = mustAgent(t, toolTab(t), m2).Run(context.Background(), agent.Task{URL: url2, Instruction: "use coupon <secret>CODE</secret>", Secrets: map[string]string{"CODE": "SAVE-4411"}})
	if lines := got2(); len(lines) != 1 || !strings.Contains(lines[0], "code=SAVE-4411") || res.Code != agent.CodeSuccess {
		t.Errorf("the coupon call: %s %q; the shop received %q", res.Code, res.Answer, lines)
	}

	// Bound to another site, it is not given to this one.
	step = 0
	url3, got3 := mugShop(t)
	m3, srv3 := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		step++
		if step == 1 {
			return callTurn("page_tool", map[string]any{"name": "apply_coupon", "arguments": map[string]any{"code": "<secret>CODE</secret>"}})
		}
		return callTurn("done", map[string]string{"answer": "no"})
	}))
	mustAgent(t, toolTab(t), m3).Run(context.Background(), agent.Task{URL: url3, Instruction: "use coupon <secret>CODE</secret>", Secrets: map[string]string{"CODE@https://other.example": "SAVE-4411"}})
	if lines := got3(); len(lines) != 0 || !strings.Contains(toolResults(srv3), "may only be given to https://other.example") {
		t.Errorf("a secret of another site: the shop received %q; the model was told %s", lines, toolResults(srv3))
	}
}
