package cache_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	secretpkg "github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/testfixture/signin"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// runner runs the sign-in task under a cache, as webagent run --cache does:
// a real Chromium, the scripted model over HTTP, and the trace the cache
// stores.
type runner struct {
	t     testing.TB
	ctx   context.Context
	b     *browser.Browser
	model *modelserver.Server
	llm   *llm.Client
	cache *cache.Cache
	start string
}

const task = signin.Task

const secret = signin.Password

func newRunner(t testing.TB, ctx context.Context, start string, model *modelserver.Server) *runner {
	t.Helper()
	var err error
	if model == nil {
		model, err = modelserver.Start(signin.Model())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = model.Close() })
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	c, err := cache.Open(filepath.Join(t.TempDir(), "cache"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return &runner{t: t, ctx: ctx, model: model, llm: client, cache: c, start: start}
}

// launch opens a fresh browser, as each webagent run has: a tab of the
// shared Chromium in a browser context of its own (no cookies, no
// storage of the runs before).
func (r *runner) launch() {
	r.t.Helper()
	if r.b != nil {
		_ = r.b.Close()
	}
	r.b = chrome.Browser(r.t, browser.Options{})
}

// run runs the task once with user as {{user}}; it returns the result and
// how many requests reached the model server.
func (r *runner) run(user string) (*agent.Result, int) {
	r.t.Helper()
	vars := map[string]string{"user": user}
	texts, err := cache.Expand(vars, task)
	if err != nil {
		r.t.Fatal(err)
	}
	secrets := map[string]string{"pw": secret}
	at := agent.Task{URL: r.start, Instruction: texts[0], Secrets: secrets}
	s := r.cache.Begin(cache.Key{Task: task, URL: r.start, Vars: []string{"user"}}, r.start, vars)
	dir, err := s.TraceDir()
	if err != nil {
		r.t.Fatal(err)
	}
	tw, err := trace.Create(dir, trace.Header{Task: at.Instruction, URL: at.URL, Secrets: []string{"pw"}},
		trace.Options{Masker: secretpkg.NewMasker(secrets)})
	if err != nil {
		r.t.Fatal(err)
	}
	opts := append(s.Options(), agent.WithTracer(tw), agent.WithMaxIterations(10))
	r.launch()
	a, err := agent.New(r.b, r.llm, opts...)
	if err != nil {
		r.t.Fatal(err)
	}
	before := len(r.model.Requests())
	res := a.Run(r.ctx, at)
	if err := tw.End(r.ctx, res); err != nil {
		r.t.Fatal(err)
	}
	if _, err := s.Finish(res, dir); err != nil {
		r.t.Fatal(err)
	}
	return res, len(r.model.Requests()) - before
}

// TestCache: the sign-in task calls the model 4 times and fills the cache;
// run again, it calls it 0 times and answers the same; with the button
// renamed, once, and the healed step is named; with a "Delete account"
// button where "Sign in" was, that button is never pressed; another value
// of {{user}} is typed in place of the recorded one.
func TestCache(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	members := signin.New()
	srv := httptest.NewServer(members)
	defer srv.Close()
	r := newRunner(t, ctx, srv.URL+"/", nil)

	res, calls := r.run("ann")
	if res.Code != agent.CodeSuccess || res.Answer != "plan: Gold" || calls != 4 {
		t.Fatalf("first run: %s %q with %d model calls (%s); want SUCCESS, plan: Gold, 4 calls", res.Code, res.Answer, calls, res.Message)
	}
	if res.Replay == nil || res.Replay.ModelCalls != 4 || res.Replay.Steps != 0 {
		t.Fatalf("first run's replay summary: %+v", res.Replay)
	}
	entries, _ := filepath.Glob(filepath.Join(r.cache.Dir(), "sign-in-as-user-*", cache.EntryFile))
	if len(entries) != 1 {
		t.Fatalf("the cache holds %v; want one entry", entries)
	}
	b, _ := os.ReadFile(filepath.Join(filepath.Dir(entries[0]), trace.EventsFile))
	tr, err := trace.Read(filepath.Dir(entries[0]))
	if err != nil {
		t.Fatal(err)
	}
	var typed struct{ Text string }
	if len(tr.Models) == 4 {
		_ = json.Unmarshal([]byte(tr.Models[1].Reply.ToolCalls[0].Arguments), &typed)
	}
	if strings.Contains(string(b), secret) || typed.Text != "<secret>pw</secret>" {
		t.Fatalf("the cached trace must hold the secret by name, never its value (%d model events, typed %q)", len(tr.Models), typed.Text)
	}

	t.Run("the same page: no model call", func(t *testing.T) {
		res, calls := r.run("ann")
		if res.Code != agent.CodeSuccess || res.Answer != "plan: Gold" || calls != 0 {
			t.Fatalf("%s %q with %d model calls (%s)", res.Code, res.Answer, calls, res.Message)
		}
		if s := res.Replay; s == nil || s.Steps != 4 || s.ModelCallsSaved != 4 || s.ModelCalls != 0 || s.TokensSaved == 0 {
			t.Fatalf("replay summary %+v", s)
		}
	})
	t.Run("another user: the variable is typed", func(t *testing.T) {
		res, calls := r.run("bob")
		logins, _ := members.State()
		if res.Code != agent.CodeSuccess || calls != 0 || logins[len(logins)-1] != "bob" {
			t.Fatalf("%s with %d model calls; sign-ins %v", res.Code, calls, logins)
		}
	})
	t.Run("a renamed button: one model call, the step healed", func(t *testing.T) {
		members.Set("Log in", false)
		defer members.Set("Sign in", false)
		res, calls := r.run("ann")
		if res.Code != agent.CodeSuccess || res.Answer != "plan: Gold" || calls != 1 {
			t.Fatalf("%s %q with %d model calls (%s)", res.Code, res.Answer, calls, res.Message)
		}
		s := res.Replay
		if s == nil || len(s.Healed) != 1 || s.Steps != 3 || !strings.Contains(s.Healed[0].Recorded, `button "Sign in"`) ||
			!strings.Contains(s.Healed[0].Became, `button "Log in"`) {
			t.Fatalf("replay summary %+v", s)
		}
		t.Logf("healed: %+v", s.Healed[0])
	})
	t.Run("a Delete account button where Sign in was is never pressed", func(t *testing.T) {
		members.Set("", true)
		defer members.Set("Sign in", false)
		// A replay by ref would press it: the recorded click's ref names
		// "Delete account" on this page.
		tr, err := trace.Read(filepath.Dir(entries[0]))
		if err != nil {
			t.Fatal(err)
		}
		var click struct{ Ref string }
		_ = json.Unmarshal([]byte(tr.Models[2].Reply.ToolCalls[0].Arguments), &click)
		r.launch()
		if _, err := r.b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: r.start}); err != nil {
			t.Fatal(err)
		}
		snap, err := r.b.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ref, _ := outline.FindRef(snap.Text, "button", "Delete account"); click.Ref == "" || ref != click.Ref {
			t.Fatalf("the recorded click's ref %q; Delete account's now %q", click.Ref, ref)
		}
		_, before := members.State()
		res, calls := r.run("ann")
		if _, deleted := members.State(); deleted != before {
			t.Fatalf("the account was deleted (%s, %d model calls)", res.Code, calls)
		}
		if res.Code == agent.CodeSuccess || calls == 0 {
			t.Fatalf("%s with %d model calls; the model should have been asked, and given up", res.Code, calls)
		}
	})
}
