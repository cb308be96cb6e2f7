package agent_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// timedBrowser is the real browser with the time spent in Snapshot and Do
// counted; its other methods (PageState, Recover…) are the embedded
// browser's, so the loop takes the same paths as with the browser itself,
// and their time counts as the loop's.
type timedBrowser struct {
	*browser.Browser
	spent atomic.Int64 // nanoseconds
}

func (t *timedBrowser) Snapshot(ctx context.Context) (contract.Snapshot, error) {
	defer t.count(time.Now())
	return t.Browser.Snapshot(ctx)
}

func (t *timedBrowser) Do(ctx context.Context, a contract.Action) (contract.Outcome, error) {
	defer t.count(time.Now())
	return t.Browser.Do(ctx, a)
}

func (t *timedBrowser) count(since time.Time) { t.spent.Add(int64(time.Since(since))) }

// timedModel is the real HTTP model client with the time of its calls
// counted.
type timedModel struct {
	*llm.Client
	spent atomic.Int64
}

func (t *timedModel) Complete(ctx context.Context, req contract.Request) (contract.Reply, error) {
	defer func(since time.Time) { t.spent.Add(int64(time.Since(since))) }(time.Now())
	return t.Client.Complete(ctx, req)
}

// BenchmarkIteration measures the loop's own cost per iteration: a real
// page and browser, a real HTTP model server that answers at once (a click
// per iteration, then done), and the time of the snapshot, the model call
// and the actions taken out. loop-ms is what remains per iteration
// (go test -run '^$' -bench Iteration ./agent/).
func BenchmarkIteration(b *testing.B) {
	url := page(b, `<!doctype html><title>Counter</title><button onclick="n.textContent = +n.textContent + 1">Add</button><p id=n>0</p>`)
	clicks := b.N
	var asked atomic.Int64
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		if asked.Add(1) > int64(clicks) {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "counted"})}}
		}
		ref, ok := modelserver.FindRef(obs, "button", "Add")
		if !ok {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]any{"reason": "no Add button"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
	}))
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "scripted"})
	if err != nil {
		b.Fatal(err)
	}
	tb, tm := &timedBrowser{Browser: shared}, &timedModel{Client: client}
	a, err := agent.New(tb, tm, agent.WithMaxIterations(b.N+2))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	res := a.Run(b.Context(), agent.Task{URL: url, Instruction: "click Add until the count is " + strconv.Itoa(clicks)})
	total := time.Since(start)
	b.StopTimer()
	if res.Code != agent.CodeSuccess {
		b.Fatalf("%s: %s", res.Code, res.Message)
	}
	loop := total - time.Duration(tb.spent.Load()) - time.Duration(tm.spent.Load())
	b.ReportMetric(float64(loop.Microseconds())/1000/float64(res.Iterations), "loop-ms/iter")
	b.ReportMetric(float64(res.Iterations), "iterations")
}
