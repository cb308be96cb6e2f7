package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/mcptask"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/testfixture/chrometest"
	"github.com/webagent/webagent/testfixture/tier"
)

// viewerChrome is the Chromium a person watches live views in.
var viewerChrome chrometest.Shared

// told are the links a Server handed to Config.OnLive, by title.
type told struct {
	mu    sync.Mutex
	links map[string][2]string
}

func (o *told) onLive(title, view, control string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.links == nil {
		o.links = map[string][2]string{}
	}
	o.links[title] = [2]string{view, control}
}

func (o *told) get() map[string][2]string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := map[string][2]string{}
	for k, v := range o.links {
		out[k] = v
	}
	return out
}

// liveServer starts a live view server for t.
func liveServer(t *testing.T) *liveview.Server {
	t.Helper()
	srv, err := liveview.Start(liveview.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Close(ctx); err != nil {
			t.Errorf("closing the live view server: %v", err)
		}
	})
	return srv
}

// liveOf reads the view's links from a _meta.
func liveOf(meta map[string]any) (view, control string) {
	m, _ := meta["webagent/live"].(map[string]any)
	view, _ = m["view"].(string)
	control, _ = m["control"].(string)
	return view, control
}

// tokenOf is a link's token.
func tokenOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("t") == "" {
		t.Fatalf("%q is no live view link", link)
	}
	return u.Query().Get("t")
}

// noTokens fails t when a model request, or what the client's model
// reads of a result, holds a token of the links.
func noTokens(t *testing.T, model *modelserver.Server, res *mcp.CallToolResult, links ...string) {
	t.Helper()
	var content strings.Builder
	if res != nil {
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				content.WriteString(tc.Text)
			}
		}
		b, _ := json.Marshal(res.StructuredContent)
		content.Write(b)
	}
	for _, l := range links {
		tok := tokenOf(t, l)
		for i, r := range model.Requests() {
			if strings.Contains(string(r.Req.Raw), tok) {
				t.Errorf("model request %d holds a live view token", i)
			}
		}
		if strings.Contains(content.String(), tok) {
			t.Errorf("the result's content holds a live view token: %s", content.String())
		}
	}
}

