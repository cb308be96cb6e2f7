package mcpserver_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"log/slog"
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
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/testfixture/tier"
)

// roundServer is a server under --confirm purchases over model, served
// over streamable HTTP; its log lines go to logs.
func roundServer(t *testing.T, model *modelserver.Server, lim agent.Limits, logs *logLines) *httptest.Server {
	t.Helper()
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	allowed, _ := contract.ParseDomainPatterns("127.0.0.1")
	ask, _ := policy.Presets("purchases")
	cfg := mcpserver.Config{Policy: contract.NavigationPolicy{Allowed: allowed}, Model: client, Limits: lim, Actions: ask}
	if logs != nil {
		cfg.Logger = slog.New(logs)
	}
	s := mcpserver.New(cfg)
	t.Cleanup(func() { _ = s.Close() })
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	return hs
}

// roundClient is the SDK's client at protocol 2026-07-28 over streamable
// HTTP, without the Tasks extension.
func roundClient(t *testing.T, hs *httptest.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx(t), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

var roundLimits = agent.Limits{OperationTimeout: 10 * time.Second, IterationTimeout: 30 * time.Second, HumanTimeout: 8 * time.Second}

// TestRoundTripConfirm: a 2026-07-28 client without Tasks is asked the
// action policy's question as an input request of run_task's result; the
// SDK's client asks its user and retries with the answer, which the run
// waits for: yes posts the order, no does not.
func TestRoundTripConfirm(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	for _, action := range []string{"accept", "decline"} {
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			shop, orders := checkout(t)
			hs := roundServer(t, orderingServer(t), roundLimits, nil)
			var mu sync.Mutex
			var asked []string
			cs := roundClient(t, hs, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				mu.Lock()
				asked = append(asked, req.Params.Message)
				mu.Unlock()
				if orders.Load() != 0 {
					t.Error("the order was posted before the answer")
				}
				return &mcp.ElicitResult{Action: action}, nil
			}})
			res, out := call(t, cs, "run_task", map[string]any{"url": shop, "task": "order the mug"})
			want := int32(0)
			if action == "accept" {
				want = 1
			}
			if n := orders.Load(); n != want {
				t.Errorf("the shop got %d orders, want %d; run_task said %s", n, want, out)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 1 || !strings.Contains(asked[0], `webagent's action policy asks: click button "Place order" on 127.0.0.1`) {
				t.Errorf("the client's user was asked %q", asked)
			}
			var got agent.Result
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &got); err != nil || len(got.Policy) == 0 {
				t.Fatalf("run_task: %s (%v)", out, err)
			}
			if action == "accept" && (got.Code != agent.CodeSuccess || res.IsError) {
				t.Errorf("a yes: %s", out)
			}
			if action == "decline" && !strings.Contains(out, "refused by the user's policy") {
				t.Errorf("a no: the model was not told: %s", out)
			}
		})
	}
}

// TestRoundTripAskHuman: the agent's ask_human question reaches a
// 2026-07-28 client the same way, and its answer reaches the model.
func TestRoundTripAskHuman(t *testing.T) {
	t.Parallel()
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if res := req.LastTool(); res != "" {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": res})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("ask_human", map[string]string{"question": "which colour of mug?"})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = model.Close() })
	shop, _ := checkout(t)
	hs := roundServer(t, model, roundLimits, nil)
	var asked string
	cs := roundClient(t, hs, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = req.Params.Message
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "the blue one"}}, nil
	}})
	_, out := call(t, cs, "run_task", map[string]any{"url": shop, "task": "order a mug"})
	if !strings.Contains(asked, "webagent's agent asks: which colour of mug?") {
		t.Errorf("the client's user was asked %q", asked)
	}
	if !strings.Contains(out, "the blue one") {
		t.Errorf("the answer did not reach the model: %s", out)
	}
}

