package judge_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/judge"
	secretpkg "github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/trace"
)

// pageFake is a browser as a trace writer sees it: a screenshot, no
// activity, and one blocked request.
type pageFake struct {
	shot    []byte
	blocked []contract.BlockedRequest
}

func (p *pageFake) Screenshot(context.Context) ([]byte, error) { return p.shot, nil }
func (p *pageFake) TakeActivity() ([]contract.ConsoleEntry, []contract.NetEntry) {
	return nil, nil
}
func (p *pageFake) TakeBlocked() []contract.BlockedRequest {
	b := p.blocked
	p.blocked = nil
	return b
}

// TestFromTrace writes a trace of two steps, the second of which posted a
// form that --read-only stopped, and reads it back as a trajectory: the
// masked task, the factual actions without done, the page texts, the
// screenshots, the blocked request and the agent's answer.
func TestFromTrace(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "trace")
	secret := "hunter2-very-secret"
	m := secretpkg.NewMasker(map[string]string{"password": secret})
	fake := &pageFake{shot: pngOf(t)}
	w, err := trace.Create(dir, trace.Header{Task: m.Mask("Sign in with " + secret + " and send hello"), URL: "http://127.0.0.1:1/"},
		trace.Options{Masker: m, Shots: fake, Activity: fake})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	w.TraceModel(agent.ModelCall{Iteration: 1, Observation: "page: Contact form [ref=e3]"})
	w.TraceStep(ctx, agent.Step{Iteration: 1, URL: "http://127.0.0.1:1/", Actions: []agent.ActionRecord{
		{Tool: "type", Args: json.RawMessage(`{"ref": "e3", "text": "hello"}`), Outcome: "typed \"hello\""}}})
	w.TraceSnapshot(ctx, 2)
	fake.blocked = []contract.BlockedRequest{{Method: "POST", URL: "http://127.0.0.1:1/send", Type: "Document", Payload: "message=hello&pw=" + secret}}
	w.TraceModel(agent.ModelCall{Iteration: 2, Observation: "page: Message typed"})
	w.TraceStep(ctx, agent.Step{Iteration: 2, URL: "http://127.0.0.1:1/", Actions: []agent.ActionRecord{
		{Tool: "click", Args: json.RawMessage(`{"ref":"e4"}`), Outcome: "blocked by --read-only: POST http://127.0.0.1:1/send", Error: true},
		{Tool: "done", Args: json.RawMessage(`{"answer":"Sent."}`), Outcome: "done"}}})
	if err := w.End(ctx, &agent.Result{Code: agent.CodeSuccess, Answer: "Sent."}); err != nil {
		t.Fatal(err)
	}
	tr, err := judge.FromTrace(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Task != "Sign in with <secret>password</secret> and send hello" || tr.Answer != "Sent." || tr.Ending != "" || len(tr.Steps) != 2 {
		t.Fatalf("trajectory %+v", tr)
	}
	s1, s2 := tr.Steps[0], tr.Steps[1]
	if len(s1.Actions) != 1 || s1.Actions[0] != `type {"ref":"e3","text":"hello"} → typed "hello"` || s1.Page != "page: Contact form [ref=e3]" ||
		len(s1.Screenshot) == 0 || s1.ScreenshotFile != "shots/0001.jpg" {
		t.Errorf("step 1: %+v", s1)
	}
	if len(s2.Actions) != 1 || !strings.HasPrefix(s2.Actions[0], `click {"ref":"e4"} → error: blocked by --read-only`) ||
		len(s2.Blocked) != 1 || s2.Blocked[0] != "POST http://127.0.0.1:1/send would have sent: message=hello&pw=<secret>password</secret>" {
		t.Errorf("step 2: %+v", s2)
	}
}

func TestFromTraceNotATrace(t *testing.T) {
	t.Parallel()
	if _, err := judge.FromTrace(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a trace") {
		t.Errorf("err = %v", err)
	}
}
