package agent_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/crash"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// The fault matrix of issue 4: one row per fault, with real Chromium and the
// project's model server. Each row states the code the task ends with (or
// SUCCESS when the agent recovers and the task goes on), and the bound its
// elapsed time is checked against: at least min (the bound that had to
// fire) and at most max.
//
// Budgets are short: iteration timeout 2 s (3 s for the rows whose
// iteration holds an abandoned operation and a recovery), operation
// backstop 1 s.

const (
	iterBudget = 2 * time.Second
	opBudget   = time.Second
)

// taskStart is when the row's task started (after its own browser and
// servers were set up); rows run one after another.
var taskStart time.Time

// runTask runs the task on b and notes when it started. The start page is
// opened once before, so that the row's time is the agent's, not a first
// page load in a busy browser.
func runTask(b contract.Browser, a *agent.Agent, ctx context.Context, task agent.Task) *agent.Result {
	if task.URL != "" {
		wctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, _ = b.Do(wctx, contract.Action{Name: contract.ActGoto, URL: task.URL})
		cancel()
	}
	taskStart = time.Now()
	return a.Run(ctx, task)
}

type faultRow struct {
	name     string
	code     agent.Code
	min, max time.Duration
	// run runs the task; check looks at what the model was told.
	run   func(t *testing.T) *agent.Result
	check func(t *testing.T, res *agent.Result)
}

// told reports whether any request the model server saw has a message
// containing s.
func told(srv *modelserver.Server, s string) bool {
	for _, rec := range srv.Requests() {
		for _, m := range rec.Req.Messages {
			if strings.Contains(m.Content, s) {
				return true
			}
		}
	}
	return false
}

// seen reports whether the request's messages contain s.
func seen(req *modelserver.ChatRequest, s string) bool {
	for _, m := range req.Messages {
		if strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// serverBrowser starts a Chromium and attaches a Browser to it, so that the
// test can reach the tab through the browser's DevTools address.
func serverBrowser(t *testing.T) (*browser.Server, *browser.Browser) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	chrome, err := browser.StartServer(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = chrome.Close() })
	b, err := browser.Launch(ctx, browser.Options{CDPURL: chrome.URL, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return chrome, b
}

// ownBrowser launches a Chromium for one row.
func ownBrowser(t *testing.T) *browser.Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return b
}

// hangServer serves / with html and never answers /hang.
func hangServer(t *testing.T, html string) string {
	t.Helper()
	hang := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, html)
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(hang) })
	return s.URL
}

func modelTimeoutRow(name string, fault modelserver.Fault) faultRow {
	return faultRow{
		name: name, code: agent.CodeIterationTimeout, min: iterBudget, max: iterBudget + 700*time.Millisecond,
		run: func(t *testing.T) *agent.Result {
			model, _ := newModel(t, modelserver.Script(modelserver.Turn{Fault: fault, Every: 100 * time.Millisecond}),
				func(c *llm.Config) { c.Inactivity = time.Minute })
			a := mustAgent(t, shared, model, agent.WithIterationTimeout(iterBudget))
			return runTask(shared, a, context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "press the button"})
		},
		check: func(t *testing.T, res *agent.Result) {
			if !strings.Contains(res.Message, "waiting for the model") {
				t.Errorf("message %q does not say where it hung", res.Message)
			}
		},
	}
}

