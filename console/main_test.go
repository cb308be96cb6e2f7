package console_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/console"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/chrometest"
	"github.com/webagent/webagent/trace"
)

// chrome is the Chromium of this package's tests: the browser the agent
// drives and, in other tabs, the person's console page.
var chrome chrometest.Shared

func TestMain(m *testing.M) {
	// The live views' registry is the user's: the tests keep theirs in a
	// private folder of their own.
	rt, err := os.MkdirTemp("", "console-test-rt-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_RUNTIME_DIR", rt)
	code := chrome.Run(m)
	os.RemoveAll(rt)
	os.Exit(code)
}

// shop is a site of two pages: a link to the price list, and the list.
func shop(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Tea shop</title><body style="font:20px sans-serif;background:#fdf6e3"><h1>The tea shop</h1><p><a href="/prices">Open the price list</a></p></body>`)
		case "/prices":
			fmt.Fprint(w, `<title>Prices</title><body style="font:20px sans-serif;background:#e3f0fd"><h1>Price list</h1><p>Green tea: 4 EUR</p></body>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// shopModel opens the price list, then answers with the price.
func shopModel(t *testing.T) *modelserver.Server {
	t.Helper()
	m, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastUser(), "Green tea: 4 EUR") {
			return modelserver.Turn{Text: "The price list says green tea costs 4 EUR.",
				ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "4 EUR"})}}
		}
		ref, _ := modelserver.FindRef(req.LastUser(), "link", "Open the price list")
		return modelserver.Turn{Text: "I open the price list to find the price.",
			ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// recordRun runs the agent on the shop with a scripted model and records
// the run as a trace in dir.
func recordRun(t *testing.T, dir string) *agent.Result {
	t.Helper()
	site, model := shop(t), shopModel(t)
	m, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	b := chrome.Tab(t)
	task := agent.Task{URL: site.URL + "/", Instruction: "What does green tea cost?"}
	h, masker := trace.TaskHeader(task, trace.ModelInfo{Name: "scripted"})
	tw, err := trace.Create(dir, h, trace.Options{Masker: masker, Shots: b, Activity: b})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(b, m, agent.WithTracer(tw), agent.WithLimits(agent.Limits{IterationTimeout: time.Minute, TaskTimeout: 2 * time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	res := a.Run(context.Background(), task)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := tw.End(ctx, res); err != nil {
		t.Fatal(err)
	}
	if res.Code != agent.CodeSuccess {
		t.Fatalf("the recorded run: %s %s", res.Code, res.Message)
	}
	return res
}

// recordTakeover writes the trace of a run in which a person took over
// before its second iteration, as the loop records one (agent/control.go).
func recordTakeover(t *testing.T, dir string) {
	t.Helper()
	h, _ := trace.TaskHeader(agent.Task{URL: "https://bank.example/login", Instruction: "Sign in to the bank"}, trace.ModelInfo{Name: "scripted"})
	h.Started = time.Now().Add(-time.Hour)
	tw, err := trace.Create(dir, h, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tw.TraceStep(ctx, agent.Step{Iteration: 1, URL: "https://bank.example/login", Thought: "The bank asks for a code sent to the owner's phone.",
		Actions: []agent.ActionRecord{{Tool: "ask_human", Outcome: "the person will take over"}}})
	tw.TraceStep(ctx, agent.Step{Iteration: 2, URL: "https://bank.example/account",
		Actions: []agent.ActionRecord{{Tool: agent.ToolTakeover, Outcome: "A person had control of the browser for 12s and handed it back to you.", MS: 12000}}})
	tw.TraceStep(ctx, agent.Step{Iteration: 2, URL: "https://bank.example/account",
		Actions: []agent.ActionRecord{{Tool: "done", Outcome: "signed in"}}})
	res := &agent.Result{Status: agent.StatusSuccess, Code: agent.CodeSuccess, Message: "the task is done", Answer: "signed in",
		Iterations: 2, DurationMS: 15300}
	if err := tw.End(ctx, res); err != nil {
		t.Fatal(err)
	}
}

// serve starts a console for t.
func serve(t *testing.T, cfg console.Config) *console.Server {
	t.Helper()
	srv, err := console.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if err := srv.Close(ctx); err != nil {
			t.Errorf("closing the console: %v", err)
		}
	})
	return srv
}

// page opens url in a tab of the shared Chromium, as a person's browser
// would, and returns the tab's context; the tab closes when t ends.
func page(t *testing.T, url string) context.Context {
	t.Helper()
	actx, cancelA := remote.NewAllocator(context.Background(), chrome.URL(t))
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelA()
	})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1360, 900)); err != nil {
		t.Fatal(err)
	}
	rctx, rcancel := context.WithTimeout(ctx, 30*time.Second)
	defer rcancel()
	if err := chromedp.Do(rctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening the console: %v", err)
	}
	return ctx
}

// waitJS waits, within d, until the expression is true in the page.
func waitJS(t *testing.T, ctx context.Context, expr string, d time.Duration) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	js := fmt.Sprintf(`new Promise((ok) => { const f = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(f, 20); }; f(); })`, expr)
	if _, err := chromedp.Run(wctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("waiting in the console for %s: %v\n%s", expr, err, body)
	}
}

// eval runs expr in the page and returns its value.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ectx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// click clicks the page's element, as a person's mouse.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s in the console: %v", sel, err)
	}
}

// key presses a key in the page.
func key(t *testing.T, ctx context.Context, k string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.KeyEvent(k)); err != nil {
		t.Fatal(err)
	}
}

// snapshot saves a screenshot of the page as name.png in
// $WEBAGENT_CONSOLE_SHOTS, when set (to look at the page).
func snapshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	out := os.Getenv("WEBAGENT_CONSOLE_SHOTS")
	if out == "" {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(cctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