// TestRoundTripStateRefused drives the rounds by hand: a forged or
// altered request state is refused and nothing runs; a state used once is
// refused the second time; a state whose retry did not come within the
// human timeout expires, its run ends, and the state is refused.
func TestRoundTripStateRefused(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shop, orders := checkout(t)
	model := orderingServer(t)
	logs := &logLines{seen: map[string]chan struct{}{}}
	lim := roundLimits
	lim.HumanTimeout = 3 * time.Second
	hs := roundServer(t, model, lim, logs)
	cs := roundClient(t, hs, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Error("the client's automatic retry ran")
			return nil, nil
		},
	})
	args := map[string]any{"url": shop, "task": "order the mug"}
	first := func() *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx(t), &mcp.CallToolParams{Name: "run_task", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if !res.NeedsInput() || len(res.InputRequests) != 1 || res.RequestState == "" {
			t.Fatalf("run_task did not ask: %+v", res)
		}
		for _, r := range res.InputRequests {
			if p, _ := r.(*mcp.ElicitParams); p == nil || !strings.Contains(p.Message, `click button "Place order"`) {
				t.Fatalf("the input request: %+v", r)
			}
		}
		return res
	}
	retry := func(res *mcp.CallToolResult, state, action string) (*mcp.CallToolResult, string) {
		t.Helper()
		answers := mcp.InputResponseMap{}
		for k := range res.InputRequests {
			answers[k] = &mcp.ElicitResult{Action: action}
		}
		out, err := cs.CallTool(ctx(t), &mcp.CallToolParams{Name: "run_task", Arguments: args, InputResponses: answers, RequestState: state})
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		for _, c := range out.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				sb.WriteString(tc.Text)
			}
		}
		return out, sb.String()
	}

	res := first()
	calls := len(model.Requests())
	random := make([]byte, 56)
	_, _ = rand.Read(random)
	altered := []byte(res.RequestState)
	altered[5] ^= 1
	for name, state := range map[string]string{"forged": base64.RawURLEncoding.EncodeToString(random), "altered": string(altered), "garbage": "yes"} {
		out, text := retry(res, state, "accept")
		if !out.IsError || out.NeedsInput() || !strings.Contains(text, "not made by this server") {
			t.Errorf("a %s state: %s", name, text)
		}
	}
	if n := orders.Load(); n != 0 || len(model.Requests()) != calls {
		t.Errorf("after the forged states: %d orders, %d model requests (%d before)", n, len(model.Requests()), calls)
	}

	// No retry within the human timeout: the state expires, the run ends
	// (its browser closed), and the state is refused.
	logs.wait(t, "a multi round-trip request state expired without a retry")
	logs.wait(t, "a run across multi round-trip calls ended")
	if out, text := retry(res, res.RequestState, "accept"); !out.IsError || !strings.Contains(text, "expired") {
		t.Errorf("an expired state: %s", text)
	}
	if n := orders.Load(); n != 0 {
		t.Errorf("an unanswered question posted %d orders", n)
	}

	// A state is good for one retry.
	res = first()
	if out, text := retry(res, res.RequestState, "accept"); out.IsError || out.NeedsInput() || orders.Load() != 1 {
		t.Fatalf("a yes by hand: %d orders; %s", orders.Load(), text)
	}
	if out, text := retry(res, res.RequestState, "accept"); !out.IsError || !strings.Contains(text, "used already") || orders.Load() != 1 {
		t.Errorf("a state used again: %d orders; %s", orders.Load(), text)
	}
}

// logLines is a slog.Handler that notes the messages logged.
type logLines struct {
	mu   sync.Mutex
	seen map[string]chan struct{}
}

func (l *logLines) ch(msg string) chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.seen[msg]
	if c == nil {
		c = make(chan struct{})
		l.seen[msg] = c
	}
	return c
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }

func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	c := l.ch(r.Message)
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-c:
	default:
		close(c)
	}
	return nil
}

func (l *logLines) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logLines) WithGroup(string) slog.Handler      { return l }

// wait waits for msg to be logged.
func (l *logLines) wait(t *testing.T, msg string) {
	t.Helper()
	select {
	case <-l.ch(msg):
	case <-ctx(t).Done():
		t.Fatalf("no log line %q", msg)
	}
}