func getStatus(link string) int {
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(link)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestLiveTaskConfirm: run_task as a task with live views. The task's
// state carries the view's links in _meta from its start; the policy's
// question goes both to the client (an input request, left unanswered)
// and to the page, where a person answers yes; the order is placed and the
// task ends with the run's answer. No model request, and nothing the
// client's model reads, holds a token; the view ends with the task.
func TestLiveTaskConfirm(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shop, orders := checkout(t)
	model := orderingServer(t)
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	allowed, _ := contract.ParseDomainPatterns("127.0.0.1")
	ask, _ := policy.Presets("purchases")
	var onLive told
	s := mcpserver.New(mcpserver.Config{
		Policy: contract.NavigationPolicy{Allowed: allowed}, Model: client, Actions: ask,
		Limits: agent.Limits{OperationTimeout: 10 * time.Second, IterationTimeout: 60 * time.Second, HumanTimeout: 45 * time.Second},
		Live:   liveServer(t), OnLive: onLive.onLive,
	})
	t.Cleanup(func() { _ = s.Close() })
	cs := taskClient(t, s, nil, "2025-11-25")
	id := startTask(t, cs, map[string]any{"url": shop, "task": "order the mug"})

	task := pollTask(t, cs, id, "the view's links in its _meta", func(task *mcptask.Task) bool {
		_, c := liveOf(task.Meta)
		return c != ""
	})
	_, control := liveOf(task.Meta)
	if strings.Contains(task.StatusMessage, tokenOf(t, control)) {
		t.Errorf("the task's status message holds the token: %q", task.StatusMessage)
	}
	if got := onLive.get()["task "+id[:8]]; got[1] != control {
		t.Errorf("OnLive was told %v, want the task's control link", onLive.get())
	}
	vctx := pageOf(t, control)
	waitPage(t, vctx, `!document.getElementById('question').hidden && document.getElementById('qtext').textContent.includes('Place order')`, 60*time.Second)
	// The client was asked too, and does not answer.
	pollTask(t, cs, id, "the question as an input request", func(task *mcptask.Task) bool { return len(task.InputRequests) == 1 })
	if orders.Load() != 0 {
		t.Fatal("the order was placed before anyone answered")
	}
	clickPage(t, vctx, "#yes")
	task, err = mcptask.Follow(ctx(t), cs, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	var res agent.Result
	if task.Result != nil {
		b, _ := json.Marshal(task.Result.StructuredContent)
		_ = json.Unmarshal(b, &res)
	}
	if task.Status != mcptask.Completed || res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, `navigated to `+strings.TrimSuffix(shop, "/")+`/order`) {
		t.Fatalf("task ended %s (%s), code %s, answer %q", task.Status, task.StatusMessage, res.Code, res.Answer)
	}
	if n := orders.Load(); n != 1 {
		t.Errorf("the shop got %d orders, want 1", n)
	}
	if _, c := liveOf(task.Result.Meta); c != control {
		t.Errorf("the result's _meta has the links %v", task.Result.Meta)
	}
	view, _ := liveOf(task.Result.Meta)
	noTokens(t, model, task.Result, view, control)
	waitPage(t, vctx, `!document.getElementById('result').hidden`, 20*time.Second)
	if code := getStatus(control); code != http.StatusForbidden {
		t.Errorf("the view answered %d after the task ended, want 403", code)
	}
}

// TestLiveCallAskHuman: run_task inside the call (a client before
// 2026-07-28 that asked for progress): the first progress notification
// carries the view's links in _meta, the agent's ask_human question is
// answered in the page (the client has no elicitation), and the answer
// reaches the model and the result.
func TestLiveCallAskHuman(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if res := req.LastTool(); res != "" {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": res})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("ask_human", map[string]string{"question": "Which discount code?"})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = model.Close() })
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	shop, _ := checkout(t)
	allowed, _ := contract.ParseDomainPatterns("127.0.0.1")
	s := mcpserver.New(mcpserver.Config{
		Policy: contract.NavigationPolicy{Allowed: allowed}, Model: client, Live: liveServer(t),
		Limits: agent.Limits{OperationTimeout: 50 * time.Second, IterationTimeout: 60 * time.Second, HumanTimeout: 45 * time.Second},
	})
	t.Cleanup(func() { _ = s.Close() })
	links := make(chan string, 100)
	cs, served := stdioVersion(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		if strings.Contains(req.Params.Message, "?t=") {
			t.Errorf("a progress message holds a link: %q", req.Params.Message)
		}
		if _, c := liveOf(req.Params.Meta); c != "" {
			links <- c
		}
	}}, "2025-11-25")
	defer func() {
		_ = cs.Close()
		<-served
	}()
	type called struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan called, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "run_task", Arguments: map[string]any{"url": shop, "task": "find the discount code"}}
		p.SetProgressToken("run-1")
		res, err := cs.CallTool(ctx(t), p)
		done <- called{res, err}
	}()
	var control string
	select {
	case control = <-links:
	case c := <-done:
		t.Fatalf("run_task ended before any progress: %+v, %v", c.res, c.err)
	case <-time.After(time.Minute):
		t.Fatal("no progress notification carried the live view")
	}
	vctx := pageOf(t, control)
	waitPage(t, vctx, `!document.getElementById('question').hidden && document.getElementById('qtext').textContent.includes('Which discount code?')`, 60*time.Second)
	clickPage(t, vctx, "#qanswer")
	typePage(t, vctx, "SPRING24")
	clickPage(t, vctx, "#qsend")
	var c called
	select {
	case c = <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("run_task did not end after the answer")
	}
	if c.err != nil {
		t.Fatal(c.err)
	}
	var res agent.Result
	b, _ := json.Marshal(c.res.StructuredContent)
	_ = json.Unmarshal(b, &res)
	if res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, "SPRING24") {
		t.Fatalf("run_task: code %s, answer %q", res.Code, res.Answer)
	}
	view, c2 := liveOf(c.res.Meta)
	if c2 != control {
		t.Errorf("the result's _meta has the links %v", c.res.Meta)
	}
	noTokens(t, model, c.res, view, control)
}

