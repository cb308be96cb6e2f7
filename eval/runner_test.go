package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/trace"
)

func builtin(t *testing.T, ids ...string) []*suite.Task {
	t.Helper()
	all, err := suite.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var out []*suite.Task
	for _, id := range ids {
		i := slices.IndexFunc(all, func(tk *suite.Task) bool { return tk.ID == id })
		if i < 0 {
			t.Fatalf("no built-in task %s", id)
		}
		out = append(out, all[i])
	}
	return out
}

// failingTask is the bank task with a check the answer cannot meet.
const failingTask = `suite: broken
site: bank
tasks:
  - id: bank-wrong-balance
    instruction: Sign in as "ann" with the password <secret>password</secret> and tell me the balance.
    secrets: {password: correct-horse-battery}
    limits: {max_iterations: 10}
    checks:
      - answer_contains: "9,999.99"
      - state: {path: logins, equals: 1}
    reference: |
      type "Username" "ann"; type "Password" "<secret>password</secret>"; click "Sign in"
      done "The checking account balance is {{/[$][0-9,.]+[0-9]/}}."
`

func testConfig(t *testing.T) Config {
	return Config{
		Workers: 2, OutDir: t.TempDir(), Trace: true,
		Options: []agent.Option{agent.WithIterationTimeout(60 * time.Second), agent.WithTaskTimeout(2 * time.Minute)},
	}
}

func skipWithoutChrome(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	if _, err := exec.LookPath("chromium"); err != nil && os.Getenv("CHROME_PATH") == "" {
		t.Skip(err)
	}
}

