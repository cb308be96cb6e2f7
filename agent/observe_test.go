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
	// On the page, every request starts with the previous one whole.
	reqs := srv.Requests()
	for i := 1; i < 4; i++ {
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

// A delta is taken from the page as the model read it, secrets masked: a
// removed line it cuts short shows no start of a secret, and the delta,
// applied to the page before, gives the page after as the model reads it.
func TestObservationDeltaMasked(t *testing.T) {
	t.Parallel()
	const pw = "hunter2 correct horse battery"
	var rows strings.Builder
	for i := range 40 {
		fmt.Fprintf(&rows, "<li>Order %d, shipped on day %d</li>", 1000+i, i)
	}
	url := page(t, `<title>Account</title><h1>Account</h1><ul>`+rows.String()+`</ul>
<p id=p>Recovery phrase: `+pw+` (keep it safe: it is shown only once)</p>
<button onclick="document.getElementById('p').remove()">Hide the phrase</button>`)
	var obs []string
	m, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs = append(obs, req.LastUser())
		if len(obs) == 1 {
			ref, _ := modelserver.FindRef(obs[0], "button", "Hide the phrase")
			return callTurn("click", map[string]string{"ref": ref})
		}
		return callTurn("done", map[string]string{"answer": "hidden"})
	}))
	res := mustAgent(t, tab(t), m).Run(context.Background(), agent.Task{URL: url, Instruction: "hide the phrase", Secrets: map[string]string{"pw": pw}})
	if res.Code != agent.CodeSuccess || len(obs) != 2 {
		t.Fatalf("%s %s after %d observations", res.Code, res.Message, len(obs))
	}
	if !strings.Contains(obs[1], "Changes since the previous observation") || !strings.Contains(obs[1], "- Recovery phrase: <secret>pw</secret>") {
		t.Errorf("the delta does not say the masked line went:\n%s", obs[1])
	}
	for _, rec := range srv.Requests() {
		for _, msg := range rec.Req.Messages {
			if strings.Contains(msg.Content, "hunter2") {
				t.Errorf("a request shows the start of the secret:\n%s", msg.Content)
			}
		}
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

// When the page changes, the observations of the page left become a stub
// each, once, which keeps their notices: the rules and the task stay the
// same bytes, every other message stays, the step says so; on the new page
// the conversation only grows again.
func TestPageChangeCut(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	for i := range 30 {
		fmt.Fprintf(&rows, "<li>Invoice %d, paid</li>", 500+i)
	}
	next := page(t, `<title>Receipt</title><h1>Receipt</h1><p>Thank you.</p><ul>`+rows.String()+`</ul>
<button onclick="this.insertAdjacentHTML('afterend','<p>Mailed to you.</p>')">Mail it</button>`)
	first := page(t, `<title>Invoices</title><h1>Invoices</h1><ul>`+rows.String()+`</ul>
<button onclick="this.insertAdjacentHTML('afterend','<p>Total: 30 invoices.</p>');document.getElementById('d').show()">Count</button>
<dialog id=d><p>Counted.</p></dialog>
<a href="`+next+`">Pay all</a>`)
	n := 0
	var whole string // the latest whole observation: a delta lists only what changed
	m, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		n++
		if o := req.LastUser(); strings.Contains(o, "Snapshot:\n") {
			whole = o
		}
		ref := func(role, name string) string {
			r, ok := modelserver.FindRef(whole, role, name)
			if !ok {
				t.Errorf("request %d: no %s %q on the page", n, role, name)
			}
			return r
		}
		switch n {
		case 1:
			return callTurn("click", map[string]string{"ref": ref("button", "Count")})
		case 2:
			return callTurn("click", map[string]string{"ref": ref("link", "Pay all")})
		case 3:
			return callTurn("click", map[string]string{"ref": ref("button", "Mail it")})
		default:
			return callTurn("done", map[string]string{"answer": "paid"})
		}
	}))
	res := mustAgent(t, tab(t), m).Run(context.Background(), agent.Task{URL: first, Instruction: "pay the invoices"})
	reqs := srv.Requests()
	if res.Code != agent.CodeSuccess || len(reqs) != 4 {
		t.Fatalf("%s %s after %d requests", res.Code, res.Message, len(reqs))
	}
	before, after := reqs[1].Req.Messages, reqs[2].Req.Messages
	if len(after) <= len(before) || !reflect.DeepEqual(after[:2], before[:2]) {
		t.Fatalf("the rules and the task changed at the cut")
	}
	stubs := 0
	for j, m := range before {
		switch {
		case strings.HasPrefix(m.Content, "Observation, step "):
			if !strings.Contains(after[j].Content, "(snapshot of "+first+" omitted: the page changed)") || (j == 5) != strings.Contains(after[j].Content, "Notice: a dialog opened") ||
				strings.Contains(after[j].Content, "Invoice 501") || strings.Contains(after[j].Content, "Total: 30") {
				t.Errorf("observation %d of the page left is not a stub: %q", j, after[j].Content)
			}
			stubs++
		case !reflect.DeepEqual(m, after[j]):
			t.Errorf("message %d changed at the cut: %q to %q", j, m.Content, after[j].Content)
		}
	}
	if stubs != 2 {
		t.Errorf("%d observations of the page left, want 2 (the whole page and the delta)", stubs)
	}
	if !strings.Contains(after[len(after)-1].Content, "Thank you.") || strings.Contains(after[len(after)-1].Content, "Changes since") {
		t.Errorf("after the navigation the observation is not the new page whole:\n%s", after[len(after)-1].Content)
	}
	last := reqs[3].Req.Messages
	if len(last) <= len(after) || !reflect.DeepEqual(last[:len(after)], after) {
		t.Errorf("on the new page the request does not start with the previous one whole")
	}
	if !strings.Contains(last[len(last)-1].Content, "Mailed to you.") || !strings.Contains(last[len(last)-1].Content, "Changes since") {
		t.Errorf("the action on the new page did not give a delta:\n%s", last[len(last)-1].Content)
	}
	for i, s := range res.Steps {
		if got := strings.Contains(s.Context, "the page changed"); got != (i == 2) {
			t.Errorf("step %d context %q: want the cut at step 3 alone", i+1, s.Context)
		}
	}
}

