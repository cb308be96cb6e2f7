package replay_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image/jpeg"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/replay"
	secretpkg "github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// policy is the scripted model: it reads each observation, as a real model
// would, and signs in, opens the savings account and reads its balance.
func policy() modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		lines := outline.Parse(obs)
		ref := func(t outline.Target) string {
			r, err := outline.Resolve(lines, t)
			if err != nil {
				return "missing"
			}
			return r
		}
		call := modelserver.ToolCall
		switch {
		case strings.Contains(obs, "Savings balance"):
			return modelserver.Turn{ToolCalls: []modelserver.Call{call("done", map[string]any{"answer": "Savings: $42.00"})}}
		case strings.Contains(obs, "Your accounts"):
			return modelserver.Turn{Text: "Opening savings.", ToolCalls: []modelserver.Call{
				call("click", map[string]any{"ref": ref(outline.Target{Role: "button", Name: "Open", Scope: "Savings"})}),
			}}
		case strings.Contains(obs, `textbox "Username"`):
			return modelserver.Turn{Text: "Signing in.", ToolCalls: []modelserver.Call{
				call("type", map[string]any{"ref": ref(outline.Target{Role: "textbox", Name: "Username"}), "text": "ann"}),
				call("type", map[string]any{"ref": ref(outline.Target{Role: "textbox", Name: "Password"}), "text": "<secret>pw</secret>"}),
				call("click", map[string]any{"ref": ref(outline.Target{Role: "button", Name: "Sign in"})}),
			}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{call("fail", map[string]any{"reason": "unexpected page"})}}
	})
}

// launch is a fresh browser for t: a tab of the shared Chromium in a
// browser context of its own (no cookies, no storage), closed when t ends.
func launch(t *testing.T, opts browser.Options) *browser.Browser {
	t.Helper()
	return chrome.Browser(t, opts)
}

