package liveview_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestOneController: two control viewers, one takes over and types; the
// other's input (no key, or a made-up one) is refused and changes nothing.
// The holder reconnects and still has control; after it hands back, its
// old key is stale and refused.
func TestOneController(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<input id="f" autofocus style="position:absolute;left:10px;top:10px;width:200px;height:30px">`)
	}))
	defer page.Close()
	srv := serve(t, liveview.Config{})
	v := srv.Open(liveview.Options{})
	defer v.Close()
	b := chrome.Tab(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: page.URL}); err != nil {
		t.Fatal(err)
	}
	v.Attach(b)
	_, control := v.URLs()
	a, _, err := dial(t, control, "")
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := dial(t, control, "")
	if err != nil {
		t.Fatal(err)
	}
	a.send(map[string]any{"type": "take"})
	var key string
	_ = json.Unmarshal(a.next("key", 10*time.Second, nil), &key)
	a.next("control", 10*time.Second, state("held", true))
	other.next("control", 10*time.Second, state("held", false))
	other.send(map[string]any{"type": "take"})
	other.next("error", 5*time.Second, errorAbout("take"))

	typeText := func(s *socket, key, text string) {
		s.send(map[string]any{"type": "input", "key": key, "input": contract.PersonInput{Kind: contract.InputMouseDown, X: 50, Y: 25, Button: "left", Clicks: 1}})
		s.send(map[string]any{"type": "input", "key": key, "input": contract.PersonInput{Kind: contract.InputMouseUp, X: 50, Y: 25, Button: "left", Clicks: 1}})
		s.send(map[string]any{"type": "input", "key": key, "input": contract.PersonInput{Kind: contract.InputText, Text: text}})
	}
	typeText(other, "", "intruder")
	other.next("error", 5*time.Second, errorAbout("input"))
	typeText(other, "1-0000000000000000", "intruder")
	other.next("error", 5*time.Second, errorAbout("input"))
	typeText(a, key, "abc")
	a.send(map[string]any{"type": "hello", "key": key}) // a round trip: the inputs before it were carried out
	a.next("control", 10*time.Second, state("held", true))

	// A reconnect keeps control: the page names its key.
	a.conn.CloseNow()
	a2, _, err := dial(t, control, "")
	if err != nil {
		t.Fatal(err)
	}
	a2.send(map[string]any{"type": "hello", "key": key})
	a2.next("control", 10*time.Second, state("held", true))
	a2.send(map[string]any{"type": "input", "key": key, "input": contract.PersonInput{Kind: contract.InputText, Text: "def"}})
	value := func() string {
		out, err := b.Eval(ctx, `document.getElementById('f').value`)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for value() != "abcdef" && time.Now().Before(deadline) {
		a2.send(map[string]any{"type": "hello", "key": key}) // a round trip: the inputs before it are done
		a2.next("control", 5*time.Second, nil)
	}
	if got := value(); got != "abcdef" {
		t.Fatalf("the field holds %q, want the holder's abcdef alone", got)
	}
	a2.send(map[string]any{"type": "handback", "key": key})
	a2.next("control", 10*time.Second, state("agent", false))
	a2.send(map[string]any{"type": "input", "key": key, "input": contract.PersonInput{Kind: contract.InputText, Text: "late"}})
	a2.next("error", 5*time.Second, errorAbout("input"))
	if got := value(); got != "abcdef" {
		t.Errorf("a stale key's input reached the page: %q", got)
	}
}

// TestHoldOutsideTheIterationBound: a person holds control for longer
// than the iteration bound and the task goes on; a hold that outlasts
// the task's bound ends the task with TASK_TIMEOUT within it. A holder
// idle past the idle bound hands back by themselves.
func TestHoldOutsideTheIterationBound(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Page</title><p>hello</p>`)
	}))
	defer page.Close()
	asked := make(chan struct{}, 10)
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		asked <- struct{}{}
		if strings.Contains(req.LastUser(), "A person had control") || strings.Contains(string(req.Raw), "A person had control") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "ok"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("wait", map[string]int{"ms": 10})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	m, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, liveview.Config{})
	for _, c := range []struct {
		name      string
		task      time.Duration
		idle      time.Duration
		wantCode  agent.Code
		wantBound time.Duration
	}{
		{"idle hands back", time.Minute, 3 * time.Second, agent.CodeSuccess, 30 * time.Second},
		{"task bound", 4 * time.Second, 0, agent.CodeTaskTimeout, 9 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := srv.Open(liveview.Options{Idle: c.idle})
			defer v.Close()
			b := chrome.Tab(t)
			v.Attach(b)
			a, err := agent.New(b, m, agent.WithObserver(v), agent.WithControl(v.Lease()),
				agent.WithLimits(agent.Limits{IterationTimeout: 2 * time.Second, TaskTimeout: c.task, OperationTimeout: time.Second}))
			if err != nil {
				t.Fatal(err)
			}
			_, control := v.URLs()
			s, _, err := dial(t, control, "")
			if err != nil {
				t.Fatal(err)
			}
			s.send(map[string]any{"type": "take"}) // granted at once: no step runs yet
			s.next("control", 10*time.Second, state("held", true))
			t0 := time.Now()
			res := a.Run(context.Background(), agent.Task{URL: page.URL, Instruction: "say ok"})
			took := time.Since(t0)
			if res.Code != c.wantCode || took > c.wantBound {
				t.Fatalf("%s after %s (%s), want %s within %s", res.Code, took, res.Message, c.wantCode, c.wantBound)
			}
			if c.wantCode == agent.CodeSuccess {
				if took < c.idle {
					t.Errorf("the task ended after %s, before the idle bound of %s handed control back", took, c.idle)
				}
				if !strings.Contains(res.Steps[0].Actions[0].Outcome, "idle") {
					t.Errorf("the takeover step does not say the person was idle: %+v", res.Steps[0])
				}
			}
		})
	}
}
