package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/mcptask"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/testfixture/tier"
)

// taskClient connects a client that takes tasks to s: over stdio, or over
// HTTP (hs), at the protocol version given.
func taskClient(t *testing.T, s *mcpserver.Server, hs *httptest.Server, version string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{Capabilities: mcptask.Declare(nil)})
	if err := mcptask.Enable(c); err != nil {
		t.Fatal(err)
	}
	var tr mcp.Transport
	if hs != nil {
		tr = &mcp.StreamableClientTransport{Endpoint: hs.URL}
	} else {
		inR, inW, outR, outW := pipes()
		go func() {
			_ = s.ServeIO(context.Background(), inR, outW)
			_ = outW.Close()
		}()
		tr = &mcp.IOTransport{Reader: outR, Writer: inW}
	}
	cs, err := c.Connect(ctx(t), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// startTask calls run_task and returns the task's id.
func startTask(t *testing.T, cs *mcp.ClientSession, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(ctx(t), &mcp.CallToolParams{Name: "run_task", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	id, ok := mcptask.Started(res)
	if !ok {
		t.Fatalf("run_task did not answer with a task: %+v", res)
	}
	return id
}

// The transports and protocol versions a client may use.
var taskTransports = []struct {
	name, version string
	http          bool
}{
	{"stdio 2025-11-25", "2025-11-25", false},
	{"http 2025-11-25", "2025-11-25", true},
	{"http 2026-07-28", "2026-07-28", true},
}

// TestTaskConfirmInputRequired runs run_task as a task on a checkout page
// under --confirm purchases: the click on "Place order" waits as an input
// request until the client answers it with tasks/update; the order is
// posted only after a yes. Over HTTP, the connection that started the task
// is dropped first, and the task is found again by its id.
func TestTaskConfirmInputRequired(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	for _, tr := range taskTransports {
		for _, yes := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s yes=%v", tr.name, yes), func(t *testing.T) {
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
					Limits:  agent.Limits{OperationTimeout: 10 * time.Second, IterationTimeout: 30 * time.Second, HumanTimeout: 8 * time.Second},
					Actions: ask,
				})
				t.Cleanup(func() { _ = s.Close() })
				var hs *httptest.Server
				if tr.http {
					hs = httptest.NewServer(s.Handler())
					t.Cleanup(hs.Close)
				}
				cs := taskClient(t, s, hs, tr.version)
				id := startTask(t, cs, map[string]any{"url": shop, "task": "order the mug"})
				if tr.http {
					_ = cs.Close()
					cs = taskClient(t, s, hs, tr.version)
				}
				var asked []string
				task, err := mcptask.Follow(ctx(t), cs, id, func(_ string, req mcp.InputRequest) (mcp.InputResponse, bool) {
					p, _ := req.(*mcp.ElicitParams)
					if p != nil {
						asked = append(asked, p.Message)
					}
					if orders.Load() != 0 {
						t.Errorf("the order was posted before the answer")
					}
					if yes {
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"allow": true}}, true
					}
					return &mcp.ElicitResult{Action: "decline"}, true
				})
				if err != nil {
					t.Fatal(err)
				}
				var res agent.Result
				if task.Result != nil {
					b, _ := json.Marshal(task.Result.StructuredContent)
					_ = json.Unmarshal(b, &res)
				}
				if task.Status != mcptask.Completed || res.Code != agent.CodeSuccess {
					t.Fatalf("task ended %s (%s), code %s", task.Status, task.StatusMessage, res.Code)
				}
				want := int32(0)
				if yes {
					want = 1
				}
				if n := orders.Load(); n != want {
					t.Errorf("the shop got %d orders, want %d", n, want)
				}
				if len(asked) != 1 || !strings.Contains(asked[0], `click button "Place order" on 127.0.0.1`) {
					t.Errorf("the client was asked %q", asked)
				}
				if told := strings.Contains(lastToolResults(model), "refused by the user's policy"); told == yes {
					t.Errorf("the model told of a refusal: %v", told)
				}
			})
		}
	}
}

