package liveview_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/routine"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// accessCode is what only the person knows.
const accessCode = "583920"

// codeForm is a site where a button opens a form, the code typed there is
// sent with Enter, and a last button finishes: it records the codes sent
// and the finishes.
type codeForm struct {
	mu       sync.Mutex
	codes    []string
	finished int
}

func (s *codeForm) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	const style = `<style>body{margin:0} h1{margin:8px 40px;font-size:20px} .at{position:absolute;left:40px;top:60px;width:220px;height:34px}</style>`
	switch r.URL.Path {
	case "/form":
		fmt.Fprint(w, style+`<title>Code</title><h1>Your access code</h1>
			<form method="post" action="/send"><label>Access code <input class="at" name="code"></label></form>`)
	case "/send":
		_ = r.ParseForm()
		s.mu.Lock()
		s.codes = append(s.codes, r.PostForm.Get("code"))
		s.mu.Unlock()
		fmt.Fprint(w, style+`<title>Received</title><h1>Code received</h1><form method="post" action="/finish"><button class="at">Finish</button></form>`)
	case "/finish":
		s.mu.Lock()
		s.finished++
		s.mu.Unlock()
		fmt.Fprint(w, style+`<title>Done</title><h1>All set</h1>`)
	default:
		fmt.Fprint(w, style+`<title>Welcome</title><h1>Welcome</h1><form action="/form"><button class="at">Begin</button></form>`)
	}
}

func (s *codeForm) state() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.codes...), s.finished
}