// record runs the task with a trace and returns the trace's folder.
func record(t *testing.T, ctx context.Context, start string) string {
	t.Helper()
	model, err := modelserver.Start(policy())
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close() // stopped before any replay
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	// Observable: the trace keeps the pages' console messages (whose
	// masking this checks), which only a client with Runtime enabled gets.
	b := launch(t, browser.Options{RecordActivity: true, Observable: true})
	secrets := map[string]string{"pw": secret}
	dir := filepath.Join(t.TempDir(), "trace")
	task := agent.Task{URL: start, Instruction: "Sign in as ann with <secret>pw</secret> and tell me the savings balance.", Secrets: secrets}
	tw, err := trace.Create(dir, trace.Header{Task: task.Instruction, URL: start, Secrets: []string{"pw"}},
		trace.Options{Masker: secretpkg.NewMasker(secrets), Shots: b, Activity: b, HAR: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(b, client, agent.WithTracer(tw), agent.WithMaxIterations(8))
	if err != nil {
		t.Fatal(err)
	}
	res := a.Run(ctx, task)
	if err := tw.End(ctx, res); err != nil {
		t.Fatal(err)
	}
	if res.Code != agent.CodeSuccess || !strings.Contains(res.Answer, "$42.00") {
		t.Fatalf("recorded run: %s %q %s", res.Code, res.Answer, res.Message)
	}
	_ = b.Close()
	return dir
}

func TestTraceAndReplay(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	// The subtests run in parallel, after this function returns: what they
	// use ends with t's clean-up, not with a defer.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	bank := newSite()
	srv := httptest.NewServer(bank)
	t.Cleanup(srv.Close)
	dir := record(t, ctx, srv.URL+"/")

	tr, err := trace.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the event file holds every step", func(t *testing.T) {
		t.Parallel()
		if len(tr.Steps) != 3 || tr.End == nil || tr.End.Result.Iterations != 3 {
			t.Fatalf("%d steps, end %+v; want 3 steps and an end", len(tr.Steps), tr.End)
		}
		for i, st := range tr.Steps {
			m := tr.Model(st.Iteration)
			if st.Iteration != i+1 || m == nil || !strings.Contains(m.Observation, "Snapshot:") || len(m.Request.Messages) < 2 || len(m.Reply.ToolCalls) == 0 {
				t.Fatalf("step %d: iteration %d, model event %+v", i, st.Iteration, m)
			}
			img, err := os.ReadFile(filepath.Join(dir, st.Screenshot))
			if err != nil {
				t.Fatalf("step %d screenshot: %v (%s)", st.Iteration, err, st.ShotError)
			}
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(img))
			if err != nil || cfg.Width > trace.DefaultMaxShotWidth || cfg.Width < 100 {
				t.Fatalf("step %d screenshot: %v, %dx%d", st.Iteration, err, cfg.Width, cfg.Height)
			}
		}
		if len(tr.Models[0].Request.Tools) == 0 || len(tr.Models[1].Request.Tools) != 0 {
			t.Errorf("the tools should be recorded with the first request only")
		}
		if acts := tr.Steps[0].Step.Actions; len(acts) != 3 || acts[2].Tool != "click" {
			t.Errorf("step 1 actions: %+v", acts)
		}
		var console, network []string
		for _, st := range tr.Steps {
			for _, c := range st.Console {
				console = append(console, c.Level+" "+c.Text)
			}
			for _, n := range st.Network {
				network = append(network, fmt.Sprintf("%s %s %d", n.Method, n.URL, n.Status))
			}
		}
		all := strings.Join(console, "\n") + "\n" + strings.Join(network, "\n")
		for _, want := range []string{"log sign-in page ready", "warning session key <secret>pw</secret>", "POST " + srv.URL + "/login 303", "/api/ping?k=<secret>pw</secret> 200"} {
			if !strings.Contains(all, want) {
				t.Errorf("console and network lack %q:\n%s", want, all)
			}
		}
	})
	t.Run("no secret in any file", func(t *testing.T) {
		t.Parallel()
		forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret), base64.StdEncoding.EncodeToString([]byte(secret)), "hunter2"}
		var size int64
		files := 0
		err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			files++
			size += info.Size()
			b, err := os.ReadFile(p)
			for _, f := range forms {
				if bytes.Contains(b, []byte(f)) {
					t.Errorf("%s holds the secret as %q", p, f)
				}
			}
			return err
		})
		if err != nil || files < 6 { // trace.jsonl, index.html, trace.har, 3 shots
			t.Fatalf("%v; %d files", err, files)
		}
		if size > 5<<20 {
			t.Errorf("the trace of 3 steps is %d bytes", size)
		}
		t.Logf("trace: %d files, %d bytes", files, size)
	})

	// Replays run in a fresh browser each; the model server is stopped.
	t.Run("replay succeeds without the model", func(t *testing.T) {
		t.Parallel()
		fresh := launch(t, browser.Options{})
		res, err := replay.Run(ctx, fresh, tr, replay.Options{Secrets: map[string]string{"pw": secret}})
		if err != nil {
			t.Fatal(err)
		}
		logins, opened := bank.state()
		if res.Answer != "Savings: $42.00" || res.Code != agent.CodeSuccess || res.Actions != 4 || logins != 2 || strings.Join(opened, ",") != "savings,savings" {
			t.Fatalf("replay %+v; site: %d sign-ins, opened %v", res, logins, opened)
		}
	})
	t.Run("replay against another base URL", func(t *testing.T) {
		t.Parallel()
		fresh := launch(t, browser.Options{})
		staging := newSite()
		srv2 := httptest.NewServer(staging)
		defer srv2.Close()
		if _, err := replay.Run(ctx, fresh, tr, replay.Options{BaseURL: srv2.URL, Secrets: map[string]string{"pw": secret}}); err != nil {
			t.Fatal(err)
		}
		if logins, opened := staging.state(); logins != 1 || len(opened) != 1 || opened[0] != "savings" {
			t.Fatalf("staging: %d sign-ins, opened %v", logins, opened)
		}
		staging.setLabel("Log in")
		_, err := replay.Run(ctx, fresh, tr, replay.Options{BaseURL: srv2.URL, Secrets: map[string]string{"pw": secret}})
		var se *replay.StepError
		if !errors.As(err, &se) || se.Iteration != 1 || se.Tool != "click" || !strings.Contains(se.Looked, `button "Sign in"`) ||
			!strings.Contains(err.Error(), `button "Log in"`) {
			t.Fatalf("renamed button: %v", err)
		}
		t.Log(err)

		// With a healer, the renamed button is asked of the model, once,
		// and the replay, recorded, replays without it.
		healer, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
			ref, ok := outline.FindRef(req.LastUser(), "button", "Log in")
			if !ok {
				return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]any{"reason": "no such button"})}}
			}
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
		}))
		if err != nil {
			t.Fatal(err)
		}
		defer healer.Close()
		hc, err := llm.New(llm.Config{BaseURL: healer.BaseURL(), Model: "scripted"})
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "healed")
		tw, err := trace.Create(out, tr.Header, trace.Options{Masker: secretpkg.NewMasker(map[string]string{"pw": secret})})
		if err != nil {
			t.Fatal(err)
		}
		res, err := replay.Run(ctx, fresh, tr, replay.Options{BaseURL: srv2.URL, Secrets: map[string]string{"pw": secret}, Healer: hc, Tracer: tw})
		if err != nil || len(res.Healed) != 1 || res.ModelCalls != 1 || len(healer.Requests()) != 1 || res.Healed[0].Became != `click button "Log in"` {
			t.Fatalf("healed replay: %v, %+v", err, res)
		}
		if err := tw.End(ctx, &agent.Result{Status: agent.StatusSuccess, Code: agent.CodeSuccess, Answer: res.Answer}); err != nil {
			t.Fatal(err)
		}
		healed, err := trace.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := replay.Run(ctx, fresh, healed, replay.Options{BaseURL: srv2.URL, Secrets: map[string]string{"pw": secret}}); err != nil {
			t.Fatalf("the healed recording does not replay: %v", err)
		}
		if logins, _ := staging.state(); logins != 3 {
			t.Fatalf("staging: %d sign-ins, want 3", logins)
		}
		_, err = replay.Run(ctx, fresh, tr, replay.Options{})
		if !errors.As(err, &se) || se.Iteration != 1 || !strings.Contains(err.Error(), "--secret pw=") {
			t.Fatalf("no secret given: %v", err)
		}
	})
	t.Run("the viewer shows the steps and their screenshots", func(t *testing.T) {
		t.Parallel()
		fresh := launch(t, browser.Options{AllowFileURLs: true})
		page := "file://" + filepath.Join(dir, trace.ViewerFile)
		if _, err := fresh.Do(ctx, contract.Action{Name: contract.ActGoto, URL: page}); err != nil {
			t.Fatal(err)
		}
		var got string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			v, err := fresh.Eval(ctx, `[document.querySelectorAll('#steps li').length,
				[...document.querySelectorAll('#film img')].filter(i => i.complete && i.naturalWidth > 0).length,
				document.querySelector('#shot img') && document.querySelector('#shot img').naturalWidth > 0,
				document.querySelector('#detail').innerText.includes('Model output'),
				document.querySelector('#detail').innerText.includes('textbox "Username"')].join(' ')`)
			if err != nil {
				t.Fatal(err)
			}
			if got = fmt.Sprint(v); got == "3 3 true true true" {
				break
			}
			ctx2, c := context.WithTimeout(ctx, 100*time.Millisecond)
			<-ctx2.Done() // poll: the images load from disk
			c()
		}
		if got != "3 3 true true true" {
			t.Fatalf("viewer: steps, loaded thumbnails, screenshot, model output, snapshot = %s", got)
		}
	})
}

