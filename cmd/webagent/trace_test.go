package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/signin"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestTraceReplayCLI: run --trace writes a trace, show-trace prints its
// viewer where there is no display, replay runs it again with the model
// server stopped, a trace cut short or a wrong folder is exit 2 with one
// clear line, and two traces of the task compare as the same steps.
func TestTraceReplayCLI(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	d, err := eval.StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dir := filepath.Join(t.TempDir(), "trace")
	task := d.Task()
	code, p := run(t, "run", "--url", d.SiteURL, "--base-url", d.Model.BaseURL(), "--model", "scripted",
		"--secret", "password="+eval.DemoPassword, "--trace", dir, "--trace-har", task.Instruction)
	if code != 0 || !strings.Contains(p.stderr.String(), "trace: "+dir) {
		t.Fatalf("run --trace: exit %d\n%s", code, p.stderr.String())
	}
	for _, f := range []string{"trace.jsonl", "index.html", "trace.har", "shots/0001.jpg", "shots/0002.jpg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || strings.Contains(string(b), eval.DemoPassword) {
			t.Errorf("%s: %v, or it holds the password", f, err)
		}
	}
	d.Model.Close() // replay needs no model

	show := []string{"show-trace", dir}
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		show = []string{"show-trace", "--print", dir} // never open a window from a test
	}
	code, p = run(t, show...)
	if code != 0 || strings.TrimSpace(p.stdout.String()) != filepath.Join(dir, "index.html") {
		t.Errorf("show-trace: exit %d, stdout %q", code, p.stdout.String())
	}
	code, p = run(t, "replay", dir)
	if code != 2 || !strings.Contains(p.stderr.String(), "the run used the secret password: pass it again with --secret password=VALUE") {
		t.Errorf("replay without the secret: exit %d\n%s", code, p.stderr.String())
	}
	code, p = run(t, "replay", "--secret", "password="+eval.DemoPassword, dir)
	if code != 0 || !strings.Contains(p.stdout.String(), "The checking account balance is $1,234.56.") ||
		!strings.Contains(p.stderr.String(), `step 1  click button "Sign in"`) {
		t.Errorf("replay: exit %d\nstdout %s\nstderr %s", code, p.stdout.String(), p.stderr.String())
	}

	// The same task again: the same steps, on the same site.
	d2, err := eval.StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	dir2 := filepath.Join(t.TempDir(), "trace2")
	if code, p = run(t, "run", "--url", d.SiteURL, "--base-url", d2.Model.BaseURL(), "--model", "scripted",
		"--secret", "password="+eval.DemoPassword, "--trace", dir2, task.Instruction); code != 0 {
		t.Fatalf("second run: exit %d\n%s", code, p.stderr.String())
	}
	if code, p = run(t, "eval", "compare", dir, dir2); code != 0 || !strings.Contains(p.stdout.String(), "the traces take the same steps") {
		t.Errorf("compare: exit %d\n%s%s", code, p.stdout.String(), p.stderr.String())
	}

	// A trace cut short while it was written.
	events, err := os.ReadFile(filepath.Join(dir, "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	cut := t.TempDir()
	if err := os.WriteFile(filepath.Join(cut, "trace.jsonl"), events[:len(events)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	code, p = run(t, "replay", "--secret", "password=x", cut)
	if msg := p.stderr.String(); code != 2 || !strings.Contains(msg, "is cut short; the events before it are read") || strings.Contains(msg, "panic") {
		t.Errorf("replay of a truncated trace: exit %d\n%s", code, msg)
	}
	code, p = run(t, "replay", t.TempDir())
	if code != 2 || !strings.Contains(p.stderr.String(), "is not a trace: it has no trace.jsonl") {
		t.Errorf("replay of an empty folder: exit %d\n%s", code, p.stderr.String())
	}
	code, p = run(t, "run", "--url", d.SiteURL, "--model", "m", "--base-url", d.Model.BaseURL(), "--trace", dir, "task")
	if code != 2 || !strings.Contains(p.stderr.String(), "the folder is not empty") {
		t.Errorf("run --trace into a used folder: exit %d\n%s", code, p.stderr.String())
	}
}

// TestReplayHeal: a trace of the sign-in task replays on a page whose
// button is now "Log in" only with --heal, with one model call, naming the
// healed step; --out records a trace that replays on that page with no
// model; --heal without a model is exit 2.
func TestReplayHeal(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	members := signin.New()
	srv := httptest.NewServer(members)
	defer srv.Close()
	llm, err := modelserver.Start(signin.Model())
	if err != nil {
		t.Fatal(err)
	}
	defer llm.Close()
	dir := filepath.Join(t.TempDir(), "trace")
	secret := "pw=" + signin.Password
	code, p := run(t, "run", "--url", srv.URL+"/", "--base-url", llm.BaseURL(), "--model", "m", "--secret", secret,
		"--var", "user=ann", "--trace", dir, signin.Task)
	if code != exitOK || len(llm.Requests()) != 4 {
		t.Fatalf("run --trace: exit %d, %d model calls\n%s", code, len(llm.Requests()), p.stderr.String())
	}
	members.Set("Log in", false)

	code, p = run(t, "replay", "--secret", secret, dir)
	if code != exitFailed || !strings.Contains(p.stderr.String(), `no element button "Sign in" on the page; similar elements: button "Log in"`) {
		t.Fatalf("replay without --heal: exit %d\n%s", code, p.stderr.String())
	}
	code, p = run(t, "replay", "--heal", "--secret", secret, dir)
	if code != exitUsage || !strings.Contains(p.stderr.String(), "--heal needs a model") {
		t.Fatalf("--heal without a model: exit %d\n%s", code, p.stderr.String())
	}

	healed := filepath.Join(t.TempDir(), "healed")
	before := len(llm.Requests())
	code, p = run(t, "replay", "--heal", "--model", "m", "--base-url", llm.BaseURL(), "--secret", secret, "--out", healed, dir)
	if code != exitOK || strings.TrimSpace(p.stdout.String()) != "plan: Gold" || len(llm.Requests())-before != 1 ||
		!strings.Contains(p.stderr.String(), `step 3 (click button "Sign in") healed: click button "Log in"`) {
		t.Fatalf("replay --heal: exit %d, %d model calls\nstdout %s\nstderr %s", code, len(llm.Requests())-before, p.stdout.String(), p.stderr.String())
	}
	if logins, _ := members.State(); len(logins) != 2 || logins[1] != "ann" {
		t.Fatalf("sign-ins %v", logins)
	}

	llm.Close() // the healed trace replays with no model
	code, p = run(t, "replay", "--secret", secret, healed)
	if code != exitOK || strings.TrimSpace(p.stdout.String()) != "plan: Gold" {
		t.Fatalf("replay of the healed trace: exit %d\n%s", code, p.stderr.String())
	}
	if b, err := os.ReadFile(filepath.Join(healed, "trace.jsonl")); err != nil || strings.Contains(string(b), signin.Password) {
		t.Fatalf("the healed trace: %v, or it holds the password", err)
	}
}
