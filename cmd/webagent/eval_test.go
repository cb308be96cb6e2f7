package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// noEvalChromeLeft checks that no Chromium profile of the eval harness is
// left in the process's TMPDIR (processes are checked by noChromeLeft).
func (p *proc) noEvalChromeLeft(t *testing.T) {
	t.Helper()
	p.noChromeLeft(t)
	if left, _ := filepath.Glob(filepath.Join(p.tmp, "webagent-eval-profile-*")); len(left) > 0 {
		t.Errorf("eval Chromium profiles left behind: %v", left)
	}
}

func readReport(t *testing.T, dir string) *report.Report {
	t.Helper()
	r, err := report.Load(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.md", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	return r
}

// webagent eval runs three built-in tasks, each passing, with progress on
// stderr and no Chromium left. Under go test -short it is the eval door's
// one real-browser run (package tier): never call tier.Slow here.
func TestEvalBuiltinTasks(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	code, p := run(t, "eval", "--task", "bank-balance,wiki-default-port", "--task", "widget-tabs-battery", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	r := readReport(t, out)
	if len(r.Runs) != 3 || r.Passed() != 3 || r.Model != "reference" {
		t.Fatalf("report: %d runs, %d passed, model %s", len(r.Runs), r.Passed(), r.Model)
	}
	if !strings.Contains(p.stderr.String(), "[3/3] pass") || !strings.Contains(p.stderr.String(), "3 of 3 passed") {
		t.Errorf("no progress on stderr:\n%s", p.stderr.String())
	}
	p.noEvalChromeLeft(t)
}

const failingFile = `suite: mine
site: wiki
tasks:
  - id: wiki-wrong-port
    instruction: What is the default port?
    checks:
      - answer_number: 1
    reference: |
      done "8080"
`

func TestEvalFailingTaskExitsOne(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	dir, out := t.TempDir(), t.TempDir()
	f := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(f, []byte(failingFile), 0o644); err != nil {
		t.Fatal(err)
	}
	code, p := run(t, "eval", "--out", out, f)
	if code != exitFailed {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	r := readReport(t, out)
	if len(r.Runs) != 1 || r.Runs[0].Success || r.Runs[0].Code != report.CodeChecksFailed || !strings.Contains(r.Runs[0].Message, "answer_number 1") {
		t.Fatalf("runs %+v", r.Runs)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "(line 7)") {
		t.Errorf("report.md lacks the check's line:\n%s", md)
	}
}

func TestEvalUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("tasks:\n  - id: x\n    instruction: y\n    site: shop\n    checks:\n      - answer_sometimes: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noRef := filepath.Join(dir, "noref.yaml")
	if err := os.WriteFile(noRef, []byte("suite: x\nsite: wiki\ntasks:\n  - id: noref\n    instruction: hi\n    checks:\n      - answer_contains: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"bad task file", []string{"eval", bad}, []string{"bad.yaml:6", "answer_sometimes"}},
		{"no such file", []string{"eval", filepath.Join(dir, "nope.yaml")}, []string{"nope.yaml"}},
		{"zero workers", []string{"eval", "--workers", "0"}, []string{"--workers is 0"}},
		{"unknown suite", []string{"eval", "--suite", "nope"}, []string{`--suite "nope"`, "shop"}},
		{"unknown task", []string{"eval", "--task", "nope"}, []string{`--task "nope"`}},
		{"miniwob without model", []string{"eval", "--miniwob", dir}, []string{"--miniwob needs a model"}},
		{"episode timer without miniwob", []string{"eval", "--episode-timer"}, []string{"--episode-timer is for MiniWoB++ episodes", "--miniwob DIR"}},
		{"bad cdp url", []string{"eval", "--cdp-url", "localhost:9222"}, []string{"not a DevTools address"}},
		{"no reference", []string{"eval", noRef}, []string{"noref.yaml:4", "no reference solution", "--model"}},
		{"two modes", []string{"eval", "--faults", bad}, []string{"separate runs"}},
		{"browser tool over chat", []string{"eval", "--tools", "browser"}, []string{"--tools browser", "--api anthropic"}},
		{"unknown api", []string{"eval", "--api", "bedrock"}, []string{"use chat, anthropic, responses or gemini"}},
		{"browser tool over gemini", []string{"eval", "--api", "gemini", "--tools", "browser"}, []string{"--tools browser", "--api anthropic"}},
		{"compare one file", []string{"eval", "compare", bad}, []string{"compare takes two reports"}},
		{"compare not json", []string{"eval", "compare", bad, bad}, []string{"not a report.json"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, p := run(t, c.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want 2; stderr:\n%s", code, p.stderr.String())
			}
			for _, w := range c.want {
				if !strings.Contains(p.stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, p.stderr.String())
				}
			}
			p.noEvalChromeLeft(t)
		})
	}
}

func writeReport(t *testing.T, dir string, pass bool) string {
	t.Helper()
	code := "SUCCESS"
	if !pass {
		code = report.CodeChecksFailed
	}
	r := &report.Report{Version: report.Version, Model: "m", Runs: []report.Run{
		{ID: "shop-a", Suite: "shop", Success: true, Code: "SUCCESS", DurationMS: 1000},
		{ID: "shop-b", Suite: "shop", Success: pass, Code: code, DurationMS: 1000, Message: "the cart is empty"},
	}}
	if err := r.WriteAll(dir); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "report.json")
}

func TestEvalCompare(t *testing.T) {
	t.Parallel()
	old := writeReport(t, t.TempDir(), true)
	cur := writeReport(t, t.TempDir(), false)
	code, p := run(t, "eval", "compare", old, cur)
	if code != exitFailed {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	for _, want := range []string{"passed: 2/2 → 1/2", "REGRESSIONS", "shop/shop-b: SUCCESS → CHECKS_FAILED: the cart is empty"} {
		if !strings.Contains(p.stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, p.stdout.String())
		}
	}
	code, p = run(t, "eval", "compare", cur, filepath.Dir(old))
	if code != exitOK || !strings.Contains(p.stdout.String(), "improvements") {
		t.Fatalf("exit %d:\n%s", code, p.stdout.String())
	}
}

// SIGINT in the middle of a run: the running tasks end as CANCELED, the
// partial report is written, exit 130, and no Chromium is left.
func TestEvalInterrupt(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{Fault: modelserver.NoHeaders}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	out := t.TempDir()
	p := start(t, "eval", "--base-url", srv.BaseURL(), "--model", "m", "--workers", "2", "--out", out,
		"--task", "bank-balance,shop-add-blue-mug,wiki-default-port")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.WaitRequest(ctx, 1); err != nil {
		t.Fatalf("no model requests: %v; stderr:\n%s", err, p.stderr.String())
	}
	sent := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := p.wait(t, 30*time.Second)
	lag := time.Since(sent)
	t.Logf("exited %s after the signal", lag)
	if lag > 10*time.Second {
		t.Errorf("exited %s after the signal", lag)
	}
	if code != exitInterrupted {
		t.Fatalf("exit %d, want 130; stderr:\n%s", code, p.stderr.String())
	}
	r := readReport(t, out)
	if !r.Partial || len(r.Runs) != 2 || len(r.NotRun) != 1 {
		t.Fatalf("partial %v, %d runs, not run %v", r.Partial, len(r.Runs), r.NotRun)
	}
	for _, run := range r.Runs {
		if run.Code != "CANCELED" {
			t.Errorf("%s: %s", run.ID, run.Code)
		}
	}
	data, _ := json.Marshal(r)
	if !strings.Contains(string(data), `"partial":true`) {
		t.Error("report.json does not say partial")
	}
	p.noEvalChromeLeft(t)
}

// --episode-timer reaches the MiniWoB++ episodes: a model that calls done
// at once leaves the episode to its own timer, which ends it with the
// benchmark's reward of -1; without the flag the episode is not done.
func TestEvalMiniWoBEpisodeTimer(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "done"})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir, err := filepath.Abs("../../eval/testdata/miniwob")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flags        []string
		code, reason string
	}{
		{[]string{"--episode-timer"}, "EPISODE_FAILED", "timed out"},
		{nil, "EPISODE_NOT_DONE", ""},
	} {
		out := t.TempDir()
		args := append([]string{"eval", "--base-url", srv.BaseURL(), "--model", "m", "--out", out, "--trace=false",
			"--miniwob", dir, "--miniwob-tasks", "click-timed", "--seeds", "1"}, c.flags...)
		code, p := run(t, args...)
		if code != exitFailed {
			t.Fatalf("%v: exit %d; stderr:\n%s", c.flags, code, p.stderr.String())
		}
		r := readReport(t, out)
		if len(r.Runs) != 1 || r.Runs[0].Code != c.code || r.Runs[0].RewardReason != c.reason {
			t.Errorf("%v: runs %+v", c.flags, r.Runs)
		}
		p.noEvalChromeLeft(t)
	}
}