// gate is a person's control of the browser (Options.Control): at the
// Act numbered at, a person holds the browser until back is closed.
type gate struct {
	calls atomic.Int32
	at    int32
	held  chan struct{}
	back  chan struct{}
}

func (g *gate) Act(ctx context.Context) (func(), *agent.Handback, error) {
	if g.calls.Add(1) != g.at {
		return func() {}, nil, nil
	}
	close(g.held)
	select {
	case <-g.back:
		return func() {}, &agent.Handback{Held: 3 * time.Second}, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

func (g *gate) Wanted() bool { return false }

func (g *gate) Handover(context.Context, string, time.Duration) (*agent.Handback, error) {
	return nil, nil
}

// TestReplayControl: while a person holds the browser (a live view's
// lease), the replay does nothing; it goes on once they hand back, and
// ends with its context while they hold it.
func TestReplayControl(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bank := newSite()
	srv := httptest.NewServer(bank)
	defer srv.Close()
	tr, err := trace.Read(record(t, ctx, srv.URL+"/"))
	if err != nil {
		t.Fatal(err)
	}
	// The third action clicks "Sign in": a person holds the browser
	// before it.
	g := &gate{at: 3, held: make(chan struct{}), back: make(chan struct{})}
	var progress bytes.Buffer
	done := make(chan error, 1)
	b := launch(t, browser.Options{})
	go func() {
		res, err := replay.Run(ctx, b, tr, replay.Options{Secrets: map[string]string{"pw": secret}, Control: g, Progress: &progress})
		if err == nil && res.Answer != "Savings: $42.00" {
			err = fmt.Errorf("the replay's answer: %q", res.Answer)
		}
		done <- err
	}()
	select {
	case <-g.held:
	case err := <-done:
		t.Fatalf("the replay ended before the person held the browser: %v", err)
	}
	if logins, _ := bank.state(); logins != 1 {
		t.Errorf("%d sign-ins while the person held the browser before the replay's: the replay signed in meanwhile", logins)
	}
	close(g.back)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if logins, _ := bank.state(); logins != 2 || !strings.Contains(progress.String(), "a person had the browser for 3s; the replay goes on") {
		t.Errorf("after the hand back: %d sign-ins; progress:\n%s", logins, progress.String())
	}

	// Held when the replay's context ends: it ends at once.
	g = &gate{at: 1, held: make(chan struct{}), back: make(chan struct{})}
	rctx, rcancel := context.WithCancel(ctx)
	b2 := launch(t, browser.Options{})
	go func() {
		_, err := replay.Run(rctx, b2, tr, replay.Options{Secrets: map[string]string{"pw": secret}, Control: g})
		done <- err
	}()
	<-g.held
	rcancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("a replay ended while a person held the browser: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the replay did not end with its context while a person held the browser")
	}
}
