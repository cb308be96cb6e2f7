package eval

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/internal/crash"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// The budgets of a fault run: small, so that the whole fault suite takes
// well under a minute.
const (
	faultIteration  = 4 * time.Second
	faultOperation  = 3 * time.Second
	faultInactivity = 2 * time.Second
	faultTask       = 25 * time.Second
)

// Fault is one fault scenario: what is injected, how the harness's scripted
// model acts, and which endings are acceptable within which bound.
type Fault struct {
	Name string
	// What is injected, in a few words.
	What string
	// Expected describes the acceptable endings.
	Expected string
	// Accept lists the codes that count as handled.
	Accept []agent.Code
	// Bound is the time the fault must be handled within.
	Bound time.Duration
	// first is the model's first reply (a fault, or an action on the
	// fault site); the replies after it call done.
	first func(obs string) modelserver.Turn
	// second is the model's second reply, when it is not done.
	second func(obs string) modelserver.Turn
	// model configures the llm client (retries).
	model func(*llm.Config)
}

// Faults lists the fault scenarios.
func Faults() []Fault {
	done := []agent.Code{agent.CodeSuccess}
	timeout := []agent.Code{agent.CodeIterationTimeout, agent.CodeSuccess}
	return []Fault{
		{
			Name: "stalled-stream", What: "the model's stream stops mid tool call and stays open",
			Expected: "the stream inactivity window (2s) or the iteration timeout ends the wait; ITERATION_TIMEOUT, or SUCCESS after recovering",
			Accept:   timeout, Bound: 2*faultIteration + 2*time.Second,
			first: func(string) modelserver.Turn { return modelserver.Turn{Fault: modelserver.StallMidStream} },
		},
		{
			Name: "drip", What: "the model's stream sends an empty chunk every 100ms, forever",
			Expected: "the iteration timeout (4s) ends it (a drip defeats the inactivity window); ITERATION_TIMEOUT, or SUCCESS after recovering",
			Accept:   timeout, Bound: 2*faultIteration + 2*time.Second,
			first: func(string) modelserver.Turn {
				return modelserver.Turn{Fault: modelserver.Drip, Every: 100 * time.Millisecond}
			},
		},
		{
			Name: "rate-limit-storm", What: "every model request is answered 429 with Retry-After: 1",
			Expected: "2 retries honouring Retry-After, then LLM_ERROR",
			Accept:   []agent.Code{agent.CodeLLMError}, Bound: 8 * time.Second,
			first: func(string) modelserver.Turn {
				return modelserver.Turn{Fault: modelserver.RateLimited, RetryAfter: time.Second}
			},
			model: func(c *llm.Config) { c.MaxRetries = 2 },
		},
		{
			Name: "rate-limit-burst", What: "two 429 answers, then normal replies",
			Expected: "the client retries and the task succeeds: SUCCESS",
			Accept:   done, Bound: 8 * time.Second,
			model: func(c *llm.Config) { c.MaxRetries = 3 },
		},
		{
			Name: "frozen-page", What: "a click runs a script that never returns (while(true))",
			Expected: "the operation or iteration timeout cuts the click, the page is recovered or the task ends: SUCCESS, ITERATION_TIMEOUT or BROWSER_ERROR",
			Accept:   []agent.Code{agent.CodeSuccess, agent.CodeIterationTimeout, agent.CodeBrowserError}, Bound: 3*faultIteration + 5*time.Second,
			first: clickTurn("button", "Freeze the page"),
		},
		{
			Name: "crash", What: "the tab's renderer crashes (a click makes the harness send Page.crash to the tab)",
			Expected: "the crash is seen at once: BROWSER_ERROR, or SUCCESS when the browser recovers the tab",
			Accept:   []agent.Code{agent.CodeBrowserError, agent.CodeSuccess}, Bound: 10 * time.Second,
			first: clickTurn("button", "Crash the tab"),
			// The crash lands while the model "thinks"; the next
			// iteration meets it.
			second: func(string) modelserver.Turn {
				return modelserver.Turn{Delay: 1500 * time.Millisecond, ToolCalls: []modelserver.Call{modelserver.ToolCall("scroll", map[string]any{"direction": "down"})}}
			},
		},
		{
			Name: "navigation-never-arrives", What: "a link whose server never answers",
			Expected: "the click's wait ends at its budget and the model is told, or the iteration times out: SUCCESS or ITERATION_TIMEOUT",
			Accept:   timeout, Bound: 2*faultIteration + 5*time.Second,
			first: clickTurn("link", "Slow report"),
		},
	}
}

func clickTurn(role, name string) func(obs string) modelserver.Turn {
	return func(obs string) modelserver.Turn {
		ref, ok := modelserver.FindRef(obs, role, name)
		if !ok {
			return failTurn(fmt.Sprintf("no %s %q on the fault page", role, name))
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
	}
}

// FaultJobs returns one job per fault scenario. They use scripted models
// of their own, not Config.Model, and are never retried.
func FaultJobs() []Job {
	var jobs []Job
	for _, f := range Faults() {
		jobs = append(jobs, Job{
			Suite: "faults", ID: f.Name, Key: "faults/" + f.Name + "!" + f.Name,
			Run: func(ctx context.Context, env *Env) (report.Run, error) { return runFault(ctx, env, f), nil },
		})
	}
	return jobs
}

// faultResponder plays a fault scenario: the scenario's first reply, then
// done. rate-limit-burst answers its first two requests with 429.
func faultResponder(f Fault) modelserver.Responder {
	var n atomic.Int64
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		call := n.Add(1)
		switch {
		case f.Name == "rate-limit-burst" && call <= 2:
			return modelserver.Turn{Fault: modelserver.RateLimited}
		case f.Name == "rate-limit-storm":
			return f.first("")
		case call == 1 && f.first != nil:
			return f.first(req.LastUser())
		case call == 2 && f.second != nil:
			return f.second(req.LastUser())
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "recovered"})}}
	})
}