// TestRunWritesReports runs built-in tasks and a failing task for real
// (Chromium, sites on 127.0.0.1, the reference model over HTTP) and checks
// the three reports; then it opens report.html in Chromium.
func TestRunWritesReports(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	tasks := builtin(t, "bank-balance", "shop-add-blue-mug", "widget-tabs-battery")
	bad, err := suite.Parse("broken.yaml", []byte(failingTask))
	if err != nil {
		t.Fatal(err)
	}
	tasks = append(tasks, bad...)
	cfg := testConfig(t)
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs(tasks))
	if rep.Partial || len(rep.Runs) != 4 {
		t.Fatalf("partial %v, %d runs", rep.Partial, len(rep.Runs))
	}
	for _, r := range rep.Runs {
		want := r.ID != "bank-wrong-balance"
		if r.Success != want {
			t.Errorf("%s: success %v (%s: %s)", r.ID, r.Success, r.Code, r.Message)
		}
		if r.Screenshot == "" {
			t.Errorf("%s: no screenshot", r.ID)
		}
		// One trace per run, each step with its screenshot.
		tr, err := trace.Read(filepath.Join(cfg.OutDir, r.Trace))
		if err != nil || r.Trace == "" || len(tr.Steps) != r.Iterations || len(r.Steps) != r.Iterations {
			t.Errorf("%s: trace %q: %v", r.ID, r.Trace, err)
			continue
		}
		for _, st := range r.Steps {
			if _, err := os.Stat(filepath.Join(cfg.OutDir, filepath.FromSlash(st.Screenshot))); st.Screenshot == "" || err != nil {
				t.Errorf("%s step %d: screenshot %q: %v", r.ID, st.Iteration, st.Screenshot, err)
			}
		}
	}
	failed := rep.Runs[3]
	if failed.Code != report.CodeChecksFailed || !strings.Contains(failed.Message, `answer_contains "9,999.99"`) ||
		!strings.Contains(failed.Message, "line 9") || failed.Checks[0].Pass || !failed.Checks[1].Pass {
		t.Errorf("failing task reported as %s: %s; checks %+v", failed.Code, failed.Message, failed.Checks)
	}

	if err := rep.WriteAll(cfg.OutDir); err != nil {
		t.Fatal(err)
	}
	// report.json: one entry per run with the documented fields.
	data, err := os.ReadFile(filepath.Join(cfg.OutDir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Runs []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, r := range raw.Runs {
		for _, k := range []string{"id", "suite", "success", "code", "iterations", "duration_ms", "checks", "tokens", "steps", "screenshot"} {
			if _, ok := r[k]; !ok {
				t.Errorf("run %v lacks %q", r["id"], k)
			}
		}
		if r["iterations"].(float64) < 1 || r["duration_ms"].(float64) <= 0 {
			t.Errorf("run %v: iterations %v, duration %v", r["id"], r["iterations"], r["duration_ms"])
		}
		png, err := os.ReadFile(filepath.Join(cfg.OutDir, r["screenshot"].(string)))
		if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
			t.Errorf("screenshot of %v: %v", r["id"], err)
		}
	}
	if _, err := report.Load(filepath.Join(cfg.OutDir, "report.json")); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(cfg.OutDir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| bank | 1 | 1 | 100% |", "| broken | 0 | 1 | 0% |", "CHECKS_FAILED", "| snapshot |", "| model |", "| action |", "9,999.99"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	checkHTMLReport(t, filepath.Join(cfg.OutDir, "report.html"), 4)
	// The runs, replayed from their traces without a model on fresh
	// sites, pass (or fail) their checks again.
	replayChecked(t, cfg.OutDir, tasks, rep)
}

// checkHTMLReport opens the report in Chromium and checks what rendered:
// the charts, a row per run, and the screenshots decoded.
func checkHTMLReport(t *testing.T, path string, runs int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The report is a local file: the one case for file: URLs.
	b := chrome.Browser(t, browser.Options{AllowFileURLs: true})
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: "file://" + path}); err != nil {
		t.Fatal(err)
	}
	v, err := b.Eval(ctx, `(async () => {
		const imgs = [...document.querySelectorAll('img.shot')];
		await Promise.all(imgs.map(i => i.decode().catch(() => {})));
		// The first run's steps, opened: their screenshots come from its trace.
		document.querySelector('#tasks tr.task').click();
		const steps = [...document.querySelector('#tasks tr.detail.open').querySelectorAll('img.stepshot')];
		await Promise.all(steps.map(i => i.decode().catch(() => {})));
		return {
			ready: document.body.dataset.ready === 'true',
			charts: ['#chart-suites', '#chart-latency', '#chart-time'].map(s => document.querySelectorAll(s + ' svg rect.bar').length),
			rows: document.querySelectorAll('#tasks tr.task').length,
			failRows: document.querySelectorAll('#tasks tr.task[data-ok="false"]').length,
			imgs: imgs.length,
			widths: imgs.map(i => i.naturalWidth),
			// The step screenshots are files of the output folder, in the runs' traces.
			external: [...document.querySelectorAll('script[src], link[href], img:not([src^="data:"]):not([src^="traces/"])')].length,
			steps: steps.map(i => i.naturalWidth),
			traces: document.querySelectorAll('#tasks a.trace[href$="/index.html"]').length,
		};
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["ready"] != true {
		t.Error("the report's script did not run")
	}
	for i, n := range m["charts"].([]any) {
		if n.(float64) < 1 {
			t.Errorf("chart %d has no bars", i)
		}
	}
	if int(m["rows"].(float64)) != runs || m["failRows"].(float64) != 1 {
		t.Errorf("rows %v (failed %v), want %d (1)", m["rows"], m["failRows"], runs)
	}
	if int(m["imgs"].(float64)) != runs {
		t.Errorf("%v screenshots, want %d", m["imgs"], runs)
	}
	for _, w := range m["widths"].([]any) {
		if w.(float64) <= 0 {
			t.Errorf("a screenshot did not decode: naturalWidth %v", w)
		}
	}
	if st := m["steps"].([]any); len(st) == 0 || st[0].(float64) <= 0 {
		t.Errorf("the first run's step screenshots: natural widths %v", st)
	}
	if int(m["traces"].(float64)) != runs {
		t.Errorf("%v runs link their trace, want %d", m["traces"], runs)
	}
	if m["external"].(float64) != 0 {
		t.Errorf("the report loads %v external resources", m["external"])
	}
	if png, err := b.Screenshot(ctx); err == nil && os.Getenv("WEBAGENT_REPORT_SHOT") != "" {
		_ = os.WriteFile(os.Getenv("WEBAGENT_REPORT_SHOT"), png, 0o644)
	}
}

// TestCancelWritesPartialReport cancels a run while the model is answering
// (the model server never answers): the running tasks end as CANCELED at
// once, the others are listed as not run, and nothing is left behind
// (TestMain checks processes, profiles and goroutines).
func TestCancelWritesPartialReport(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{Fault: modelserver.NoHeaders}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "hang"})
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseIdleConnections()
	cfg := testConfig(t)
	cfg.Model, cfg.ModelName = client, "hang"
	tasks := builtin(t, "bank-balance", "shop-add-blue-mug", "wiki-default-port", "admin-first-joined")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Both workers are waiting for the model.
		if _, err := srv.WaitRequest(ctx, 1); err == nil {
			cancel()
		}
	}()
	start := time.Now()
	rep := NewRunner(cfg).Run(ctx, TaskJobs(tasks))
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %s", took)
	}
	if !rep.Partial || len(rep.Runs) != 2 || len(rep.NotRun) != 2 {
		t.Fatalf("partial %v, runs %d, not run %v", rep.Partial, len(rep.Runs), rep.NotRun)
	}
	for _, r := range rep.Runs {
		if r.Code != string(agent.CodeCanceled) || r.Success {
			t.Errorf("%s: %s %s", r.ID, r.Code, r.Message)
		}
	}
	if err := rep.WriteAll(cfg.OutDir); err != nil {
		t.Fatal(err)
	}
	got, err := report.Load(filepath.Join(cfg.OutDir, "report.json"))
	if err != nil || !got.Partial {
		t.Fatalf("partial report: %v %+v", err, got)
	}
	md, _ := os.ReadFile(filepath.Join(cfg.OutDir, "report.md"))
	if !strings.Contains(string(md), "Partial report") {
		t.Errorf("report.md does not say it is partial:\n%s", md)
	}
}

// TestRemoteBrowserPool runs tasks on a pool of "remote" browsers (local
// Chromiums reached by their DevTools URL), each run in its own browser
// context.
func TestRemoteBrowserPool(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var urls []string
	for range 2 {
		c, err := browser.StartServer(ctx, browser.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		urls = append(urls, c.URL)
	}
	cfg := testConfig(t)
	cfg.CDPURLs = urls
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs(builtin(t, "bank-balance", "mail-desk-number", "wiki-default-port")))
	used := map[string]bool{}
	for _, r := range rep.Runs {
		used[r.Browser] = true
		if !r.Success {
			t.Errorf("%s: %s %s", r.ID, r.Code, r.Message)
		}
	}
	if len(used) != 2 {
		t.Errorf("runs used browsers %v, want both of %v", used, urls)
	}
}

// TestRetryOnDeadBrowser: a run whose browser died is retried once on the
// next browser of the pool.
func TestRetryOnDeadBrowser(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	good, err := browser.StartServer(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	dead, err := browser.StartServer(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dead.Close()
	cfg := testConfig(t)
	cfg.Workers = 1
	cfg.CDPURLs = []string{dead.URL, good.URL}
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs(builtin(t, "bank-balance")))
	r := rep.Runs[0]
	if !r.Success || r.Attempts != 2 || r.Browser != good.URL {
		t.Fatalf("run %s %s after %d attempts on %s", r.Code, r.Message, r.Attempts, r.Browser)
	}
}

// TestFaults runs the fault suite: each fault must be caught within its
// bound, with an acceptable code.
func TestFaults(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	cfg := testConfig(t)
	rep := NewRunner(cfg).Run(context.Background(), FaultJobs())
	if len(rep.Runs) != len(Faults()) {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	for _, r := range rep.Runs {
		t.Logf("%s: %s in %d ms (bound %d ms): %s", r.Fault, r.Code, r.DurationMS, r.BoundMS, r.Seen)
		if !r.Success {
			t.Errorf("%s: %s", r.Fault, r.Message)
		}
		if r.Seen == "" || r.Expected == "" {
			t.Errorf("%s: seen %q, expected %q", r.Fault, r.Seen, r.Expected)
		}
	}
	if err := rep.WriteAll(cfg.OutDir); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(cfg.OutDir, "report.md"))
	if !strings.Contains(string(md), "## Faults") || !strings.Contains(string(md), "| crash |") {
		t.Errorf("report.md has no fault table:\n%s", md)
	}
}

// TestRetryWhenBrowserDiesMidTask: the browser a run uses dies while the
// model is thinking; the run is retried once, on the next browser of the
// pool, and passes.
func TestRetryWhenBrowserDiesMidTask(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	first, err := browser.StartServer(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := browser.StartServer(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	task := builtin(t, "bank-balance")[0]
	var killed atomic.Bool
	cfg := referenceConfig(t, task, func() {
		if !killed.Swap(true) {
			first.Close()
		}
	})
	cfg.CDPURLs = []string{first.URL, second.URL}
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs([]*suite.Task{task}))
	r := rep.Runs[0]
	if !r.Success || r.Attempts != 2 || r.Browser != second.URL {
		t.Fatalf("run %s %s after %d attempts on %s", r.Code, r.Message, r.Attempts, r.Browser)
	}
}

// TestLocalChromiumDiesMidTask: the worker's own Chromium is killed while
// the model is thinking; the worker starts a new one and the task is
// retried once, and passes.
//
// It is serial (no t.Parallel): it kills the newest Chromium of the tests,
// which, beside parallel tests, could be another test's.
func TestLocalChromiumDiesMidTask(t *testing.T) {
	skipWithoutChrome(t)
	task := builtin(t, "bank-balance")[0]
	var killed atomic.Int64
	cfg := referenceConfig(t, task, func() {
		if killed.Load() == 0 {
			killed.Store(int64(killMainChromium(t)))
		}
	})
	rep := NewRunner(cfg).Run(context.Background(), TaskJobs([]*suite.Task{task}))
	r := rep.Runs[0]
	if killed.Load() == 0 {
		t.Fatal("found no Chromium to kill")
	}
	if !r.Success || r.Attempts != 2 {
		t.Fatalf("run %s %s after %d attempts", r.Code, r.Message, r.Attempts)
	}
}

// referenceConfig is a one-worker configuration whose model plays the
// task's reference solution over HTTP, calling hook before each reply.
func referenceConfig(t *testing.T, task *suite.Task, hook func()) Config {
	t.Helper()
	ref := suite.ReferencePolicy(task, "")
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		hook()
		return ref.Respond(req)
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "reference"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	cfg := testConfig(t)
	cfg.Workers, cfg.Model = 1, client
	return cfg
}

// killMainChromium kills the process group of the harness's newest
// Chromium server (its main process has --remote-debugging-port), the one
// the running worker uses, and returns its pid. An earlier test's server
// may still be shutting down; the Chromium the tests share (chrome) is
// not the harness's.
func killMainChromium(t *testing.T) int {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	newest, newestStart := 0, uint64(0)
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), filepath.Join(testTmp, "webagent-profile-")) || !strings.Contains(string(b), "--remote-debugging-port=0") {
			continue
		}
		pid, err := strconv.Atoi(strings.Split(f, "/")[2])
		if err != nil {
			continue
		}
		// The server leads its own process group; its helpers carry
		// the same switches but are not group leaders.
		start, pgrp := processStart(pid)
		if pgrp != pid || pid == chrome.PID() {
			continue
		}
		if newest == 0 || start > newestStart {
			newest, newestStart = pid, start
		}
	}
	if newest == 0 {
		t.Error("no harness Chromium found")
		return 0
	}
	_ = syscall.Kill(-newest, syscall.SIGKILL)
	return newest
}

// processStart returns a process's start time in clock ticks since boot
// and its process group (fields 22 and 5 of /proc/PID/stat); 0s if unknown.
func processStart(pid int) (start uint64, pgrp int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3
	if len(f) < 20 {
		return 0, 0
	}
	start, _ = strconv.ParseUint(f[19], 10, 64)
	pgrp, _ = strconv.Atoi(f[2])
	return start, pgrp
}
