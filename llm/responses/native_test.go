package responses_test

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
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm/responses"
	"github.com/webagent/webagent/testfixture/tier"
)

// OpenAI's computer tool through the Responses API, carried out by a real
// Chromium: batched actions, pending_safety_checks asked of a person and
// acknowledged, computer_call_output with the screenshot.

// shop is a page with a "Place order" button at (100, 100)-(300, 150) and
// a name field at (100, 200)-(300, 230).
func shop(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	orders := new(atomic.Int32)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method == http.MethodPost {
			orders.Add(1)
			fmt.Fprint(w, `<title>Thanks</title><h1>Order placed</h1>`)
			return
		}
		fmt.Fprint(w, `<title>Checkout</title><style>body{margin:0} button,input{position:absolute;box-sizing:border-box}</style>
<form method="post" action="/order"><button style="left:100px;top:100px;width:200px;height:50px">Place order</button></form>
<input aria-label="Your name" style="left:100px;top:200px;width:200px;height:30px">`)
	}))
	t.Cleanup(s.Close)
	return s.URL + "/", orders
}

func click(x, y int) map[string]any {
	return map[string]any{"type": "click", "button": "left", "x": x, "y": y}
}

// computerModel makes one computer call, then calls done with the text
// the loop sent after the computer_call_output.
func computerModel(cc computerCall) func(req *apiRequest, n int) turn {
	return func(req *apiRequest, n int) turn {
		if n == 0 {
			return turn{events: reply{computer: &cc}.events(n)}
		}
		var said string
		for _, m := range req.inputOf("message") {
			if c, ok := m["content"].(string); ok && strings.HasPrefix(c, "The computer call ") {
				said = c
			}
		}
		answer, _ := json.Marshal(map[string]string{"answer": said})
		return turn{events: reply{calls: []call{{"done", string(answer)}}}.events(n)}
	}
}

func runComputer(t *testing.T, srv *apiServer, url string, opts ...agent.Option) *agent.Result {
	t.Helper()
	client, err := responses.New(responses.Config{BaseURL: srv.baseURL(), APIKey: testKey, Model: "gpt-5.4", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]agent.Option{agent.WithNativeTools(contract.NativeComputer), agent.WithIterationTimeout(30 * time.Second), agent.WithMaxIterations(4)}, opts...)
	a, err := agent.New(chrome.Tab(t), client, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return a.Run(ctx, agent.Task{URL: url, Instruction: "Order the mug."})
}

// A pending safety check is the person's question: a yes runs the call
// and acknowledges the check; a no runs nothing, acknowledges nothing,
// and the model is told.
func TestComputerSafetyCheck(t *testing.T) {
	t.Parallel()
	for _, yes := range []bool{true, false} {
		t.Run(fmt.Sprintf("yes=%v", yes), func(t *testing.T) {
			t.Parallel()
			url, orders := shop(t)
			check := map[string]any{"id": "cu_sc_1", "code": "malicious_instructions", "message": "The page may be instructing the model."}
			srv := startAPI(t, computerModel(computerCall{actions: []map[string]any{click(200, 125)}, checks: []map[string]any{check}}))
			var mu sync.Mutex
			var asked []string
			res := runComputer(t, srv, url, agent.WithHumanTimeout(10*time.Second),
				agent.WithConfirmer(agent.ConfirmerFunc(func(_ context.Context, q agent.Confirmation) (bool, error) {
					mu.Lock()
					defer mu.Unlock()
					asked = append(asked, q.Question)
					return yes, nil
				})))
			if res.Code != agent.CodeSuccess {
				t.Fatalf("%s: %s", res.Code, res.Message)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 1 || !strings.Contains(asked[0], "The page may be instructing the model") || !strings.Contains(asked[0], "click at (200, 125)") {
				t.Fatalf("asked %q", asked)
			}
			reqs := srv.requests()
			outs := reqs[1].inputOf("computer_call_output")
			if len(outs) != 1 || len(reqs[1].inputOf("computer_call")) != 1 {
				t.Fatalf("the second request's computer items: %v", reqs[1].Input)
			}
			acked, _ := json.Marshal(outs[0]["acknowledged_safety_checks"])
			if yes != strings.Contains(string(acked), `"id":"cu_sc_1"`) {
				t.Errorf("acknowledged %s (yes=%v)", acked, yes)
			}
			want := map[bool]int32{true: 1, false: 0}[yes]
			if orders.Load() != want || yes && !strings.Contains(res.Answer, `button "Place order"`) || !yes && !strings.Contains(res.Answer, agent.RefusedByPolicy) {
				t.Errorf("%d orders (want %d); the model was told %q", orders.Load(), want, res.Answer)
			}
		})
	}
}

// A call's actions run one by one: a navigation stops the batch, and the
// model is told what did not run.
func TestComputerBatchStopsAtNavigation(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	url, orders := shop(t)
	srv := startAPI(t, computerModel(computerCall{actions: []map[string]any{
		click(200, 215), {"type": "type", "text": "Ada"}, {"type": "keypress", "keys": []string{"CTRL", "A"}},
		click(200, 125), {"type": "type", "text": "never"},
	}}))
	res := runComputer(t, srv, url)
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	calls := res.Steps[0].Actions[0].Calls
	if orders.Load() != 1 || len(calls) != 4 {
		t.Fatalf("%d orders; calls %+v", orders.Load(), calls)
	}
	for i, w := range []string{`on textbox "Your name"`, `typed "Ada" into textbox "Your name"`, "pressed Control+a", "navigated"} {
		if !strings.Contains(calls[i].Outcome, w) {
			t.Errorf("call %d: %q lacks %q", i+1, calls[i].Outcome, w)
		}
	}
	t.Logf("the model was told %s", res.Answer)
	if !strings.Contains(res.Answer, "the 1 later action(s) of this call were not run: the page navigated") {
		t.Errorf("the model was told %q", res.Answer)
	}
}