// TestLiveNamedSession: a browser tool call naming a session has the
// session's view in its result's _meta (and OnLive is told once); while a
// person holds control there, a call that acts on the page is refused with
// the words that say so, and after they hand back it runs.
func TestLiveNamedSession(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	page := site(t)
	allowed, _ := contract.ParseDomainPatterns("127.0.0.1")
	var onLive told
	s := mcpserver.New(mcpserver.Config{
		Policy: contract.NavigationPolicy{Allowed: allowed}, SessionDir: t.TempDir(), Limits: agent.Limits{OperationTimeout: backstop},
		Live: liveServer(t), OnLive: onLive.onLive,
	})
	t.Cleanup(func() { _ = s.Close() })
	cs, served := stdio(t, s, nil)
	defer func() {
		_ = cs.Close()
		<-served
	}()
	res, out := call(t, cs, "browser_navigate", map[string]any{"url": page, "session": "work"})
	view, control := liveOf(res.Meta)
	if res.IsError || control == "" {
		t.Fatalf("navigate in a named session: %s, _meta %v", out, res.Meta)
	}
	if strings.Contains(out, tokenOf(t, control)) || strings.Contains(out, tokenOf(t, view)) {
		t.Errorf("the content holds a token: %s", out)
	}
	ref := strings.SplitN(strings.SplitN(out, `button "Count" [ref=`, 2)[1], "]", 2)[0]
	vctx := pageOf(t, control)
	waitPage(t, vctx, `window.__lv.frames > 0`, 30*time.Second)
	clickPage(t, vctx, "#take")
	waitPage(t, vctx, `document.getElementById('controlstate').textContent.includes('You have control')`, 20*time.Second)
	res, out = call(t, cs, "browser_click", map[string]any{"ref": ref, "session": "work"})
	if !res.IsError || !strings.Contains(out, "a person has control of the browser in the live view; run the command again after they hand it back") {
		t.Errorf("a click while a person holds control: %s", out)
	}
	if _, c := liveOf(res.Meta); c != control {
		t.Errorf("the refusal's _meta: %v", res.Meta)
	}
	clickPage(t, vctx, "#handback")
	waitPage(t, vctx, `document.getElementById('controlstate').textContent.includes('The agent has control')`, 20*time.Second)
	if res, out = call(t, cs, "browser_click", map[string]any{"ref": ref, "session": "work"}); res.IsError || !strings.Contains(out, "1") {
		t.Errorf("the click after the hand back: %s", out)
	}
	if got := onLive.get(); len(got) != 1 || got["session work"][1] != control {
		t.Errorf("OnLive was told %v", got)
	}
}

// pollTask polls the task, at the protocol's interval, until cond holds;
// it fails t when the task ends first or a minute passes.
func pollTask(t *testing.T, cs *mcp.ClientSession, id, what string, cond func(*mcptask.Task) bool) *mcptask.Task {
	t.Helper()
	c := ctx(t)
	for {
		task, err := mcptask.Get(c, cs, id)
		if err != nil {
			t.Fatal(err)
		}
		if cond(task) {
			return task
		}
		if task.Status.Terminal() {
			t.Fatalf("the task ended before %s: %+v", what, task)
		}
		select {
		case <-time.After(50 * time.Millisecond): // the protocol's polling
		case <-c.Done():
			t.Fatalf("the task never showed %s", what)
		}
	}
}

// pageOf opens link in a tab of the viewer's Chromium, as a person's
// browser would; the tab closes when t ends.
func pageOf(t *testing.T, link string) context.Context {
	t.Helper()
	actx, cancelA := remote.NewAllocator(context.Background(), viewerChrome.URL(t))
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelA()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	rctx, rcancel := context.WithTimeout(ctx, 30*time.Second)
	defer rcancel()
	if err := chromedp.Do(rctx, chromedp.Navigate(link)); err != nil {
		t.Fatalf("opening the view: %v", err)
	}
	return ctx
}

// waitPage waits, within d, until expr is true in the viewer.
func waitPage(t *testing.T, ctx context.Context, expr string, d time.Duration) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	js := fmt.Sprintf(`new Promise((ok) => { const f = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(f, 20); }; f(); })`, expr)
	if _, err := chromedp.Run(wctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		bctx, bcancel := context.WithTimeout(ctx, 5*time.Second)
		defer bcancel()
		body, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("waiting in the viewer for %s: %v\n%s", expr, err, body)
	}
}

// clickPage clicks the viewer's element (a person's mouse).
func clickPage(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s in the viewer: %v", sel, err)
	}
}

// typePage types s with the viewer's keyboard.
func typePage(t *testing.T, ctx context.Context, s string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.KeyEvent(s)); err != nil {
		t.Fatal(err)
	}
}