// TestFaultMatrix runs the rows of the fault matrix, one after another on
// the package's shared tab (or a browser of the row's own). It is serial
// (no t.Parallel), as its rows are: their bounds leave a few hundred
// milliseconds, which parallel tests' load would take.
func TestFaultMatrix(t *testing.T) {
	tier.Slow(t)
	rows := []faultRow{
		modelTimeoutRow("stalled stream", modelserver.StallMidStream),
		modelTimeoutRow("no headers", modelserver.NoHeaders),
		modelTimeoutRow("drip", modelserver.Drip),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				name: "429 storm", code: agent.CodeLLMError, max: 2 * time.Second,
				run: func(t *testing.T) *agent.Result {
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
						return modelserver.Turn{Fault: modelserver.RateLimited}
					}))
					return runTask(shared, mustAgent(t, shared, model, agent.WithIterationTimeout(iterBudget)),
						context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !strings.Contains(res.Message, "rate limit") {
						t.Errorf("message %q does not carry the provider's message", res.Message)
					}
					if n := len(srv.Requests()); n < 2 {
						t.Errorf("%d requests: not retried", n)
					}
				},
			}
		}(),
		{
			name: "401", code: agent.CodeLLMError, max: 2 * time.Second,
			run: func(t *testing.T) *agent.Result {
				model, _ := newModel(t, modelserver.Script(modelserver.Turn{Fault: modelserver.Unauthorized}))
				return runTask(shared, mustAgent(t, shared, model), context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "x"})
			},
		},
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				name: "malformed stream", code: agent.CodeSuccess, max: 2 * time.Second,
				run: func(t *testing.T) *agent.Result {
					var model *llm.Client
					model, srv = newModel(t, modelserver.Script(modelserver.Turn{Fault: modelserver.Malformed}, done("ok")))
					return runTask(shared, mustAgent(t, shared, model), context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, "could not be read") {
						t.Error("the model was not told its reply could not be read")
					}
				},
			}
		}(),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				name: "unknown tool", code: agent.CodeSuccess, max: 2 * time.Second,
				run: func(t *testing.T) *agent.Result {
					var model *llm.Client
					model, srv = newModel(t, modelserver.Script(modelserver.Turn{ToolCalls: []modelserver.Call{{Name: "fly", Args: `{}`}}}, done("ok")))
					return runTask(shared, mustAgent(t, shared, model), context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, `unknown tool "fly"`) || !res.Steps[0].Actions[0].Error {
						t.Error("the unknown tool was not a tool error")
					}
				},
			}
		}(),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				name: "bad arguments", code: agent.CodeSuccess, max: 2 * time.Second,
				run: func(t *testing.T) *agent.Result {
					var model *llm.Client
					model, srv = newModel(t, modelserver.Script(
						modelserver.Turn{ToolCalls: []modelserver.Call{{Name: "click", Args: `{"ref": `}}},
						modelserver.Turn{ToolCalls: []modelserver.Call{{Name: "scroll", Args: `{"direction": "sideways"}`}}},
						done("ok")))
					return runTask(shared, mustAgent(t, shared, model), context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, "not a valid JSON object") {
						t.Error("the model was not told its arguments were not JSON")
					}
					if !res.Steps[1].Actions[0].Error {
						t.Error("an argument outside the schema was not an error")
					}
				},
			}
		}(),
		{
			name: "no tool call twice", code: agent.CodeAgentFailed, max: 2 * time.Second,
			run: func(t *testing.T) *agent.Result {
				model, _ := newModel(t, modelserver.Script(modelserver.Turn{Text: "hmm"}, modelserver.Turn{Text: "still thinking"}))
				return runTask(shared, mustAgent(t, shared, model), context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "x"})
			},
		},
		{
			name: "repeated action", code: agent.CodeAgentStuck, max: 3 * time.Second,
			run: func(t *testing.T) *agent.Result {
				url := page(t, `<!doctype html><title>Inert</title><button>Does nothing</button>`)
				model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
					ref, _ := modelserver.FindRef(req.LastUser(), "button", "Does nothing")
					return call("click", map[string]any{"ref": ref})
				}))
				return runTask(shared, mustAgent(t, shared, model), context.Background(), agent.Task{URL: url, Instruction: "x"})
			},
		},
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				// The click's own input events hang on the frozen
				// renderer: the backstop abandons it, Recover
				// terminates the script, the task goes on.
				name: "frozen page by click", code: agent.CodeSuccess, min: opBudget, max: opBudget + 3*time.Second,
				run: func(t *testing.T) *agent.Result {
					url := page(t, `<!doctype html><title>Frozen</title><p>alive</p><button onclick="for (;;) {}">Freeze</button>`)
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
						if strings.Contains(req.LastTool(), "OPERATION_TIMEOUT") {
							return call("scroll", map[string]any{"direction": "down"})
						}
						if strings.Contains(req.LastTool(), "scrolled") || strings.Contains(req.LastTool(), "could not scroll") {
							return done("recovered")
						}
						ref, _ := modelserver.FindRef(req.LastUser(), "button", "Freeze")
						return call("click", map[string]any{"ref": ref})
					}))
					a := mustAgent(t, shared, model, agent.WithIterationTimeout(3*time.Second), agent.WithOperationTimeout(opBudget))
					return runTask(shared, a, context.Background(), agent.Task{URL: url, Instruction: "press Freeze"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, "OPERATION_TIMEOUT") || !told(srv, "the script was terminated") {
						t.Errorf("the model was not told of the timeout and the recovery: %q", res.Steps[0].Actions[0].Outcome)
					}
					if ms := res.Steps[0].Actions[0].MS; ms < opBudget.Milliseconds() || ms > opBudget.Milliseconds()+1500 {
						t.Errorf("the click took %d ms, backstop %v (and the recovery)", ms, opBudget)
					}
				},
			}
		}(),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				// A loop started by a timer right after the click (the
				// click's own wait for the page gives up after its 1 s):
				// the next snapshot hangs, the iteration times out, the
				// recover policy recovers the page and the task goes on.
				name: "frozen page, recover policy", code: agent.CodeSuccess, min: iterBudget, max: iterBudget + 3*time.Second,
				run: func(t *testing.T) *agent.Result {
					url := page(t, `<!doctype html><title>Frozen</title><p>alive</p><button onclick="setTimeout(() => { for (;;) {} }, 0)">Freeze</button>`)
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
						if seen(req, "Your last step timed out") {
							return done("recovered")
						}
						ref, _ := modelserver.FindRef(req.LastUser(), "button", "Freeze")
						return call("click", map[string]any{"ref": ref})
					}))
					a := mustAgent(t, shared, model, agent.WithIterationTimeout(iterBudget),
						agent.WithIterationTimeoutPolicy(agent.PolicyRecover, 2))
					return runTask(shared, a, context.Background(), agent.Task{URL: url, Instruction: "press Freeze"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if len(res.Steps) < 3 || res.Steps[1].Error == "" {
						t.Errorf("steps %+v: want the second to time out", res.Steps)
					}
					if !told(srv, "Your last step timed out after 2s") {
						t.Error("the model was not told the step timed out")
					}
				},
			}
		}(),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				// The tab's renderer crashes while the model thinks (the
				// scripted model sends Page.crash to the tab through the
				// browser's DevTools address): the next action finds the
				// tab replaced at its last URL, the task goes on.
				name: "crashed tab", code: agent.CodeSuccess, max: 5 * time.Second,
				run: func(t *testing.T) *agent.Result {
					chrome, b := serverBrowser(t)
					url := page(t, `<!doctype html><title>Before</title><p>before the crash</p>`)
					var once sync.Once
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
						if seen(req, "crashed") && strings.Contains(req.LastUser(), "before the crash") {
							return done("recovered")
						}
						once.Do(func() {
							ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
							defer cancel()
							if err := crash.Tab(ctx, chrome.URL, url); err != nil {
								t.Logf("crashing the tab: %v", err)
							}
						})
						return modelserver.Turn{Delay: 500 * time.Millisecond, ToolCalls: []modelserver.Call{modelserver.ToolCall("scroll", map[string]any{"direction": "down"})}}
					}))
					// The model's turn includes crashing the tab from another
					// DevTools client: a longer iteration than the others.
					a := mustAgent(t, b, model, agent.WithIterationTimeout(3*iterBudget), agent.WithOperationTimeout(opBudget))
					return runTask(b, a, context.Background(), agent.Task{URL: url, Instruction: "crash it"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, "replaced by a new tab") {
						t.Error("the model was not told the tab was replaced")
					}
				},
			}
		}(),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				// The browser process is killed while the model thinks:
				// the next call relaunches it once; the task goes on.
				// (A goto, whose 30 s budget leaves room for a slow
				// relaunch on a busy machine; iterations of 15 s.)
				name: "killed browser", code: agent.CodeSuccess, max: 15 * time.Second,
				run: func(t *testing.T) *agent.Result {
					b := ownBrowser(t)
					url := page(t, simplePage)
					var kills atomic.Int32
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
						if seen(req, "relaunched") {
							return done("recovered")
						}
						if kills.Add(1) == 1 {
							_ = syscall.Kill(b.PID(), syscall.SIGKILL)
						}
						return call("goto", map[string]any{"url": url})
					}))
					a := mustAgent(t, b, model, agent.WithIterationTimeout(15*time.Second))
					return runTask(b, a, context.Background(), agent.Task{URL: url, Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, "relaunched") {
						t.Error("the model was not told the browser was relaunched")
					}
				},
			}
		}(),
		{
			// Killed again after the relaunch: BROWSER_ERROR.
			name: "killed browser twice", code: agent.CodeBrowserError, max: 15 * time.Second,
			run: func(t *testing.T) *agent.Result {
				b := ownBrowser(t)
				url := page(t, simplePage)
				model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
					_ = syscall.Kill(b.PID(), syscall.SIGKILL)
					return call("goto", map[string]any{"url": url})
				}))
				a := mustAgent(t, b, model, agent.WithIterationTimeout(15*time.Second))
				return runTask(b, a, context.Background(), agent.Task{URL: url, Instruction: "x"})
			},
			check: func(t *testing.T, res *agent.Result) {
				if !strings.Contains(res.Message, "died again") {
					t.Errorf("message %q", res.Message)
				}
			},
		},
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				// goto a page whose document never arrives: the
				// backstop abandons it, Recover inspects the page, the
				// task goes on.
				name: "navigation never arrives", code: agent.CodeSuccess, min: opBudget, max: opBudget + 2*time.Second,
				run: func(t *testing.T) *agent.Result {
					base := hangServer(t, `<!doctype html><title>Start</title><p>start page</p>`)
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
						if strings.Contains(req.LastTool(), "OPERATION_TIMEOUT") && strings.Contains(req.LastUser(), "start page") {
							return done("back at the start")
						}
						return call("goto", map[string]any{"url": base + "/hang"})
					}))
					a := mustAgent(t, shared, model, agent.WithIterationTimeout(3*time.Second), agent.WithOperationTimeout(opBudget))
					return runTask(shared, a, context.Background(), agent.Task{URL: base + "/", Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, `"budget_ms":1000`) || !told(srv, "The page is responsive") {
						t.Errorf("the model was not told of the timeout and the page: %q", res.Steps[0].Actions[0].Outcome)
					}
				},
			}
		}(),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				name: "alert, confirm, beforeunload", code: agent.CodeSuccess, max: 4 * time.Second,
				run: func(t *testing.T) *agent.Result {
					url := page(t, `<!doctype html><title>Dialogs</title>
<script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; })</script>
<button onclick="alert('hello')">Alert</button>
<button onclick="document.title = confirm('sure?') ? 'yes' : 'no'">Confirm</button>`)
					other := page(t, `<!doctype html><title>Other</title><p>left the page</p>`)
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
						obs := req.LastUser()
						switch {
						case strings.Contains(obs, "left the page"):
							return done("ok")
						case seen(req, `confirm dialog "sure?" was accepted`):
							return call("goto", map[string]any{"url": other})
						case seen(req, `alert dialog "hello" was accepted`):
							ref, _ := modelserver.FindRef(obs, "button", "Confirm")
							return call("click", map[string]any{"ref": ref})
						}
						ref, _ := modelserver.FindRef(obs, "button", "Alert")
						return call("click", map[string]any{"ref": ref})
					}))
					return runTask(shared, mustAgent(t, shared, model, agent.WithIterationTimeout(iterBudget)),
						context.Background(), agent.Task{URL: url, Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, "beforeunload dialog was accepted") {
						t.Log("no beforeunload dialog was reported (Chromium asks only after a user gesture)")
					}
				},
			}
		}(),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				name: "popup", code: agent.CodeSuccess, max: 4 * time.Second,
				run: func(t *testing.T) *agent.Result {
					next := page(t, `<!doctype html><title>Next</title><p>the new tab</p>`)
					url := page(t, `<!doctype html><title>Opener</title><a href="`+next+`" target="_blank">Open</a>`)
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
						last := req.LastTool()
						switch {
						case strings.Contains(last, "switched to tab t1"):
							return done("ok")
						case strings.Contains(last, "(current)"):
							return call("tabs", map[string]any{"op": "close", "tab": "t2"})
						case strings.Contains(req.LastUser(), "the new tab"):
							return call("tabs", map[string]any{"op": "list"})
						}
						ref, _ := modelserver.FindRef(req.LastUser(), "link", "Open")
						return call("click", map[string]any{"ref": ref})
					}))
					b := ownBrowser(t)
					return runTask(b, mustAgent(t, b, model, agent.WithIterationTimeout(iterBudget)),
						context.Background(), agent.Task{URL: url, Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, "opened a new tab t2; switched to it") || !told(srv, "t2 ") {
						t.Error("the model was not told of the new tab")
					}
				},
			}
		}(),
		func() faultRow {
			var srv *modelserver.Server
			return faultRow{
				name: "download", code: agent.CodeSuccess, max: 5 * time.Second,
				run: func(t *testing.T) *agent.Result {
					s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						if r.URL.Path == "/file" {
							w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
							w.Header().Set("Content-Type", "text/csv")
							fmt.Fprint(w, "a,b\n1,2\n")
							return
						}
						fmt.Fprint(w, `<!doctype html><title>Files</title><a href="/file">Report</a>`)
					}))
					t.Cleanup(s.Close)
					var model *llm.Client
					model, srv = newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
						if seen(req, "downloaded report.csv") {
							return done("downloaded")
						}
						if strings.Contains(req.LastTool(), "clicked") {
							return call("scroll", map[string]any{"direction": "down"})
						}
						ref, _ := modelserver.FindRef(req.LastUser(), "link", "Report")
						return call("click", map[string]any{"ref": ref})
					}))
					// A browser of its own: in a browser context attached to
					// a shared Chromium (shared is one) a download keeps
					// Chromium's GUID for a name.
					b := ownBrowser(t)
					return runTask(b, mustAgent(t, b, model, agent.WithIterationTimeout(iterBudget)),
						context.Background(), agent.Task{URL: s.URL, Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if !told(srv, "downloaded report.csv (8 B) into the download folder") {
						t.Error("the download was not reported")
					}
					if told(srv, os.TempDir()) {
						t.Error("the model was told a folder of the machine")
					}
				},
			}
		}(),
		func() faultRow {
			var cancelled time.Time
			return faultRow{
				// The caller cancels while the model is thinking: CANCELED
				// within 500 ms of the cancel.
				name: "caller cancel", code: agent.CodeCanceled, max: 10 * time.Second,
				run: func(t *testing.T) *agent.Result {
					model, srv := newModel(t, modelserver.Script(modelserver.Turn{Fault: modelserver.NoHeaders}))
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					go func() {
						wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
						defer wcancel()
						if _, err := srv.WaitRequest(wctx, 0); err == nil {
							cancelled = time.Now()
							cancel()
						}
					}()
					return runTask(shared, mustAgent(t, shared, model, agent.WithIterationTimeout(10*time.Second)),
						ctx, agent.Task{URL: page(t, simplePage), Instruction: "x"})
				},
				check: func(t *testing.T, res *agent.Result) {
					if cancelled.IsZero() {
						t.Fatal("the model was never called")
					}
					if lag := time.Since(cancelled); lag > 500*time.Millisecond {
						t.Errorf("Run returned %v after the cancel", lag)
					} else {
						t.Logf("Run returned %v after the cancel", lag)
					}
				},
			}
		}(),
	}
	for _, row := range rows {
		t.Run(strings.ReplaceAll(row.name, " ", "_"), func(t *testing.T) {
			res := row.run(t)
			elapsed := time.Since(taskStart)
			if res.Code != row.code {
				t.Fatalf("got %s after %d iterations, want %s: %s; steps %+v", res.Code, res.Iterations, row.code, res.Message, res.Steps)
			}
			if elapsed < row.min || elapsed > row.max {
				t.Errorf("took %v; want between %v and %v; steps %+v", elapsed, row.min, row.max, res.Steps)
			}
			t.Logf("%s: %s after %v (bound %v..%v)", row.name, res.Code, elapsed.Round(time.Millisecond), row.min, row.max)
			if row.check != nil {
				row.check(t, res)
			}
		})
	}
}
