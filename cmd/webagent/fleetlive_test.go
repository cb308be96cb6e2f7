package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/modelserver"
)

var liveURLRe = regexp.MustCompile(`live view \((watch|control)\):\s+(\S+)`)

// TestFleetLive: a worker started with --live runs a submitted task in a
// live view. `submit --live` prints the view's URLs on stderr (sealed for
// it by the worker, read from the workflow); a person opens the control
// URL in a real Chromium, sees the run's steps and the model's question,
// revokes the links (submit prints the new ones) and answers the question
// in the page: the task ends with that answer. The tokens
// reach neither the result, nor the model, nor the worker's log, nor the
// workflow's history; the view's URL stops working with the task.
func TestFleetLive(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short")
	}
	const secretValue = "pw-live-4Kd9-never-shown"
	srv := temporalServer(t)
	site, passwords := fleetSite(t)
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs, tool := req.LastUser(), req.LastTool()
		call := func(name string, args any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		switch {
		case strings.Contains(tool, `"answered"`):
			var a struct{ Answer string }
			_ = json.Unmarshal([]byte(tool), &a)
			return call("done", map[string]string{"answer": "colour: " + a.Answer})
		case strings.Contains(obs, "Signed in"):
			return call("ask_human", map[string]string{"question": "Which colour should I pick?"})
		}
		if ref, ok := modelserver.FindRef(obs, "textbox", "Password"); ok {
			return call("type", map[string]any{"ref": ref, "text": "<secret>PASS</secret>", "submit": true})
		}
		return call("done", map[string]string{"answer": "nothing to do"})
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })

	queue := fmt.Sprintf("live-%d", time.Now().UnixNano())
	w := startLogged(t, "worker", "--temporal", srv.Addr, "--task-queue", queue, "--concurrency", "1",
		"--base-url", model.BaseURL(), "--model", "m", "--secret", "PASS="+secretValue, "--live", "--log-level", "debug")
	until(t, "the worker starts", time.Minute, func() bool { return strings.Contains(w.text(), "worker started") }, w)
	if !strings.Contains(w.text(), "live views on http://127.0.0.1:") {
		t.Errorf("the worker does not say where its live views are:\n%s", w.text())
	}

	id := fmt.Sprintf("live-task-%d", time.Now().UnixNano())
	sub := startLogged(t, "submit", "--temporal", srv.Addr, "--task-queue", queue, "--id", id, "--live", "--json",
		"--human-timeout", "90s", "--url", site.URL+"/", "--secret", "PASS", "--allow-private-network",
		"Sign in with <secret>PASS</secret>, then ask which colour")
	var watch, control []string // as printed, in order
	printed := func() bool {
		watch, control = nil, nil
		for _, m := range liveURLRe.FindAllStringSubmatch(sub.text(), -1) {
			if m[1] == "watch" {
				watch = append(watch, m[2])
			} else {
				control = append(control, m[2])
			}
		}
		return len(watch) > 0 && len(control) == len(watch)
	}
	until(t, "submit prints the live view", 2*time.Minute, printed, sub, w)
	tokens := []string{tokenOf(t, watch[0]), tokenOf(t, control[0])}
	if tokens[0] == tokens[1] {
		t.Fatalf("the watch and control URLs share a token")
	}

	vctx := liveViewer(t, control[0])
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("submit's stderr:\n%s\nthe worker's stderr:\n%s", sub.text(), w.text())
		}
	})
	waitPage(t, vctx, `document.querySelectorAll('#steps li').length > 0`, time.Minute)
	waitPage(t, vctx, `!document.getElementById('question').hidden && document.getElementById('qtext').textContent.includes('Which colour should I pick?')`, time.Minute)
	waitPage(t, vctx, `window.__lv.frames > 0`, 30*time.Second)
	page := pageText(t, vctx)
	for _, want := range []string{"task " + id, "Sign in with <secret>PASS</secret>", "type"} {
		if !strings.Contains(page, want) {
			t.Errorf("the live view lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, secretValue) {
		t.Errorf("the live view shows the secret:\n%s", page)
	}
	// The question waits for an answer on both paths: the page, and
	// webagent status and answer.
	if _, p := run(t, "status", "--temporal", srv.Addr, id); !strings.Contains(p.stdout.String(), "question: Which colour should I pick?") {
		t.Errorf("status while the page shows the question: %s", p.stdout.String())
	}

	// The person revokes the links in the page: submit prints the new
	// ones, the old ones stop working, and the new control URL answers.
	actx, cancel := context.WithTimeout(vctx, 20*time.Second)
	_, err = chromedp.Run(actx, chromedp.Evaluate[bool](`(window.confirm = () => true, true)`))
	if err == nil {
		err = chromedp.Do(actx, chromedp.Click(chromedp.CSS("#revoke")))
	}
	cancel()
	if err != nil {
		t.Fatalf("revoking in the page: %v", err)
	}
	until(t, "submit prints the new live view", time.Minute, func() bool { return printed() && len(control) == 2 }, sub, w)
	tokens = append(tokens, tokenOf(t, watch[1]), tokenOf(t, control[1]))
	if code := httpStatus(t, control[0]); code != http.StatusForbidden {
		t.Errorf("the revoked control URL: HTTP %d, want 403", code)
	}
	nctx, cancel := context.WithTimeout(vctx, 20*time.Second)
	err = chromedp.Do(nctx, chromedp.Navigate(control[1]))
	cancel()
	if err != nil {
		t.Fatalf("opening the new control URL: %v", err)
	}
	waitPage(t, vctx, `!document.getElementById('question').hidden && !document.getElementById('qform').hidden`, time.Minute)
	actx, cancel = context.WithTimeout(vctx, 20*time.Second)
	err = chromedp.Do(actx, chromedp.SendKeys(chromedp.CSS("#qanswer"), "blue"), chromedp.Click(chromedp.CSS("#qsend")))
	cancel()
	if err != nil {
		t.Fatalf("answering in the page: %v", err)
	}
	waitPage(t, vctx, `document.getElementById('result').textContent.includes('colour: blue')`, time.Minute)

	if code := sub.exit(t, 2*time.Minute); code != exitOK {
		t.Fatalf("submit: exit %d\n%s", code, sub.text())
	}
	var out struct {
		Code, Answer string
		Attempts     int
	}
	result := sub.stdout.String()
	if err := json.Unmarshal([]byte(result), &out); err != nil || out.Code != "SUCCESS" || out.Answer != "colour: blue" || out.Attempts != 1 {
		t.Errorf("submit's result: %v %+v\n%s", err, out, result)
	}
	if got := passwords(); len(got) != 1 || got[0] != secretValue {
		t.Errorf("the site received %q, want the worker's secret once", got)
	}
	for _, tok := range tokens {
		if strings.Contains(result, tok) {
			t.Errorf("submit's result holds a live view token:\n%s", result)
		}
		for _, r := range model.Requests() {
			if strings.Contains(string(r.Req.Raw), tok) {
				t.Errorf("a model request holds a live view token")
			}
		}
		if strings.Contains(w.text(), tok) {
			t.Errorf("the worker's log holds a live view token")
		}
	}
	for _, r := range model.Requests() {
		if strings.Contains(string(r.Req.Raw), "/v/") || strings.Contains(string(r.Req.Raw), "live view") {
			t.Errorf("a model request mentions the live view:\n%s", r.Req.Raw)
		}
	}
	checkHistoryClean(t, srv.Addr, id, append(tokens, secretValue)...)

	// The view ended with the task: its URL no longer works, and the
	// worker's registry of live views holds nothing.
	if code := httpStatus(t, control[1]); code != http.StatusForbidden {
		t.Errorf("the control URL after the task: HTTP %d, want 403", code)
	}
	registry, _ := filepath.Glob(filepath.Join(w.tmp, "webagent-*", "live", "*"))
	if len(registry) > 0 {
		t.Errorf("the worker's live view registry after the task: %v", registry)
	}
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	if code := w.exit(t, 30*time.Second); code != exitOK {
		t.Errorf("worker exit %d", code)
	}
	if left := w.left(); len(left) > 0 {
		t.Errorf("the worker left behind %v", left)
	}
}

// tokenOf is the token of a live view URL.
func tokenOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Query().Get("t") == "" || !strings.HasPrefix(u.Path, "/v/") {
		t.Fatalf("%q is not a live view URL (%v)", raw, err)
	}
	return u.Query().Get("t")
}

