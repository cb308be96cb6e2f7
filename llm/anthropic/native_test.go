package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
)

// Claude's computer toolset through the Messages API, carried out by a real
// Chromium: each member call is judged by the user's policy as the element
// under its point, as webagent's own tools are.

// checkout is a page with a "Place order" button at (100, 100)-(300, 150),
// a name field at (100, 200)-(300, 230), and a frame of another site at
// (400, 100)-(700, 300) holding a card field at (10, 10)-(210, 40) and a
// "Pay" button at (10, 60)-(110, 100) of its own viewport.
type checkout struct {
	url    string // the page's, on 127.0.0.1
	frame  string // the frame's, on localhost
	orders atomic.Int32
	pays   atomic.Int32
}

// The points of the page a scripted Claude clicks at.
var (
	atOrder = []int{200, 125}
	atName  = []int{200, 215}
	atCard  = []int{510, 125}
	atPay   = []int{460, 180}
)

func newCheckout(t *testing.T) *checkout {
	t.Helper()
	c := &checkout{}
	frame := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method == http.MethodPost {
			c.pays.Add(1)
			fmt.Fprint(w, `<p>Paid</p>`)
			return
		}
		fmt.Fprint(w, `<style>body{margin:0} input,button{position:absolute;left:10px;box-sizing:border-box}</style>
<form method="post" action="/pay"><input aria-label="Card number" style="top:10px;width:200px;height:30px">
<button style="top:60px;width:100px;height:40px">Pay</button></form>`)
	}))
	t.Cleanup(frame.Close)
	c.frame = strings.Replace(frame.URL, "127.0.0.1", "localhost", 1)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method == http.MethodPost && r.URL.Path == "/order" {
			c.orders.Add(1)
			fmt.Fprint(w, `<title>Thanks</title><h1>Order placed</h1>`)
			return
		}
		fmt.Fprintf(w, `<title>Checkout</title><style>body{margin:0} #buy,#name,iframe{position:absolute;box-sizing:border-box}</style>
<form method="post" action="/order"><input type="hidden" name="item" value="mug">
<button id="buy" style="left:100px;top:100px;width:200px;height:50px">Place order</button></form>
<input id="name" aria-label="Your name" style="left:100px;top:200px;width:200px;height:30px">
<iframe title="Payment" src="%s/card" style="left:400px;top:100px;width:300px;height:200px;border:0"></iframe>`, c.frame)
	}))
	t.Cleanup(page.Close)
	c.url = page.URL + "/"
	return c
}

// member is a call of a computer toolset member.
func member(name string, input any) call {
	raw, _ := json.Marshal(input)
	return call{"computer:" + name, string(raw)}
}

// scriptedClaude answers request n with replies[n], then calls done with
// the text of the tool results it received last as its answer.
func scriptedClaude(replies ...[]call) func(http.ResponseWriter, *http.Request, map[string]any, int) {
	return func(w http.ResponseWriter, _ *http.Request, body map[string]any, n int) {
		if n < len(replies) {
			streamReply(w, "", "", replies[n])
			return
		}
		answer, _ := json.Marshal(map[string]string{"answer": toolResultText(body)})
		streamReply(w, "", "", []call{{"done", string(answer)}})
	}
}

// toolResultText joins the text of the last user turn's tool results.
func toolResultText(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	m, _ := msgs[len(msgs)-1].(map[string]any)
	blocks, _ := m["content"].([]any)
	var b strings.Builder
	for _, x := range blocks {
		blk, _ := x.(map[string]any)
		if blk["type"] != "tool_result" {
			continue
		}
		inner, _ := blk["content"].([]any)
		for _, y := range inner {
			if t, ok := y.(map[string]any)["text"].(string); ok {
				b.WriteString(t + "\n")
			}
		}
	}
	return b.String()
}