// TestTaskCancel cancels a run_task task mid-run: it ends cancelled, with
// the run's code CANCELED, within its iteration bound, its browser closed
// by then; tasks/get reports its progress meanwhile.
func TestTaskCancel(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	for _, tr := range taskTransports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			const iteration = 20 * time.Second
			// A model that counts for ever.
			s, _ := newServerWith(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
				ref, _ := modelserver.FindRef(req.LastUser(), "button", "Count")
				return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
			}), agent.Limits{OperationTimeout: backstop, IterationTimeout: iteration, MaxIterations: 1000})
			var hs *httptest.Server
			if tr.http {
				hs = httptest.NewServer(s.Handler())
				t.Cleanup(hs.Close)
			}
			// The page holds a request open for as long as its browser
			// lives: the request's end tells the browser went.
			released := make(chan struct{})
			var once sync.Once
			page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/hold" {
					w.(http.Flusher).Flush()
					<-r.Context().Done()
					once.Do(func() { close(released) })
					return
				}
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, `<title>Counter</title><button onclick="n.textContent++">Count</button> <span id=n>0</span><script>fetch('/hold')</script>`)
			}))
			t.Cleanup(page.Close)
			cs := taskClient(t, s, hs, tr.version)
			id := startTask(t, cs, map[string]any{"url": page.URL + "/", "task": "count"})
			var running *mcptask.Task
			for running == nil {
				task, err := mcptask.Get(ctx(t), cs, id)
				if err != nil {
					t.Fatal(err)
				}
				p, _ := task.Meta["webagent/progress"].(map[string]any)
				if it, _ := p["iteration"].(float64); it >= 2 {
					running = task
					break
				}
				if task.Status.Terminal() {
					t.Fatalf("the task ended: %+v", task)
				}
				select {
				case <-time.After(50 * time.Millisecond): // the protocol's polling
				case <-ctx(t).Done():
					t.Fatal("the task made no progress")
				}
			}
			if running.Status != mcptask.Working || !strings.Contains(running.StatusMessage, "step") {
				t.Errorf("while running: %s %q", running.Status, running.StatusMessage)
			}
			start := time.Now()
			if err := mcptask.Cancel(ctx(t), cs, id); err != nil {
				t.Fatal(err)
			}
			task, err := mcptask.Follow(ctx(t), cs, id, nil)
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > iteration+time.Second {
				t.Errorf("the cancelled task ended after %s", took)
			}
			if task.Status != mcptask.Cancelled || !strings.Contains(task.StatusMessage, string(agent.CodeCanceled)) {
				t.Errorf("cancelled task: %s %q", task.Status, task.StatusMessage)
			}
			// The browser was closed before the task showed as cancelled:
			// its held request ends at once (the kernel closes its socket).
			select {
			case <-released:
			case <-time.After(5 * time.Second):
				t.Error("the cancelled task's browser still holds the page's request")
			}
		})
	}
}

// TestTaskAsksHuman: the agent's ask_human question reaches the task's
// client as an input request, and its answer reaches the model.
func TestTaskAsksHuman(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	s, model := newServerWith(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if res := req.LastTool(); res != "" {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": res})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("ask_human", map[string]string{"question": "Which colour of mug?"})}}
	}), agent.Limits{OperationTimeout: 10 * time.Second, IterationTimeout: 30 * time.Second, HumanTimeout: 8 * time.Second})
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	cs := taskClient(t, s, hs, "2026-07-28")
	id := startTask(t, cs, map[string]any{"url": site(t), "task": "buy a mug"})
	var asked string
	task, err := mcptask.Follow(ctx(t), cs, id, func(_ string, req mcp.InputRequest) (mcp.InputResponse, bool) {
		if p, ok := req.(*mcp.ElicitParams); ok {
			asked = p.Message
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "blue"}}, true
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(asked, "Which colour of mug?") {
		t.Errorf("the client was asked %q", asked)
	}
	if task.Status != mcptask.Completed || !strings.Contains(lastToolResults(model), `"answer":"blue"`) {
		t.Errorf("task %s %q; the model got %s", task.Status, task.StatusMessage, lastToolResults(model))
	}
}

// TestTaskLateAnswer: a question still unanswered when the human timeout
// passes is not lost: the model is told no answer came yet and goes on,
// the question stays among the task's input requests, and the client's
// later answer reaches the model.
func TestTaskLateAnswer(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	var waits int
	s, model := newServerWith(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		call := func(name string, args any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		for _, m := range req.Messages {
			if _, after, ok := strings.Cut(m.Content, "has now answered your earlier question"); ok {
				return call("done", map[string]string{"answer": after})
			}
		}
		if req.LastTool() == "" {
			return call("ask_human", map[string]string{"question": "Which colour of mug?"})
		}
		// Waits of different lengths: the same wait three times on an
		// unchanged page is a stuck agent, which the loop stops.
		waits++
		return call("wait", map[string]any{"ms": 200 + 100*waits})
	}), agent.Limits{OperationTimeout: 10 * time.Second, IterationTimeout: 30 * time.Second, HumanTimeout: time.Second})
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	cs := taskClient(t, s, hs, "2026-07-28")
	id := startTask(t, cs, map[string]any{"url": site(t), "task": "buy a mug"})
	task, err := mcptask.Follow(ctx(t), cs, id, func(string, mcp.InputRequest) (mcp.InputResponse, bool) {
		// Only once the model was told no answer came in time.
		if !strings.Contains(lastToolResults(model), `"status":"pending"`) {
			return nil, false
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "blue"}}, true
	})
	if err != nil {
		t.Fatal(err)
	}
	var res agent.Result
	if task.Result != nil {
		b, _ := json.Marshal(task.Result.StructuredContent)
		_ = json.Unmarshal(b, &res)
	}
	if task.Status != mcptask.Completed || res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, "blue") {
		t.Errorf("task %s %q: code %s, answer %q", task.Status, task.StatusMessage, res.Code, res.Answer)
	}
}
