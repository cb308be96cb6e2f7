package liveview_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// secondFactor is the code only the person knows.
const secondFactor = "493817"

// codeSite asks for a second factor; it records the codes posted.
func codeSite(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var posted []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.Method == http.MethodPost {
			_ = r.ParseForm()
			mu.Lock()
			posted = append(posted, r.PostForm.Get("code"))
			mu.Unlock()
			if r.PostForm.Get("code") == secondFactor {
				fmt.Fprint(w, `<title>Account</title><h1>Signed in</h1><p>Balance: 42 EUR</p>`)
				return
			}
			fmt.Fprint(w, `<title>Wrong</title><h1>Wrong code</h1>`)
			return
		}
		fmt.Fprint(w, `<title>Second factor</title><style>body{margin:0} #code{position:absolute;left:40px;top:60px;width:220px;height:30px}
			#go{position:absolute;left:40px;top:120px;width:120px;height:30px}</style>
			<h1 style="margin:8px 40px;font-size:20px">Enter the code we sent you</h1>
			<form method="post" action="/verify"><label>Verification code <input id="code" name="code" autocomplete="one-time-code"></label>
			<button id="go">Verify</button></form>`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), posted...)
	}
}

// TestTakeoverSecondFactor: a person watching the run takes over, types a
// code the model cannot know into the page through the viewer, submits it
// and hands back; the agent finishes. The brief reaches the model's next
// request and the code reaches no request at all; the call the model made
// while the person asked for control was not run.
func TestTakeoverSecondFactor(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site, posted := codeSite(t)
	firstAsked := make(chan struct{})
	goOn := make(chan struct{})
	var once sync.Once
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastUser(), "Signed in") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "signed in"})}}
		}
		once.Do(func() { close(firstAsked) })
		<-goOn
		ref, _ := modelserver.FindRef(req.LastUser(), "button", "Verify")
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
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
	view := srv.Open(liveview.Options{Title: "test run", Task: "sign in", Idle: 50 * time.Second})
	defer view.Close()
	b := chrome.Tab(t)
	view.Attach(b)
	a, err := agent.New(b, m, agent.WithObserver(view), agent.WithControl(view.Lease()), agent.WithHuman(view, 50*time.Second),
		agent.WithLimits(agent.Limits{IterationTimeout: 60 * time.Second, TaskTimeout: 3 * time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *agent.Result, 1)
	go func() {
		done <- a.Run(context.Background(), agent.Task{URL: site.URL + "/", Instruction: "sign in and tell me when you are in"})
	}()
	defer func() { close(goOn); <-done }()

	_, control := view.URLs()
	vctx := viewer(t, control)
	waitJS(t, vctx, `window.__lv.frames > 0`, 30*time.Second)
	select {
	case <-firstAsked:
	case <-time.After(60 * time.Second):
		t.Fatal("the model was never asked")
	}
	click(t, vctx, "#take")
	waitJS(t, vctx, `document.getElementById('controlstate').textContent.includes('Taking over')`, 10*time.Second)
	goOn <- struct{}{} // the model answers; its click must not run
	waitJS(t, vctx, `document.getElementById('controlstate').textContent.includes('You have control')`, 30*time.Second)

	clickScreen(t, vctx, 100, 75)
	typeKeys(t, vctx, secondFactor)
	clickScreen(t, vctx, 100, 135)
	waitJS(t, vctx, `[...document.querySelectorAll('#events div')].some(d => d.textContent.includes('/verify'))`, 20*time.Second)
	click(t, vctx, "#note")
	typeKeys(t, vctx, "I entered the code")
	click(t, vctx, "#handback")

	var res *agent.Result
	select {
	case res = <-done:
		done <- res
	case <-time.After(90 * time.Second):
		t.Fatal("the run did not end after the hand back")
	}
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if got := posted(); len(got) != 1 || got[0] != secondFactor {
		t.Errorf("the site got codes %q, want only the person's", got)
	}
	var brief string
	for _, r := range model.Requests() {
		body := string(r.Req.Raw)
		if strings.Contains(body, secondFactor) {
			t.Errorf("a model request holds the code the person typed:\n%s", body)
		}
		if strings.Contains(body, "A person had control") {
			brief = body
		}
	}
	for _, want := range []string{"/verify", "I entered the code", `textbox \"Verification code\"`} {
		if !strings.Contains(brief, want) {
			t.Errorf("the brief the model got lacks %q:\n%s", want, brief)
		}
	}
	var took, skipped bool
	for _, s := range res.Steps {
		for _, act := range s.Actions {
			took = took || act.Tool == agent.ToolTakeover
			skipped = skipped || (act.Tool == "click" && act.Skipped && strings.Contains(act.Outcome, "a person took control"))
		}
	}
	if !took || !skipped {
		t.Errorf("steps: takeover recorded %v, the model's click not run %v: %+v", took, skipped, res.Steps)
	}
	if strings.Contains(fmt.Sprint(res), secondFactor) {
		t.Errorf("the result holds the code")
	}
}

// TestHandoverForHumanCheck: a page shows a challenge only a person may
// pass; with a live view the agent asks for a person in the page instead
// of ending BLOCKED, the person takes over, passes it and hands back, and
// the task goes on.
func TestHandoverForHumanCheck(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Just a moment...</title><style>body{margin:0}#v{position:absolute;left:40px;top:60px;width:200px;height:40px}</style>
			<div id=challenge-stage><p>Checking if the site connection is secure</p>
			<button id=v onclick="document.title='Shop';document.body.innerHTML='<h1>Welcome to the shop</h1>'">Verify you are human</button></div>`)
	}))
	defer site.Close()
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastUser(), "Welcome to the shop") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "in"})}}
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
	view := srv.Open(liveview.Options{Idle: 50 * time.Second})
	defer view.Close()
	b := chrome.Tab(t)
	view.Attach(b)
	_, control := view.URLs()
	vctx := viewer(t, control)
	a, err := agent.New(b, m, agent.WithObserver(view), agent.WithControl(view.Lease()),
		agent.WithLimits(agent.Limits{IterationTimeout: 60 * time.Second, HumanTimeout: 50 * time.Second, TaskTimeout: 3 * time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *agent.Result, 1)
	go func() {
		done <- a.Run(context.Background(), agent.Task{URL: site.URL + "/", Instruction: "open the shop"})
	}()
	waitJS(t, vctx, `!document.getElementById('banner').hidden && document.getElementById('banner').textContent.includes('Cloudflare')`, time.Minute)
	click(t, vctx, "#take")
	waitJS(t, vctx, `document.getElementById('controlstate').textContent.includes('You have control')`, 30*time.Second)
	waitJS(t, vctx, `window.__lv.frames > 0`, 30*time.Second)
	clickScreen(t, vctx, 140, 80)
	waitJS(t, vctx, `document.getElementById('handback') && !document.getElementById('handback').hidden`, 10*time.Second)
	click(t, vctx, "#handback")
	var res *agent.Result
	select {
	case res = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not end")
	}
	if res.Code != agent.CodeSuccess || res.Answer != "in" {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if len(res.Steps) != 3 || res.Steps[1].Actions[0].Tool != agent.ToolTakeover {
		t.Fatalf("want the check's step, the takeover and done; got %+v", res.Steps)
	}
	if held := res.Steps[1].Actions[0].MS; held > 40_000 {
		t.Errorf("the takeover took %d ms: the agent did not see the person take over", held)
	}
}