// runNative runs a task on the checkout through the computer toolset.
func runNative(t *testing.T, b *browser.Browser, srv *messagesServer, c *checkout, opts ...agent.Option) *agent.Result {
	t.Helper()
	opts = append([]agent.Option{agent.WithNativeTools(contract.NativeComputer), agent.WithIterationTimeout(30 * time.Second), agent.WithMaxIterations(6)}, opts...)
	a, err := agent.New(b, newClient(t, srv.URL, nil), opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return a.Run(ctx, agent.Task{URL: c.url, Instruction: "Buy the mug.", Secrets: map[string]string{"card": "4111-1111-1111-1111"}})
}

// A click at the centre of "Place order" under --confirm purchases asks
// the person first, naming the button under the pointer; a yes places the
// order, a no does not.
func TestNativeClickConfirmed(t *testing.T) {
	t.Parallel()
	purchases, err := policy.Presets("purchases")
	if err != nil {
		t.Fatal(err)
	}
	for _, yes := range []bool{true, false} {
		t.Run(fmt.Sprintf("yes=%v", yes), func(t *testing.T) {
			t.Parallel()
			c := newCheckout(t)
			srv := newMessagesServer(t, scriptedClaude([]call{member("left_click", map[string]any{"coordinate": atOrder})}))
			var mu sync.Mutex
			var asked []string
			confirm := agent.ConfirmerFunc(func(_ context.Context, q agent.Confirmation) (bool, error) {
				mu.Lock()
				defer mu.Unlock()
				asked = append(asked, q.Question)
				return yes, nil
			})
			res := runNative(t, chrome.Tab(t), srv, c, agent.WithPolicy(purchases), agent.WithConfirmer(confirm), agent.WithHumanTimeout(10*time.Second))
			if res.Code != agent.CodeSuccess {
				t.Fatalf("%s: %s", res.Code, res.Message)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 1 || !strings.Contains(asked[0], `button "Place order"`) {
				t.Fatalf("asked %q; want one question about button \"Place order\"", asked)
			}
			want := map[bool]int32{true: 1, false: 0}[yes]
			if got := c.orders.Load(); got != want {
				t.Errorf("%d orders, want %d; the model was told %q", got, want, res.Answer)
			}
			if yes && !strings.Contains(res.Answer, `Place order`) || !yes && !strings.Contains(res.Answer, agent.RefusedByPolicy) {
				t.Errorf("the model was told %q", res.Answer)
			}
			checkNativeRequests(t, srv)
		})
	}
}

// checkNativeRequests checks the wire: the toolset declared without a
// name, the member's tool_use sent back with its toolset_name, and its
// tool_result naming the toolset and holding a PNG of the viewport.
func checkNativeRequests(t *testing.T, srv *messagesServer) {
	t.Helper()
	reqs := srv.requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	tools, _ := json.Marshal(reqs[0].body["tools"])
	if !strings.Contains(string(tools), `{"type":"computer_toolset_20260801"}`) || strings.Contains(string(tools), `"name":"click"`) {
		t.Errorf("tools: %s", tools)
	}
	msgs, _ := json.Marshal(reqs[1].body["messages"])
	for _, w := range []string{`"name":"left_click"`, `"toolset_name":"computer","type":"tool_use"`, `"toolset_name":"computer","type":"tool_result"`, `"media_type":"image/png"`} {
		if !strings.Contains(strings.ReplaceAll(string(msgs), `"input":{"coordinate":[200,125]},`, ""), w) && !strings.Contains(string(msgs), w) {
			t.Errorf("the second request lacks %s", w)
		}
	}
}

// Under --read-only a click on the order button sends nothing, and the
// model is told the write was stopped.
func TestNativeClickReadOnly(t *testing.T) {
	t.Parallel()
	c := newCheckout(t)
	srv := newMessagesServer(t, scriptedClaude([]call{member("left_click", map[string]any{"coordinate": atOrder})}))
	res := runNative(t, chrome.Browser(t, browser.Options{ReadOnly: true}), srv, c)
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if c.orders.Load() != 0 || !strings.Contains(res.Answer, "read-only") {
		t.Errorf("%d orders; the model was told %q", c.orders.Load(), res.Answer)
	}
}

// A secret is typed after a coordinate click only into a field of its
// origin: the page's own field takes it, the other site's frame does not.
func TestNativeSecretOrigin(t *testing.T) {
	t.Parallel()
	c := newCheckout(t)
	srv := newMessagesServer(t, scriptedClaude(
		[]call{member("left_click", map[string]any{"coordinate": atCard}), member("type", map[string]any{"text": "<secret>card</secret>"})},
		[]call{member("left_click", map[string]any{"coordinate": atName}), member("type", map[string]any{"text": "<secret>card</secret>"})},
	))
	res := runNative(t, chrome.Tab(t), srv, c)
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	steps := res.Steps
	first := steps[0].Actions
	if len(first) != 2 || !first[1].Error || !strings.Contains(first[1].Outcome, "may only be typed on "+strings.TrimSuffix(c.url, "/")) ||
		!strings.Contains(first[1].Outcome, strings.TrimSuffix(c.frame, "/")) {
		t.Fatalf("typing into the frame: %+v", first)
	}
	if second := steps[1].Actions; len(second) != 2 || second[1].Error || !strings.Contains(second[1].Outcome, `typed 19 characters into textbox "Your name"`) {
		t.Errorf("typing into the page's field: %+v", second)
	}
	for _, r := range srv.requests() {
		raw, _ := json.Marshal(r.body)
		if strings.Contains(string(raw), "4111") {
			t.Fatal("the secret reached the model")
		}
	}
}

// A click on a point inside another site's frame is judged as that
// frame's site: a rule on localhost refuses it, and the record says so.
func TestNativeClickInFrame(t *testing.T) {
	t.Parallel()
	c := newCheckout(t)
	deny, err := policy.Parse("p.yaml", []byte("version: 1\nrules:\n  - when: {tool: mouse, site: localhost}\n    then: deny\n    reason: no payments in frames\n"))
	if err != nil {
		t.Fatal(err)
	}
	srv := newMessagesServer(t, scriptedClaude([]call{member("left_click", map[string]any{"coordinate": atPay})}))
	res := runNative(t, chrome.Tab(t), srv, c, agent.WithPolicy(deny))
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if c.pays.Load() != 0 || len(res.Policy) != 1 || !strings.HasPrefix(res.Policy[0].Site, "localhost:") || res.Policy[0].Allowed {
		t.Fatalf("%d payments; decisions %+v; told %q", c.pays.Load(), res.Policy, res.Answer)
	}
	if !strings.Contains(res.Answer, "no payments in frames") {
		t.Errorf("the model was told %q", res.Answer)
	}
}

// A member the toolset does not have, or one webagent does not carry out,
// is a failed call that says which actions there are; the run goes on.
func TestNativeUnknownMember(t *testing.T) {
	t.Parallel()
	c := newCheckout(t)
	srv := newMessagesServer(t, scriptedClaude(
		[]call{member("teleport", map[string]any{"coordinate": atOrder})},
		[]call{member("hold_key", map[string]any{"text": "shift", "duration": 1})},
	))
	start := time.Now()
	res := runNative(t, chrome.Tab(t), srv, c)
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	for i, name := range []string{"teleport", "hold_key"} {
		acts := res.Steps[i].Actions
		if len(acts) != 1 || !acts[0].Error || !strings.Contains(acts[0].Outcome, fmt.Sprintf("has no action %q; it has click, double_click", name)) {
			t.Errorf("step %d: %+v", i, acts)
		}
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %s", took)
	}
	_ = contract.NativeClick
}

// A scroll over another site's frame and a drag dropped on it are judged
// as that site: the drag at its drop point, though it starts on the page.
func TestNativeScrollAndDragOverFrame(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tool string
		do   call
		want string
	}{
		{"scroll", member("scroll", map[string]any{"coordinate": atCard, "scroll_direction": "down", "scroll_amount": 3}), "scroll"},
		{"drag", member("left_click_drag", map[string]any{"start_coordinate": atName, "coordinate": atCard}), "drag (its drop point)"},
	} {
		t.Run(c.tool, func(t *testing.T) {
			t.Parallel()
			page := newCheckout(t)
			deny, err := policy.Parse("p.yaml", []byte("version: 1\nrules:\n  - when: {tool: "+c.tool+", site: localhost}\n    then: deny\n    reason: not in the payment frame\n"))
			if err != nil {
				t.Fatal(err)
			}
			srv := newMessagesServer(t, scriptedClaude([]call{c.do}))
			res := runNative(t, chrome.Tab(t), srv, page, agent.WithPolicy(deny))
			if res.Code != agent.CodeSuccess {
				t.Fatalf("%s: %s", res.Code, res.Message)
			}
			if len(res.Policy) != 1 || res.Policy[0].Tool != c.tool || !strings.HasPrefix(res.Policy[0].Site, "localhost:") || res.Policy[0].Allowed {
				t.Fatalf("decisions %+v; told %q", res.Policy, res.Answer)
			}
			if !strings.Contains(res.Answer, "not in the payment frame") || !strings.Contains(res.Answer, c.want) {
				t.Errorf("the model was told %q", res.Answer)
			}
		})
	}
}