func runFault(ctx context.Context, env *Env, f Fault) report.Run {
	start := time.Now()
	run := report.Run{ID: f.Name, Suite: "faults", Kind: "fault", Fault: f.Name, Expected: f.Expected,
		BoundMS: f.Bound.Milliseconds(), Checks: []suite.CheckResult{}, Steps: []report.Step{}}
	site, err := serveOn(env.Config.SiteHost, faultSite(env.CDPURL))
	if err != nil {
		run.Code, run.Message = report.CodeHarnessError, err.Error()
		return run
	}
	defer site.Close()
	srv, err := modelserver.Start(faultResponder(f))
	if err != nil {
		run.Code, run.Message = report.CodeHarnessError, err.Error()
		return run
	}
	defer srv.Close()
	cfg := llm.Config{BaseURL: srv.BaseURL(), Model: "faults", Inactivity: faultInactivity,
		RetryBaseDelay: 200 * time.Millisecond, MaxRetryDelay: 1500 * time.Millisecond}
	if f.model != nil {
		f.model(&cfg)
	}
	client, err := llm.New(cfg)
	if err != nil {
		run.Code, run.Message = report.CodeHarnessError, err.Error()
		return run
	}
	defer client.CloseIdleConnections()
	watched := &noticeWatch{b: env.Browser}
	a, err := agent.New(watched, client,
		agent.WithLogger(nil),
		agent.WithIterationTimeout(faultIteration),
		agent.WithOperationTimeout(faultOperation),
		agent.WithStartTimeout(faultIteration),
		agent.WithTaskTimeout(faultTask),
		agent.WithIterationTimeoutPolicy(agent.PolicyRecover, 2),
		agent.WithMaxIterations(6),
	)
	if err != nil {
		run.Code, run.Message = report.CodeHarnessError, err.Error()
		return run
	}
	res := a.Run(ctx, agent.Task{URL: site.URL + "/", Instruction: "Fault scenario " + f.Name + ": " + f.What + "."})
	fillResult(&run, res)
	run.DurationMS = time.Since(start).Milliseconds()
	run.Seen = seenOf(res, watched.list())
	run.Success = slices.Contains(f.Accept, res.Code) && run.DurationMS <= run.BoundMS
	if !run.Success && res.Code != agent.CodeCanceled {
		run.Message = fmt.Sprintf("expected %s within %s; saw %s after %s: %s", f.Expected, f.Bound, res.Code,
			time.Duration(run.DurationMS)*time.Millisecond, res.Message)
	}
	if ctx.Err() == nil {
		run.Screenshot = saveScreenshot(ctx, env)
	}
	return run
}

// seenOf says how the run ended and what recovered on the way.
func seenOf(res *agent.Result, notices []string) string {
	var notes []string
	for _, n := range notices {
		notes = append(notes, "notice: "+clipLine(n, 120))
	}
	for _, s := range res.Steps {
		if s.Error != "" {
			notes = append(notes, fmt.Sprintf("iteration %d: %s", s.Iteration, clipLine(s.Error, 120)))
		}
		for _, a := range s.Actions {
			if a.Error {
				notes = append(notes, fmt.Sprintf("iteration %d: %s failed: %s", s.Iteration, a.Tool, clipLine(a.Outcome, 120)))
			}
		}
	}
	seen := string(res.Code)
	if res.Code == agent.CodeSuccess && len(notes) > 0 {
		seen = "recovered, then SUCCESS"
	}
	if res.Code != agent.CodeSuccess {
		seen += ": " + clipLine(res.Message, 160)
	}
	if len(notes) > 0 {
		seen += " (" + strings.Join(notes, "; ") + ")"
	}
	return seen
}

// faultSite serves the pages of the page faults: a button that freezes the
// page, a button that crashes the tab, and a link to a page whose response
// never arrives (the handler waits until the client goes away or the
// server closes). cdpURL is the browser's DevTools address, used to crash
// the tab.
func faultSite(cdpURL string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><title>Fault site</title></head><body>
<h1>Fault site</h1>
<p>Pages that misbehave on purpose.</p>
<button id="freeze" onclick="for(;;){}">Freeze the page</button>
<button id="crash" onclick="fetch('/crash', {method: 'POST'})">Crash the tab</button>
<p><a href="/slow">Slow report</a></p>
</body></html>`)
	})
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	mux.HandleFunc("POST /crash", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		if err := crash.Tab(ctx, cdpURL, "http://"+r.Host+"/"); err != nil {
			http.Error(w, "could not crash the tab: "+err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, "crashed")
	})
	return mux
}

// noticeWatch passes the agent's calls to the browser and keeps the
// snapshots' notices (a crashed tab replaced, a dialog answered), which
// tell how a fault was recovered from.
type noticeWatch struct {
	b       *browser.Browser
	mu      sync.Mutex
	notices []string
}

func (w *noticeWatch) Snapshot(ctx context.Context) (contract.Snapshot, error) {
	s, err := w.b.Snapshot(ctx)
	if len(s.Notices) > 0 {
		w.mu.Lock()
		w.notices = append(w.notices, s.Notices...)
		w.mu.Unlock()
	}
	return s, err
}

func (w *noticeWatch) Do(ctx context.Context, a contract.Action) (contract.Outcome, error) {
	return w.b.Do(ctx, a)
}

// Recover implements agent.Recoverer.
func (w *noticeWatch) Recover(ctx context.Context) (string, error) { return w.b.Recover(ctx) }

func (w *noticeWatch) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.notices...)
}
