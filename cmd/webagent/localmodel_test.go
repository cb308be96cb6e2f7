package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/localmodel"
	"github.com/webagent/webagent/testfixture/tier"
)

// realModelBound is how long the RealModel test's eval may take, the
// server's start included.
const realModelBound = 120 * time.Second

// A real open-weight model (the one ./setup.sh --local-model installs)
// drives one short built-in task end to end: eval starts llama.cpp's
// server, webagent talks to it through --base-url like any provider, the
// run ends within its bounds with a code, whatever the model writes, and
// the server is gone after the eval. Whether a 135M model passes is not
// asserted: that it was asked, answered and bounded is.
func TestRealModelEval(t *testing.T) {
	tier.Slow(t)
	in, err := localmodel.Find("")
	if err != nil {
		t.Skipf("no local model: %v", err)
	}
	out := t.TempDir()
	began := time.Now()
	p := start(t, "eval", "--local-model", "--task", "wiki-default-port", "--workers", "1",
		"--max-iterations", "4", "--task-timeout", "80s", "--max-tokens", "128", "--temperature", "0", "--out", out)
	code := p.wait(t, realModelBound+15*time.Second)
	took := time.Since(began)
	if code != exitOK && code != exitFailed {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	if took > realModelBound {
		t.Errorf("the eval took %s, over %s", took, realModelBound)
	}
	if !strings.Contains(p.stderr.String(), "llama-server with "+in.Name+" ready") {
		t.Errorf("stderr does not say the server started:\n%s", p.stderr.String())
	}
	r := readReport(t, out)
	if len(r.Runs) != 1 || r.Model != in.Name {
		t.Fatalf("report: %d runs, model %q", len(r.Runs), r.Model)
	}
	run := r.Runs[0]
	t.Logf("%s: success %v, code %s, %d iterations, %.1fs, tokens %d prompt + %d generated; answer %q",
		run.ID, run.Success, run.Code, run.Iterations, float64(run.DurationMS)/1000,
		run.Tokens.PromptTokens, run.Tokens.CompletionTokens, run.Answer)
	if run.Code == "" || run.Code == "HARNESS_ERROR" {
		t.Errorf("the run ended with code %q: %s", run.Code, run.Message)
	}
	// The model answered at least once: a step with the model's time and
	// something it wrote (a reply the stream reader stopped for repeating
	// itself has no usage from the server, so tokens alone cannot tell).
	answered := false
	for _, s := range run.Steps {
		answered = answered || (s.LLMMS > 0 && s.Error == "" && (s.Thought != "" || len(s.Actions) > 0))
	}
	if !answered {
		t.Errorf("no step shows an answer of the real model: %+v", run.Steps)
	}
	if left := serversOf(in.Server); len(left) > 0 {
		t.Errorf("llama-server left running after the eval: pids %v", left)
	}
	p.noEvalChromeLeft(t)
}

// serversOf lists the running processes whose program is server.
func serversOf(server string) []int {
	want, err := filepath.EvalSymlinks(server)
	if err != nil {
		return nil
	}
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && exe == want && syscall.Kill(pid, 0) == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Without the install, --local-model is a usage error that says the
// command that installs it; with a model of its own it is one too.
func TestLocalModelUsageErrors(t *testing.T) {
	t.Parallel()
	p := startEnv(t, []string{localmodel.DirEnv + "=" + t.TempDir()}, "eval", "--local-model", "--task", "wiki-default-port")
	if code := p.wait(t, 30*time.Second); code != exitUsage || !strings.Contains(p.stderr.String(), "install it with "+localmodel.InstallCommand) {
		t.Errorf("not installed: exit %d; stderr:\n%s", code, p.stderr.String())
	}
	code, p := run(t, "eval", "--local-model", "--base-url", "http://127.0.0.1:1/v1", "--task", "wiki-default-port")
	if code != exitUsage || !strings.Contains(p.stderr.String(), "leave out --base-url and --model") {
		t.Errorf("with --base-url: exit %d; stderr:\n%s", code, p.stderr.String())
	}
}