// waitPage waits, within d, until expr is true in the viewer's page.
func waitPage(t *testing.T, ctx context.Context, expr string, d time.Duration) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	js := fmt.Sprintf(`new Promise((ok) => { const f = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(f, 20); }; f(); })`, expr)
	if _, err := chromedp.Run(wctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting in the live view for %s: %v\n%s", expr, err, pageText(t, ctx))
	}
}

// pageText is the viewer page's text.
func pageText(t *testing.T, ctx context.Context) string {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		return fmt.Sprintf("(the page's text: %v)", err)
	}
	return s
}

// Wrong live view flags of worker and submit are exit 2, saying what to
// do, before any server is reached.
func TestFleetLiveFlags(t *testing.T) {
	t.Parallel()
	closed := closedAddr(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"worker", "--temporal", closed, "--live-url", "https://w1.example:8443"}, "--live-url goes with --live"},
		{[]string{"worker", "--temporal", closed, "--live=0.0.0.0:8443"}, "listens on every interface: say where submitters reach it with --live-url"},
		{[]string{"worker", "--temporal", closed, "--live=0.0.0.0:0", "--live-url", "https://w1.example:8443"}, "needs TLS"},
		{[]string{"worker", "--temporal", closed, "--live", "--live-url", "https://w1.example:8443/live"}, "is served at the server's root"},
		{[]string{"worker", "--temporal", closed, "--live-cert", "c.pem", "--live-key", "k.pem"}, "--live-cert and --live-key go with --live"},
		{[]string{"submit", "--temporal", closed, "--live", "--detach", "--url", "http://example.org", "task"}, "drop --detach"},
	} {
		code, _, stderr := runEnv(t, nil, "", c.args...)
		checkStderr(t, code, exitUsage, stderr, []string{c.want}, "cannot be reached")
	}
}
