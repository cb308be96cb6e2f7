package gemini_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm/gemini"
	"github.com/webagent/webagent/testfixture/chrometest"
)

// Gemini's computer use through the Gemini API, carried out by a real
// Chromium: the predefined functions on the 1000x1000 grid, a
// safety_decision asked of a person and acknowledged, functionResponses
// with the url and the screenshot.

var chrome chrometest.Shared

// TestMain runs the tests, then closes the shared Chromium and finds no
// goroutine of the client or its SDK left running.
func TestMain(m *testing.M) {
	code := chrome.Run(m)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutine leak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// shop is a page with a "Place order" button at (100, 100)-(300, 150) and
// a name field at (100, 200)-(300, 230), in CSS pixels.
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
<input aria-label="Your name" value="old" style="left:100px;top:200px;width:200px;height:30px">`)
	}))
	t.Cleanup(s.Close)
	return s.URL + "/", orders
}

// onGrid is a pixel point of the viewport on the model's 1000x1000 grid.
func onGrid(b *browser.Browser, x, y float64) (gx, gy float64) {
	w, h := b.Viewport()
	return math.Round(x * 1000 / float64(w)), math.Round(y * 1000 / float64(h))
}

// computerModel makes the calls, then calls done with the outputs of the
// function responses it was sent.
func computerModel(calls ...call) func(req *apiRequest, n int) turn {
	return func(req *apiRequest, n int) turn {
		if n == 0 {
			return turn{chunks: reply{calls: calls}.chunks()}
		}
		var said []string
		for _, p := range req.partsOf("functionResponse") {
			fr := p["functionResponse"].(map[string]any)
			resp := fr["response"].(map[string]any)
			text, ok := resp["output"]
			if !ok {
				text = resp["error"]
			}
			said = append(said, fmt.Sprint(fr["name"], ": ", text))
		}
		return turn{chunks: reply{calls: []call{{name: "done", args: map[string]any{"answer": strings.Join(said, "\n")}}}}.chunks()}
	}
}

func runComputer(t *testing.T, b *browser.Browser, srv *apiServer, url string, opts ...agent.Option) *agent.Result {
	t.Helper()
	client, err := gemini.New(gemini.Config{BaseURL: srv.baseURL(), APIKey: testKey, Model: "gemini-2.5-computer-use-preview-10-2025", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	opts = append([]agent.Option{agent.WithNativeTools(contract.NativeComputer), agent.WithIterationTimeout(30 * time.Second), agent.WithMaxIterations(4)}, opts...)
	a, err := agent.New(b, client, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return a.Run(ctx, agent.Task{URL: url, Instruction: "Order the mug."})
}

// A safety_decision is the person's question: a yes runs the click and
// acknowledges it; a no runs nothing, acknowledges nothing, and the model
// is told. The function response names the page's address and holds the
// screenshot.
func TestComputerSafetyDecision(t *testing.T) {
	t.Parallel()
	for _, yes := range []bool{true, false} {
		t.Run(fmt.Sprintf("yes=%v", yes), func(t *testing.T) {
			t.Parallel()
			b := chrome.Tab(t)
			url, orders := shop(t)
			x, y := onGrid(b, 200, 125)
			srv := startAPI(t, computerModel(call{name: "click_at", args: map[string]any{"x": x, "y": y,
				"safety_decision": map[string]any{"decision": "require_confirmation", "explanation": "This places an order that costs money."}}}))
			var mu sync.Mutex
			var asked []string
			res := runComputer(t, b, srv, url, agent.WithHumanTimeout(10*time.Second),
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
			if len(asked) != 1 || !strings.Contains(asked[0], "This places an order that costs money") || !strings.Contains(asked[0], "click_at at (200, 125)") {
				t.Fatalf("asked %q", asked)
			}
			reqs := srv.requests()
			if tools := jsonOf(reqs[0].Tools); !strings.Contains(tools, `"computerUse":{"environment":"ENVIRONMENT_BROWSER"}`) {
				t.Errorf("tools %s", tools)
			}
			frs := reqs[1].partsOf("functionResponse")
			if len(frs) != 1 {
				t.Fatalf("function responses: %v", frs)
			}
			fr := frs[0]["functionResponse"].(map[string]any)
			resp := fr["response"].(map[string]any)
			wantURL := map[bool]string{true: strings.TrimSuffix(url, "/") + "/order", false: url}[yes]
			if fr["name"] != "click_at" || resp["url"] != wantURL {
				t.Errorf("response %v, want name click_at and url %s", resp, wantURL)
			}
			if got := resp["safety_acknowledgement"]; (got == "true") != yes {
				t.Errorf("safety_acknowledgement %v (yes=%v)", got, yes)
			}
			parts, _ := fr["parts"].([]any)
			if len(parts) != 1 || !isPNG(parts[0]) {
				t.Errorf("the response holds no screenshot: %.200s", jsonOf(fr["parts"]))
			}
			want := map[bool]int32{true: 1, false: 0}[yes]
			if orders.Load() != want || yes && !strings.Contains(res.Answer, `button "Place order"`) || !yes && !strings.Contains(res.Answer, agent.RefusedByPolicy) {
				t.Errorf("%d orders (want %d); the model was told %q", orders.Load(), want, res.Answer)
			}
		})
	}
}

func isPNG(part any) bool {
	m, _ := part.(map[string]any)
	in, _ := m["inlineData"].(map[string]any)
	data, err := base64.StdEncoding.DecodeString(fmt.Sprint(in["data"]))
	return in["mimeType"] == "image/png" && err == nil && strings.HasPrefix(string(data), "\x89PNG")
}

// type_text_at clicks the field, clears it, types and (press_enter
// false) presses nothing; hover_at and scroll_document run beside it,
// each call answered by its own function response.
func TestComputerTypeTextAt(t *testing.T) {
	t.Parallel()
	b := chrome.Tab(t)
	url, orders := shop(t)
	x, y := onGrid(b, 200, 215)
	bx, by := onGrid(b, 200, 125)
	srv := startAPI(t, computerModel(
		call{name: "type_text_at", args: map[string]any{"x": x, "y": y, "text": "Ada", "press_enter": false}},
		call{name: "hover_at", args: map[string]any{"x": bx, "y": by}},
		call{name: "scroll_document", args: map[string]any{"direction": "down"}}))
	res := runComputer(t, b, srv, url)
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if orders.Load() != 0 {
		t.Errorf("%d orders", orders.Load())
	}
	calls := res.Steps[0].Actions[0].Calls
	if len(calls) < 4 {
		t.Fatalf("type_text_at's steps: %+v", calls)
	}
	for i, w := range []string{`on textbox "Your name"`, "pressed Control+a", "pressed Delete", `typed "Ada" into textbox "Your name"`} {
		if !strings.Contains(calls[i].Outcome, w) {
			t.Errorf("step %d: %q lacks %q", i+1, calls[i].Outcome, w)
		}
	}
	for _, w := range []string{"type_text_at: ", "hover_at: ", `button "Place order"`, "scroll_document: "} {
		if !strings.Contains(res.Answer, w) {
			t.Errorf("the model was told %q, which lacks %q", res.Answer, w)
		}
	}
	if v, err := b.Eval(context.Background(), `document.querySelector("input").value`); err != nil || v != "Ada" {
		t.Errorf("the field holds %v (%v), want Ada", v, err)
	}
}

// TestComputerFunctions reads each predefined function as the actions of
// the display's pixels.
func TestComputerFunctions(t *testing.T) {
	t.Parallel()
	srv := startAPI(t, func(*apiRequest, int) turn {
		return turn{chunks: reply{calls: []call{
			{name: "click_at", args: map[string]any{"x": 500, "y": 250}},
			{name: "drag_and_drop", args: map[string]any{"x": 0, "y": 0, "destination_x": 999, "destination_y": 999}},
			{name: "scroll_at", args: map[string]any{"x": 500, "y": 500, "direction": "up", "magnitude": 500}},
			{name: "key_combination", args: map[string]any{"keys": "control+shift+t"}},
			{name: "go_back"}, {name: "navigate", args: map[string]any{"url": "https://example.org/"}},
			{name: "search"}, {name: "wait_5_seconds"}, {name: "open_web_browser"}, {name: "done", args: map[string]any{"answer": "x"}},
		}}.chunks()}
	})
	c := newClient(t, srv.baseURL(), nil)
	got, err := c.Complete(context.Background(), contract.Request{Messages: simpleRequest.Messages,
		Tools:  []contract.ToolDef{{Name: "done", Parameters: json.RawMessage(`{"type":"object"}`)}},
		Native: &contract.NativeTool{Kind: contract.NativeComputer, Width: 1280, Height: 800}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`[{"kind":"click","vendor":"click_at","at":{"X":640,"Y":200}}]`,
		`[{"kind":"drag","vendor":"drag_and_drop","path":[{"X":0,"Y":0},{"X":1279,"Y":799}]}]`,
		`[{"kind":"scroll","vendor":"scroll_at","at":{"X":640,"Y":400},"scroll_y":-400}]`,
		`[{"kind":"key","vendor":"key_combination","key":"Control+Shift+t"}]`,
		`[{"kind":"navigate","vendor":"go_back","url":"back"}]`,
		`[{"kind":"navigate","vendor":"navigate","url":"https://example.org/"}]`,
		`[{"kind":"navigate","vendor":"search","url":"https://www.google.com/"}]`,
		`[{"kind":"wait","vendor":"wait_5_seconds","ms":5000}]`,
		`[{"kind":"screenshot","vendor":"open_web_browser"}]`,
		`null`,
	}
	if len(got.ToolCalls) != len(want) {
		t.Fatalf("%d calls", len(got.ToolCalls))
	}
	for i, tc := range got.ToolCalls {
		if g := jsonOf(tc.Native); g != want[i] {
			t.Errorf("%s: %s, want %s", tc.Name, g, want[i])
		}
		if native := tc.Toolset == "computer"; native != (tc.Name != "done") {
			t.Errorf("%s: toolset %q", tc.Name, tc.Toolset)
		}
	}
}

// TestOlderScreenshotsDropped: as Google's reference agent does, only the
// latest three computer use results go back with their screenshot; each
// keeps its url.
func TestOlderScreenshotsDropped(t *testing.T) {
	t.Parallel()
	srv := startAPI(t, func(*apiRequest, int) turn { return turn{chunks: reply{text: "ok"}.chunks()} })
	msgs := append([]contract.Message(nil), simpleRequest.Messages...)
	for i := range 4 {
		id := fmt.Sprintf("c%d", i)
		x, _ := json.Marshal(map[string]string{"gemini_name": "click_at"})
		msgs = append(msgs, contract.Message{Role: contract.RoleAssistant, ToolCalls: []contract.ToolCall{
			{ID: id, Name: "click_at", Arguments: `{"x":1,"y":2}`, Toolset: "computer", Extra: x}}},
			contract.Message{Role: contract.RoleTool, ToolCallID: id, Content: "clicked", Images: [][]byte{png1x1},
				Browser: &contract.BrowserState{Tabs: []contract.TabState{{ID: "1", URL: "http://x/" + id, Active: true}}}})
	}
	_, err := newClient(t, srv.baseURL(), nil).Complete(context.Background(), contract.Request{Messages: msgs,
		Native: &contract.NativeTool{Kind: contract.NativeComputer, Width: 1280, Height: 800}})
	if err != nil {
		t.Fatal(err)
	}
	frs := srv.requests()[0].partsOf("functionResponse")
	if len(frs) != 4 {
		t.Fatalf("%d function responses", len(frs))
	}
	for i, p := range frs {
		fr := p["functionResponse"].(map[string]any)
		parts, _ := fr["parts"].([]any)
		if (len(parts) == 1) != (i > 0) || fr["response"].(map[string]any)["url"] != fmt.Sprintf("http://x/c%d", i) {
			t.Errorf("response %d: %d parts, %v", i, len(parts), fr["response"])
		}
	}
}
