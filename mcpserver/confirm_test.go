package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestPolicyConfirmElicitation runs run_task on a checkout page under
// --confirm purchases' rules: the click on "Place order" is asked to the
// client's user through elicitation (before 2026-07-28) or as an input
// request of the call's result (from 2026-07-28); an accept places the
// order, a decline does not and the model is told; a client that cannot
// elicit gets a no.
func TestPolicyConfirmElicitation(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	for _, c := range []struct {
		name     string
		action   string // the client's answer; "" for a client without elicitation
		protocol string // the client's protocol version
		orders   int32
	}{
		{"accept", "accept", "2025-11-25", 1},
		{"decline", "decline", "2025-11-25", 0},
		{"no elicitation", "", "2025-11-25", 0},
		// From 2026-07-28 (the SDK's latest, "") a server may not elicit
		// inside a call (SEP-2322): the question is an input request of
		// the call's result, and the SDK's client retries with the answer.
		{"multi round-trip accept", "accept", "", 1},
		{"multi round-trip decline", "decline", "", 0},
		{"multi round-trip no elicitation", "", "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			shop, orders := checkout(t)
			model := orderingServer(t)
			client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
			if err != nil {
				t.Fatal(err)
			}
			allowed, _ := contract.ParseDomainPatterns("127.0.0.1")
			ask, _ := policy.Presets("purchases")
			s := mcpserver.New(mcpserver.Config{
				Policy: contract.NavigationPolicy{Allowed: allowed}, Model: client,
				Limits:  agent.Limits{OperationTimeout: backstop, IterationTimeout: 20 * time.Second, HumanTimeout: 5 * time.Second},
				Actions: ask,
			})
			t.Cleanup(func() { _ = s.Close() })

			var asked atomic.Value
			opts := &mcp.ClientOptions{}
			if c.action != "" {
				opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Store(req.Params.Message)
					return &mcp.ElicitResult{Action: c.action}, nil
				}
			}
			cs, served := stdioVersion(t, s, opts, c.protocol)
			res, out := call(t, cs, "run_task", map[string]any{"url": shop, "task": "order the mug"})
			_ = cs.Close()
			<-served
			if res.IsError {
				t.Fatalf("run_task: %s", out)
			}
			if n := orders.Load(); n != c.orders {
				t.Errorf("the shop got %d orders, want %d", n, c.orders)
			}
			if q, _ := asked.Load().(string); c.orders == 1 && !strings.Contains(q, `click button "Place order" on 127.0.0.1`) {
				t.Errorf("the client's user was asked %q", q)
			}
			told := strings.Contains(lastToolResults(model), "refused by the user's policy")
			if told != (c.orders == 0) {
				t.Errorf("the model told of a refusal: %v; run_task said %s", told, out)
			}
			if !strings.Contains(out, `"policy":[{`) {
				t.Errorf("the result has no policy decisions: %s", out)
			}
		})
	}
}

// checkout serves a checkout page whose "Place order" posts an order;
// orders counts the orders placed.
func checkout(t *testing.T) (url string, orders *atomic.Int32) {
	t.Helper()
	orders = new(atomic.Int32)
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.Method == http.MethodPost && r.URL.Path == "/order" {
			orders.Add(1)
			fmt.Fprint(w, `<title>Thanks</title><h1>Order placed</h1>`)
			return
		}
		fmt.Fprint(w, `<title>Checkout</title><form method="post" action="/order"><button>Place order</button></form>`)
	}))
	t.Cleanup(shop.Close)
	return shop.URL + "/", orders
}

// orderingServer is a scripted model that clicks "Place order", then
// calls done with the click's result.
func orderingServer(t *testing.T) *modelserver.Server {
	t.Helper()
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if res := req.LastTool(); res != "" {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": res})}}
		}
		ref, ok := modelserver.FindRef(req.LastUser(), "button", "Place order")
		if !ok {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]string{"reason": "no button"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

func lastToolResults(srv *modelserver.Server) string {
	var b strings.Builder
	for _, r := range srv.Requests() {
		b.WriteString(r.Req.LastTool() + "\n")
	}
	return b.String()
}

// stdioVersion is stdio with the client asking for a protocol version ("":
// the SDK's latest).
func stdioVersion(t *testing.T, s *mcpserver.Server, opts *mcp.ClientOptions, version string) (*mcp.ClientSession, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- s.ServeIO(context.Background(), inR, outW)
		_ = outW.Close()
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx(t), &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	return cs, served
}
