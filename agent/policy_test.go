package agent_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/policy"
)

// checkoutSite serves a checkout page whose "Place order" button posts
// the order form; orders counts the orders placed.
func checkoutSite(t *testing.T) (url string, orders *atomic.Int32) {
	t.Helper()
	orders = new(atomic.Int32)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method == http.MethodPost && r.URL.Path == "/order" {
			orders.Add(1)
			fmt.Fprint(w, `<title>Thanks</title><h1>Order placed</h1>`)
			return
		}
		fmt.Fprint(w, `<title>Checkout</title><h1>Your cart</h1><p>1 blue mug, 12 EUR</p>
<form method="post" action="/order"><input type="hidden" name="item" value="mug"><button>Place order</button></form>`)
	}))
	t.Cleanup(s.Close)
	return s.URL + "/", orders
}

// orderingModel clicks "Place order", then calls done with the click's
// result as its answer.
func orderingModel(t *testing.T) (contract.Model, *modelserver.Server) {
	return newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if res := req.LastTool(); res != "" {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": res})}}
		}
		ref, ok := modelserver.FindRef(req.LastUser(), "button", "Place order")
		if !ok {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]string{"reason": "no Place order button"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
	}))
}

// toolResults are the tool results the model server received.
func toolResults(srv *modelserver.Server) string {
	var b strings.Builder
	for _, r := range srv.Requests() {
		b.WriteString(r.Req.LastTool() + "\n")
	}
	return b.String()
}

func purchases(t *testing.T) *policy.Policy {
	p, err := policy.Presets("purchases")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPolicyConfirm runs the checkout with --confirm purchases' rules: the
// order is placed on a yes only; a no or no answer within the human timeout
// leaves it unplaced, and the model is told.
func TestPolicyConfirm(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		answer string // yes, no, or silence
		orders int32
	}{{"yes", 1}, {"no", 0}, {"silence", 0}} {
		t.Run(c.answer, func(t *testing.T) {
			t.Parallel()
			br := tab(t)
			url, orders := checkoutSite(t)
			model, srv := orderingModel(t)
			var mu sync.Mutex
			var asked []agent.Confirmation
			cf := agent.ConfirmerFunc(func(ctx context.Context, q agent.Confirmation) (bool, error) {
				mu.Lock()
				asked = append(asked, q)
				mu.Unlock()
				if c.answer == "silence" {
					<-ctx.Done()
					return false, ctx.Err()
				}
				return agent.IsYes(c.answer), nil
			})
			a := mustAgent(t, br, model, agent.WithPolicy(purchases(t)), agent.WithConfirmer(cf),
				agent.WithHumanTimeout(500*time.Millisecond), agent.WithIterationTimeout(30*time.Second))
			t0 := time.Now()
			res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "order the mug"})
			if res.Code != agent.CodeSuccess {
				t.Fatalf("%s: %s; steps %+v", res.Code, res.Message, res.Steps)
			}
			if n := orders.Load(); n != c.orders {
				t.Errorf("the site got %d orders, want %d", n, c.orders)
			}
			mu.Lock()
			defer mu.Unlock()
			host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
			want := fmt.Sprintf(`click button "Place order" on %s (form POST %sorder)`, host, url)
			if len(asked) != 1 || !strings.HasPrefix(asked[0].Question, want) || !strings.HasSuffix(asked[0].Question, "— allow? yes/no") {
				t.Fatalf("asked %+v, want one question starting %q", asked, want)
			}
			if len(res.Policy) != 1 || res.Policy[0].Decision != "confirm" || res.Policy[0].Allowed != (c.orders == 1) || res.Policy[0].Rule != "--confirm purchases" {
				t.Errorf("Result.Policy %+v", res.Policy)
			}
			if rec := res.Steps[0].Actions[0]; rec.Policy == nil || rec.Policy.Target != `button "Place order"` {
				t.Errorf("the step's record %+v", rec)
			}
			told := strings.Contains(toolResults(srv), "refused by the user's policy")
			if told == (c.orders == 1) {
				t.Errorf("the model was told of a refusal: %v; results:\n%s", told, toolResults(srv))
			}
			if c.answer == "silence" {
				if !strings.Contains(res.Policy[0].Answer, "no answer within 500ms") {
					t.Errorf("answer recorded: %q", res.Policy[0].Answer)
				}
				if d := time.Since(t0); d > 15*time.Second {
					t.Errorf("the run took %s", d)
				}
			}
		})
	}
}

// TestPolicyDenyAndFallbacks: a file's deny rule refuses without asking;
// without a Confirmer the Human is asked; without either, confirm is a no.
func TestPolicyDenyAndFallbacks(t *testing.T) {
	t.Parallel()
	deny, err := policy.Parse("policy.yaml", []byte("version: 1\nrules:\n  - when: {form_method: post, form_action: \"*/order\"}\n    then: deny\n    reason: no orders today\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		opts   []agent.Option
		orders int32
		answer string
	}{
		{"deny", []agent.Option{agent.WithPolicy(policy.Join(deny, purchases(t)))}, 0, ""},
		{"human yes", []agent.Option{agent.WithPolicy(purchases(t)), agent.WithHuman(agent.HumanFunc(func(context.Context, string) (string, error) { return "Y", nil }), time.Second)}, 1, "yes"},
		{"human other", []agent.Option{agent.WithPolicy(purchases(t)), agent.WithHuman(agent.HumanFunc(func(context.Context, string) (string, error) { return "yes please", nil }), time.Second)}, 0, "no"},
		{"no one", []agent.Option{agent.WithPolicy(purchases(t))}, 0, "no: no one to ask"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			br := tab(t)
			url, orders := checkoutSite(t)
			model, srv := orderingModel(t)
			a := mustAgent(t, br, model, c.opts...)
			res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "order the mug"})
			if res.Code != agent.CodeSuccess || orders.Load() != c.orders {
				t.Fatalf("%s: %s, %d orders (want %d)", res.Code, res.Message, orders.Load(), c.orders)
			}
			if len(res.Policy) != 1 || !strings.HasPrefix(res.Policy[0].Answer, c.answer) {
				t.Errorf("Result.Policy %+v, want the answer %q", res.Policy, c.answer)
			}
			if c.name == "deny" && !strings.Contains(toolResults(srv), `refused by the user's policy (policy.yaml:3): no orders today`) {
				t.Errorf("the model was not told why:\n%s", toolResults(srv))
			}
		})
	}
}
