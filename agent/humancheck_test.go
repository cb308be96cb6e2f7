package agent_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
)

// A challenge page that stays, with nobody to ask: the task ends BLOCKED,
// naming the check, after the grace of one iteration; the model is never
// asked to solve it.
func TestHumanCheckBlocksWithoutPerson(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, `<title>Just a moment...</title><h1>shop.example</h1><p>Checking if the site connection is secure</p><div id=challenge-stage></div>`)
	model, srv := newModel(t, modelserver.Script(call("wait", map[string]any{"seconds": 1}), done("never")))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "buy a mug"})
	if res.Code != agent.CodeBlocked || !strings.Contains(res.Message, "Cloudflare challenge") || !strings.Contains(res.Message, url) {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model was asked %d times, want once (the grace iteration)", len(reqs))
	}
	if first := reqs[0].Req.LastUser(); !strings.Contains(first, "human check: Cloudflare challenge") {
		t.Errorf("the model was not told of the check:\n%s", first)
	}
	if sys := reqs[0].Req.Messages[0].Content; !strings.Contains(sys, "never try to solve it") {
		t.Errorf("the system prompt does not say to leave checks alone:\n%s", sys)
	}
}

// A challenge page that passes by itself (as Cloudflare's does for an
// ordinary browser) is waited for, and the task goes on.
func TestHumanCheckThatPassesByItself(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, `<title>Just a moment...</title><div id=challenge-stage><p>Checking your browser</p></div>
<script>setTimeout(() => { document.title = 'Shop'; document.body.innerHTML = '<h1>Welcome to the shop</h1>'; }, 300)</script>`)
	model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastUser(), "Welcome to the shop") {
			return done("in")
		}
		return call("wait_for", map[string]any{"text": "Welcome"})
	}))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "open the shop"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
}

// A CAPTCHA inside a form the task needs: without a person, a model that
// gives up ends the task BLOCKED, not AGENT_FAILED.
func TestHumanCheckGivenUpIsBlocked(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, `<title>Contact</title><form><label>Message <textarea></textarea></label>`+
		`<div class=h-captcha data-sitekey=k style="width:303px;height:78px"></div><button>Send</button></form>`+
		strings.Repeat("<p>Our office is open from nine to five on weekdays, and we answer every message.</p>", 30))
	model, _ := newModel(t, modelserver.Script(call("fail", map[string]any{"reason": "the form needs a CAPTCHA"})))
	res := mustAgent(t, br, model).Run(context.Background(), agent.Task{URL: url, Instruction: "send a message"})
	if res.Code != agent.CodeBlocked || !strings.Contains(res.Message, "hCaptcha") {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
}

// With a person, the model hands over: the question carries the page's
// address and the check's name, and the task goes on with the answer.
func TestHumanCheckHandedOver(t *testing.T) {
	t.Parallel()
	br := tab(t)
	url := page(t, `<title>Sorry</title><p>Unusual traffic from your network.</p><div class=g-recaptcha style="width:304px;height:78px"></div>`)
	model, _ := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastTool(), `"answered"`) {
			return done("passed")
		}
		return call("ask_human", map[string]any{"question": "Please pass the check."})
	}))
	var asked atomic.Value
	human := agent.HumanFunc(func(ctx context.Context, q string) (string, error) {
		asked.Store(q)
		return "done", nil
	})
	res := mustAgent(t, br, model, agent.WithHuman(human, 5*time.Second)).Run(context.Background(), agent.Task{URL: url, Instruction: "search"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("got %s: %s", res.Code, res.Message)
	}
	q, _ := asked.Load().(string)
	if !strings.Contains(q, url) || !strings.Contains(q, "reCAPTCHA") {
		t.Fatalf("the person was asked %q, want the page's address and the check", q)
	}
}
