package agent_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
)

// After an action that stays on the page, the model reads what changed:
// a dialog that opened comes with its text and buttons, whose refs click;
// the snapshot tool brings the whole page back, and a navigation always
// does. Every request starts with the previous one, whole.
func TestObservationDeltas(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	for i := range 40 {
		fmt.Fprintf(&rows, "<li>Order %d, shipped on day %d</li>", 1000+i, i)
	}
	next := page(t, `<title>Next</title><h1>Next page</h1><p>Arrived.</p>`)
	url := page(t, `<title>Account</title><h1>Account</h1><ul>`+rows.String()+`</ul>
<button onclick="document.getElementById('d').showModal()">Delete account</button>
<dialog id=d><p>Delete your account for good?</p><button onclick="this.closest('dialog').close()">Cancel</button><button>Delete</button></dialog>
<a href="`+next+`">Next page</a>`)

	var obs []string
	m, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		o := req.LastUser()
		obs = append(obs, o)
		ref := func(role, name string) string {
			r, ok := modelserver.FindRef(o, role, name)
			if !ok {
				t.Errorf("observation %d has no %s %q:\n%s", len(obs), role, name, o)
			}
			return r
		}
		switch len(obs) {
		case 1:
			return callTurn("click", map[string]string{"ref": ref("button", "Delete account")})
		case 2:
			return callTurn("click", map[string]string{"ref": ref("button", "Cancel")})
		case 3:
			return callTurn("snapshot", map[string]bool{"full": true})
		case 4:
			return callTurn("click", map[string]string{"ref": ref("link", "Next page")})
		default:
			return callTurn("done", map[string]string{"answer": "seen"})
		}
	}))
	pages := &pageTracer{}
	res := mustAgent(t, tab(t), m, agent.WithTracer(pages)).Run(context.Background(), agent.Task{URL: url, Instruction: "look around"})
	if res.Code != agent.CodeSuccess || len(obs) != 5 {
		t.Fatalf("%s %s after %d observations", res.Code, res.Message, len(obs))
	}
	const whole, delta = "Snapshot:\n", "Changes since the previous observation"
	for i, want := range []string{whole, delta, delta, whole, whole} {
		if !strings.Contains(obs[i], want) {
			t.Errorf("observation %d is not %q:\n%s", i+1, want, obs[i])
		}
	}
	for _, s := range []string{"Delete your account for good?", `button "Cancel"`, `button "Delete"`} {
		if !strings.Contains(obs[1], s) {
			t.Errorf("the delta after the dialog opened lacks %s:\n%s", s, obs[1])
		}
	}
	if len(obs[1]) >= len(obs[0])/2 {
		t.Errorf("the delta (%d bytes) is not much smaller than the page (%d bytes)", len(obs[1]), len(obs[0]))
	}
	if !strings.Contains(obs[4], "Arrived.") || !strings.Contains(obs[4], "URL changed") {
		t.Errorf("after the navigation the observation is not the new page whole:\n%s", obs[4])
	}
	reqs := srv.Requests()
	for i := 1; i < len(reqs); i++ {
		prev, cur := reqs[i-1].Req.Messages, reqs[i].Req.Messages
		if len(cur) < len(prev) || !reflect.DeepEqual(cur[:len(prev)], prev) {
			t.Errorf("request %d does not start with request %d whole", i+1, i)
		}
	}
	if res.Usage.PrefixTokens == 0 || res.Usage.CachedTokens == 0 || res.Usage.PrefixTokens > res.Usage.PromptTokens {
		t.Errorf("usage %+v: want prefix and cached tokens within the prompt's", res.Usage)
	}
	// The trace keeps the whole page a delta stands for: replay finds
	// elements there.
	if len(pages.pages) != 5 || !strings.Contains(pages.pages[1], "Order 1039") || pages.pages[0] != "" {
		t.Errorf("the traced pages: %d, the delta's whole page %.200q", len(pages.pages), pages.pages[1:])
	}
	if !res.Steps[1].Delta || res.Steps[3].Delta {
		t.Errorf("steps' delta flags: %v %v, want true false", res.Steps[1].Delta, res.Steps[3].Delta)
	}
}

// pageTracer keeps ModelCall.Page of each model call.
type pageTracer struct {
	mu    sync.Mutex
	pages []string
}

func (p *pageTracer) TraceSnapshot(context.Context, int)    {}
func (p *pageTracer) TraceStep(context.Context, agent.Step) {}
func (p *pageTracer) TraceModel(mc agent.ModelCall) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pages = append(p.pages, mc.Page)
}

// Past the context limit the conversation is cut once, in one place:
// older observations keep their header, the next one is whole, and the
// step says so.
func TestContextCut(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	for i := range 60 {
		fmt.Fprintf(&rows, "<li>Order %d, shipped on day %d</li>", 1000+i, i)
	}
	url := page(t, `<title>Orders</title><h1>Orders</h1><ul>`+rows.String()+`</ul>`)
	n := 0
	m, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		n++
		if n == 3 {
			return callTurn("done", map[string]string{"answer": "ok"})
		}
		return callTurn("snapshot", map[string]bool{"full": n == 1})
	}))
	a := mustAgent(t, tab(t), m, agent.WithLimits(agent.Limits{MaxContextTokens: 1500}))
	res := a.Run(context.Background(), agent.Task{URL: url, Instruction: "read the orders"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s %s", res.Code, res.Message)
	}
	cuts := 0
	for _, s := range res.Steps {
		if s.Context != "" {
			cuts++
		}
	}
	if cuts == 0 || cuts == len(res.Steps) {
		t.Errorf("%d cuts in %d steps, want a cut, not one every step", cuts, len(res.Steps))
	}
	last := srv.Requests()[len(srv.Requests())-1].Req.Messages
	whole := 0
	for _, msg := range last {
		if strings.Contains(msg.Content, "Snapshot:\n") {
			whole++
		}
		if strings.Contains(msg.Content, "(snapshot omitted") && strings.Contains(msg.Content, "Order 1001") {
			t.Errorf("a cut observation kept its page text")
		}
	}
	if whole != 1 {
		t.Errorf("the last request holds %d whole snapshots, want the one after the cut", whole)
	}
}