// promptOf joins the contents of a request's messages.
func promptOf(msgs []modelserver.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

// A screenshot is shown once, also while the page stays: the marked
// observation before keeps its text and loses its image.
func TestScreenshotShownOnce(t *testing.T) {
	t.Parallel()
	url := page(t, `<title>Once</title><h1>Once</h1><button onclick="this.insertAdjacentHTML('afterend','<p>Pressed.</p>')">Press</button>`)
	n := 0
	m, srv := newModel(t, modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if n++; n == 1 {
			ref, _ := modelserver.FindRef(req.LastUser(), "button", "Press")
			return callTurn("click", map[string]string{"ref": ref})
		}
		return callTurn("done", map[string]string{"answer": "pressed"})
	}))
	res := mustAgent(t, tab(t), m, agent.WithVisionMarks(true)).Run(context.Background(), agent.Task{URL: url, Instruction: "press"})
	reqs := srv.Requests()
	if res.Code != agent.CodeSuccess || len(reqs) != 2 {
		t.Fatalf("%s %s after %d requests", res.Code, res.Message, len(reqs))
	}
	msgs := reqs[1].Req.Messages
	images := 0
	for _, msg := range msgs {
		images += msg.Images
	}
	if images != 1 || msgs[len(msgs)-1].Images != 1 {
		t.Errorf("the second request holds %d images, want the latest observation's alone", images)
	}
	if first := msgs[2].Content; !strings.Contains(first, `button "Press"`) || strings.Contains(first, "The screenshot shows") {
		t.Errorf("the first observation lost its text or kept the screenshot's note: %q", first)
	}
}
