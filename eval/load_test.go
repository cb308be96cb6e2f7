package eval

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/testfixture/machinelock"
)

// busyEnv makes the test binary a busy process: it spins on one core
// until it is killed, or for busyMax at most.
const (
	busyEnv = "WEBAGENT_EVAL_BUSY"
	busyMax = 10 * time.Minute
)

func busyLoop() {
	end := time.Now().Add(busyMax)
	x := 0
	for time.Now().Before(end) {
		for i := range 1_000_000 {
			x += i
		}
	}
	busySink = x // keeps the loop from being optimised away
	os.Exit(0)
}

var busySink int

// startBusy starts n busy processes and returns a function that kills them
// by PID and waits for them. Each also dies with the test (parent-death
// signal) and ends by itself after busyMax.
func startBusy(t *testing.T, n int) func() {
	t.Helper()
	var cmds []*exec.Cmd
	stop := func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
		cmds = nil
	}
	for range n {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), busyEnv+"=1")
		c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := c.Start(); err != nil {
			stop()
			t.Fatalf("starting a busy process: %v", err)
		}
		cmds = append(cmds, c)
	}
	t.Cleanup(stop)
	return stop
}

// TestBuiltinSuiteUnderLoad and TestBuiltinSuiteUnderLoadThrottled are
// the built-in suites but the in-page one (inPageSuite) on a machine made
// slow: tasks beside busy processes at four times the core count, and
// tasks with every page's CPU throttled six times. A task must not fail because the machine is slow: every one
// must pass. By default each takes a quarter of every site's tasks (the
// first, fifth... of a site under load, the third, seventh... throttled),
// so every site with three tasks or more meets both; with
// WEBAGENT_LOAD_TASKS=all they take halves that cover every task, as a
// release check does. (`webagent eval`, the README's first command, runs
// every task on a quiet machine.)
//
// It is serial (no t.Parallel) and holds the machine alone
// (machinelock.Exclusive): its busy processes would slow the parallel tests
// and other test binaries down; it runs before them and beside none.
func TestBuiltinSuiteUnderLoad(t *testing.T) {
	skipWithoutChrome(t)
	runBuiltinSuite(t, browser.Options{}, 4*runtime.NumCPU(), 0)
}

// TestBuiltinSuiteUnderLoadThrottled is the odd half of the built-in suite
// with every page's CPU throttled six times (Chromium pauses the page's
// thread: the machine is not loaded, and so the test runs beside the
// others).
func TestBuiltinSuiteUnderLoadThrottled(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	runBuiltinSuite(t, browser.Options{CPUThrottle: 6}, 0, 1)
}

// runBuiltinSuite runs the built-in tasks of parity half (0: the even
// ones, 1: the odd ones; of those, every other one unless
// WEBAGENT_LOAD_TASKS=all) with the browser options opts, beside busy
// busy processes, and fails t for each task that fails.
func runBuiltinSuite(t *testing.T, opts browser.Options, busy, half int) {
	all := loadSuites(t)
	tasks := loadSample(all, half, os.Getenv("WEBAGENT_LOAD_TASKS") == "all")
	t.Logf("%d of the %d built-in tasks", len(tasks), len(all))
	cfg := testConfig(t)
	cfg.Browser = opts
	if busy > 0 {
		machinelock.Exclusive(t) // its load is its own; nothing else runs beside it
		stop := startBusy(t, busy)
		defer stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	t0 := time.Now()
	rep := NewRunner(cfg).Run(ctx, TaskJobs(tasks))
	passed := 0
	for _, r := range rep.Runs {
		if r.Success {
			passed++
			continue
		}
		t.Errorf("%s failed under load: %s: %s", r.ID, r.Code, r.Message)
	}
	if rep.Partial || len(rep.Runs) != len(tasks) {
		t.Errorf("partial report: %d runs of %d tasks", len(rep.Runs), len(tasks))
	}
	t.Logf("%d of %d passed in %s", passed, len(tasks), time.Since(t0).Round(time.Second))
	if t.Failed() {
		_ = rep.WriteAll(cfg.OutDir)
		if md, err := os.ReadFile(cfg.OutDir + "/report.md"); err == nil {
			t.Logf("report.md:\n%s", md)
		}
	}
}

// inPageSuite is the built-in suite of in-page work (the apps site),
// which the load tests leave out: it is there to measure what the model
// reads on one page, and the other suites meet every site's load.
const inPageSuite = "apps"

// loadSuites returns the built-in tasks the load tests take from: all but
// the in-page suite's.
func loadSuites(t *testing.T) []*suite.Task {
	t.Helper()
	all, err := suite.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(all, func(tk *suite.Task) bool { return tk.Suite == inPageSuite })
}

// loadSample picks a load test's tasks: of each suite's tasks in order,
// those at an index of parity half (every one: every task is in one of
// the two halves), or with a quarter, at index 2*half modulo 4.
func loadSample(all []*suite.Task, half int, every bool) []*suite.Task {
	var tasks []*suite.Task
	j := 0
	for i, tk := range all {
		if i > 0 && tk.Suite != all[i-1].Suite {
			j = 0
		}
		if (every && j%2 == half) || (!every && j%4 == 2*half) {
			tasks = append(tasks, tk)
		}
		j++
	}
	return tasks
}

// TestLoadSample: the two halves cover every built-in task once; the
// quarters give every site of three tasks or more to both load tests.
func TestLoadSample(t *testing.T) {
	all := loadSuites(t)
	if len(all) == 0 || slices.ContainsFunc(all, func(tk *suite.Task) bool { return tk.Suite == inPageSuite }) {
		t.Fatalf("the load tests take %d tasks, the in-page suite's among them or none", len(all))
	}
	seen := map[string]int{}
	for half := range 2 {
		for _, tk := range loadSample(all, half, true) {
			seen[tk.ID]++
		}
	}
	for _, tk := range all {
		if seen[tk.ID] != 1 {
			t.Errorf("%s is in %d halves, want 1", tk.ID, seen[tk.ID])
		}
	}
	size := map[string]int{}
	for _, tk := range all {
		size[tk.Suite]++
	}
	for half := range 2 {
		got := map[string]bool{}
		for _, tk := range loadSample(all, half, false) {
			got[tk.Suite] = true
		}
		for s, n := range size {
			if n >= 3 && !got[s] {
				t.Errorf("quarter %d has no task of %s (%d tasks)", half, s, n)
			}
		}
	}
}