// TestTakeoverSavedAsRoutine: a person takes over, clicks a button, types
// a code into a field and presses Enter, and hands back; the model
// finishes. The takeover's record has the person's steps by element and
// the code nowhere in the trace; saved as a routine, they are steps of the
// program (the code a secret by name), and the routine, given the secret,
// does it all again with no model.
func TestTakeoverSavedAsRoutine(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site := &codeForm{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	firstAsked, goOn := make(chan struct{}), make(chan struct{})
	var once sync.Once
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		switch last := req.LastUser(); {
		case strings.Contains(last, "All set"):
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "finished"})}}
		case strings.Contains(last, "Code received"):
			ref, _ := modelserver.FindRef(last, "button", "Finish")
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
		}
		once.Do(func() { close(firstAsked) })
		<-goOn
		ref, _ := modelserver.FindRef(req.LastUser(), "button", "Begin")
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
	defer m.CloseIdleConnections()

	lv := serve(t, liveview.Config{})
	view := lv.Open(liveview.Options{Title: "test run", Idle: 50 * time.Second})
	defer view.Close()
	b := chrome.Tab(t)
	view.Attach(b)
	dir := filepath.Join(t.TempDir(), "trace")
	task := agent.Task{URL: srv.URL + "/", Instruction: "hand in the code and complete it"}
	h, mask := trace.TaskHeader(task, trace.ModelInfo{Name: "scripted"})
	tw, err := trace.Create(dir, h, trace.Options{Masker: mask})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(b, m, agent.WithObserver(view), agent.WithControl(view.Lease()), agent.WithTracer(tw),
		agent.WithLimits(agent.Limits{IterationTimeout: 60 * time.Second, TaskTimeout: 3 * time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *agent.Result, 1)
	go func() { done <- a.Run(context.Background(), task) }()
	defer func() {
		select {
		case <-goOn:
		default:
			close(goOn)
		}
		res := <-done
		done <- res
	}()

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
	close(goOn) // the model answers; its click is not run
	waitJS(t, vctx, `document.getElementById('controlstate').textContent.includes('You have control')`, 30*time.Second)

	clickScreen(t, vctx, 120, 75) // Begin
	waitPage(t, b, `document.title === 'Code' && document.readyState === 'complete'`)
	clickScreen(t, vctx, 120, 75) // the field
	typeKeys(t, vctx, accessCode)
	typeKeys(t, vctx, "\r") // Enter sends the form
	waitPage(t, b, `document.title === 'Received'`)
	click(t, vctx, "#handback")

	var res *agent.Result
	select {
	case res = <-done:
		done <- res
	case <-time.After(90 * time.Second):
		t.Fatal("the run did not end after the hand back")
	}
	if err := tw.End(context.Background(), res); err != nil {
		t.Fatal(err)
	}
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	if codes, fin := site.state(); len(codes) != 1 || codes[0] != accessCode || fin != 1 {
		t.Fatalf("the site got codes %q and %d finishes, want the person's code once and one finish", codes, fin)
	}

	// The takeover's record: the person's steps by element, the code by
	// the name of its secret.
	var took *agent.ActionRecord
	for _, s := range res.Steps {
		for i := range s.Actions {
			if s.Actions[i].Tool == agent.ToolTakeover {
				took = &s.Actions[i]
			}
		}
	}
	if took == nil {
		t.Fatalf("no takeover step: %+v", res.Steps)
	}
	var got []string
	for _, c := range took.Calls {
		el := ""
		if c.Element != nil {
			el = fmt.Sprintf("%s %q ", c.Element.Role, c.Element.Name)
		}
		got = append(got, c.Tool+" "+el+refValue.ReplaceAllString(string(c.Args), `"ref":"…"`))
	}
	want := []string{ // a ref when a snapshot gave the element one (Begin's, the model saw)
		`click button "Begin" {"ref":"…"}`,
		`type textbox "Access code" {"ref":"…","text":"<secret>TYPED_BY_PERSON_1</secret>"}`,
		`press {"key":"Enter"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the takeover's calls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if hits := folderHas(t, dir, accessCode); len(hits) > 0 {
		t.Errorf("the code the person typed is in %v", hits)
	}
	for _, r := range model.Requests() {
		if strings.Contains(string(r.Req.Raw), accessCode) {
			t.Errorf("a model request holds the code")
		}
	}

	// Saved as a routine: the person's steps among the model's.
	tr, err := trace.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := routine.FromTrace(tr, routine.SaveOptions{Name: "hand-in-code", Source: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("v1.js:\n%s", r.Program)
	for _, w := range []string{
		`// A person typed TYPED_BY_PERSON_1 in a takeover: give each by name when it runs`,
		`start("` + srv.URL + `/");` + "\n" + `click({role: "button", name: "Begin"});` + "\n" +
			`type({role: "textbox", name: "Access code"}, secret("TYPED_BY_PERSON_1"));` + "\n" +
			`press("Enter");` + "\n" + `click({role: "button", name: "Finish"});` + "\n" +
			`return expect({url: "/finish", text: "All set"});`,
	} {
		if !strings.Contains(r.Program, w) {
			t.Errorf("the program lacks\n%s", w)
		}
	}
	if strings.Join(r.Secrets, ",") != "TYPED_BY_PERSON_1" {
		t.Errorf("the routine's secrets %v, want TYPED_BY_PERSON_1", r.Secrets)
	}
	store, err := routine.Open(filepath.Join(t.TempDir(), "routines"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Create(r); err != nil {
		t.Fatal(err)
	}
	if hits := folderHas(t, store.Dir(), accessCode); len(hits) > 0 {
		t.Errorf("the code is in the routine's %v", hits)
	}

	// It runs, given the secret by name, with no model, and the site sees
	// it all again.
	before := len(model.Requests())
	b2 := chrome.Browser(t, browser.Options{})
	ra, err := agent.New(b2, m, agent.WithTools(routine.Tool(store, r, routine.ToolOptions{})), agent.WithRecording(routine.Drive(r, nil)),
		agent.WithLimits(agent.Limits{MaxIterations: 5, IterationTimeout: 60 * time.Second, TaskTimeout: 2 * time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	rr := ra.Run(context.Background(), agent.Task{URL: srv.URL + "/", Instruction: "Run the routine hand-in-code",
		Secrets: map[string]string{"TYPED_BY_PERSON_1": accessCode}})
	if rr.Code != agent.CodeSuccess || !strings.Contains(rr.Answer, "All set") {
		t.Fatalf("the routine's run: %s %s %s", rr.Code, rr.Message, rr.Answer)
	}
	if n := len(model.Requests()) - before; n != 0 {
		t.Errorf("the routine's run made %d model calls, want 0", n)
	}
	if codes, fin := site.state(); len(codes) != 2 || codes[1] != accessCode || fin != 2 {
		t.Errorf("after the routine the site got codes %q and %d finishes, want the code twice and two finishes", codes, fin)
	}
	if raw, _ := json.Marshal(rr); strings.Contains(string(raw), accessCode) {
		t.Errorf("the routine's result holds the code")
	}
}

// refValue is a call's ref, which differs from run to run.
var refValue = regexp.MustCompile(`"ref":"[^"]*"`)

// waitPage waits, within 20 s, until expr is true in b's page; a page
// left while it waits is waited on again in the next one.
func waitPage(t *testing.T, b *browser.Browser, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	js := fmt.Sprintf(`new Promise((ok) => { const f = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(f, 20); }; f(); })`, expr)
	for {
		_, err := b.Eval(ctx, js)
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("waiting in the page for %s: %v", expr, err)
		}
	}
}

// folderHas lists the files under dir that hold s.
func folderHas(t *testing.T, dir, s string) []string {
	t.Helper()
	var hits []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), s) {
			hits = append(hits, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}
