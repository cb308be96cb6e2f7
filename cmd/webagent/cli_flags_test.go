package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// Every misstep on the command line: exit 2 and one line that says what
// is wrong and how to fix it.
func TestCommandLineMissteps(t *testing.T) {
	t.Parallel()
	srv, err := modelserver.Start(modelserver.Script())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	model := []string{"--base-url", srv.BaseURL(), "--model", "m"}
	run := func(args ...string) []string {
		return append(append([]string{"run", "--url", "https://example.org"}, model...), args...)
	}
	cases := []struct {
		name  string
		args  []string
		want  []string
		stdin string
	}{
		{"bare number task timeout", run("--task-timeout", "5", "task"), []string{`--task-timeout "5" is not a duration`, "use a unit, e.g. 5s or 5m"}, ""},
		{"bare number iteration timeout", run("--iteration-timeout", "30", "task"), []string{`--iteration-timeout "30"`, "30s"}, ""},
		{"bare number stream idle", run("--stream-idle-timeout", "9", "task"), []string{`--stream-idle-timeout "9"`, "9s"}, ""},
		{"bare number in eval", []string{"eval", "--task-timeout", "5"}, []string{`--task-timeout "5" is not a duration`, "webagent help eval"}, ""},
		{"bare number in compare", []string{"eval", "compare", "--min-time-change", "1"}, []string{`--min-time-change "1"`, "1s"}, ""},
		{"unknown flag", run("--task-timout", "5s", "task"), []string{"unknown flag --task-timout", "did you mean --task-timeout?"}, ""},
		{"unknown flag far from all", run("--zzzzzzzz", "task"), []string{"unknown flag --zzzzzzzz"}, ""},
		{"flag without value", []string{"run", "--url"}, []string{"--url needs a value"}, ""},
		{"bad boolean", run("--json=maybe", "task"), []string{"--json=maybe is not true or false"}, ""},
		{"vision marks after a space", run("--vision", "marks", "task"), []string{"--vision marks: write --vision=marks"}, ""},
		{"vision marks after a space in eval", []string{"eval", "--vision", "marks"}, []string{"write --vision=marks"}, ""},
		{"secret without a name", run("--secret", "=hunter2", "task"), []string{"--secret wants NAME=VALUE"}, ""},
		{"unknown command", []string{"rnu"}, []string{`unknown command "rnu"`, `did you mean "run"?`}, ""},
		{"help of an unknown command", []string{"help", "nosuch"}, []string{`unknown command "nosuch"`, "version"}, ""},
		{"help typo", []string{"help", "evl"}, []string{`did you mean "eval"?`}, ""},
		{"eval subcommand typo", []string{"eval", "compar", "a.json", "b.json"}, []string{"did you mean 'webagent eval compare OLD NEW'?"}, ""},
		{"bench subcommand typo", []string{"bench", "snapshots", "dir"}, []string{"did you mean 'webagent bench snapshot DIR'?"}, ""},
		{"undeclared secret", run("log in with <secret>pw</secret>"), []string{"the task uses <secret>pw</secret> but no secret pw is declared; declare it (--secret pw=VALUE"}, ""},
		{"other secret declared", run("--secret", "user=me", "log in with <secret>pw</secret>"), []string{"no secret pw is declared"}, ""},
		// submit refuses it the same way, before it dials the fleet (no
		// server listens on port 1).
		{"submit with an undeclared secret", []string{"submit", "--temporal", "127.0.0.1:1", "--url", "https://example.org", "log in with <secret>pw</secret>"},
			[]string{"the task uses <secret>pw</secret> but no secret pw is declared"}, ""},
		{"browser command typo", []string{"browser", "snapshto"}, []string{`unknown browser command "snapshto"`, `did you mean "snapshot"?`}, ""},
		{"browser command without its ref", []string{"browser", "click"}, []string{"click needs the argument", "ref"}, ""},
		{"completion without shell", []string{"completion"}, []string{"webagent completion bash|zsh|fish"}, ""},
		{"completion typo", []string{"completion", "bsh"}, []string{`unknown shell "bsh"`, "did you mean bash?"}, ""},
		{"headless is a flag", []string{"run", "--headless", "--url", "https://example.org", "task"}, []string{"no model configured"}, ""},
		{"headless false is a flag", []string{"run", "--headless=false", "--url", "https://example.org", "task"}, []string{"no model configured"}, ""},
		{"empty stdin task", run("-"), []string{"the task read from stdin is empty"}, " \n"},
		{"missing task file", run("--task-file", "/nonexistent/task.txt"), []string{"--task-file", "no such file"}, ""},
		{"task twice", run("--task-file", "/dev/null", "task"), []string{"give the task once"}, ""},
		{"consent maybe", run("--consent", "maybe", "task"), []string{`--consent: consent "maybe" is neither reject nor accept`, "give reject"}, ""},
		{"consent maybe in eval", []string{"eval", "--consent", "maybe"}, []string{`--consent: consent "maybe"`, "give reject"}, ""},
		{"consent maybe in mcp", []string{"mcp", "--consent", "maybe"}, []string{`--consent: consent "maybe"`, "give reject"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runEnv(t, nil, c.stdin, c.args...)
			checkStderr(t, code, exitUsage, stderr, c.want, "flag provided but not defined", "parse error", "hunter2")
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("want one line, got:\n%s", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d chat requests reached the model server; a misstep must stop before", n)
	}
}

// Help writes flags as README does, --name.
func TestHelpWritesDoubleDash(t *testing.T) {
	t.Parallel()
	single := regexp.MustCompile(`(?m)^\s+-[a-z]`)
	for _, cmd := range []string{"run", "demo", "bench", "eval"} {
		code, stdout, stderr := runEnv(t, nil, "", "help", cmd)
		if code != exitOK {
			t.Fatalf("help %s: exit %d; %s", cmd, code, stderr)
		}
		if !strings.Contains(stdout, "\n  --") || single.MatchString(stdout) {
			t.Errorf("help %s does not write every flag as --name:\n%s", cmd, stdout)
		}
	}
	_, stdout, _ := runEnv(t, nil, "", "help", "run")
	for _, want := range []string{"--headless", "--task-file", "--task-timeout duration"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help run lacks %q", want)
		}
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"version", "--version"} {
		code, stdout, stderr := runEnv(t, nil, "", arg)
		if code != exitOK || !strings.HasPrefix(stdout, "webagent github.com/webagent/webagent ") || !strings.Contains(stdout, "commit ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", arg, code, stdout, stderr)
		}
	}
	line := versionLine(&debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/webagent/webagent", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-24T01:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	})
	want := "webagent github.com/webagent/webagent v1.2.3, commit 0123456789abcdef0123456789abcdef01234567 (modified) of 2026-11-24T01:00:00Z, go1.26.8"
	if line != want {
		t.Errorf("versionLine = %q, want %q", line, want)
	}
}

// The bash script completes commands and each command's flags, in a real
// bash.
func TestCompletionBash(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	_, script, _ := runEnv(t, nil, "", "completion", "bash")
	f := filepath.Join(t.TempDir(), "webagent.bash")
	if err := os.WriteFile(f, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		words string
		want  string
	}{
		{"webagent ru", "run"},
		{"webagent run --task-t", "--task-timeout"},
		{"webagent run --url x --headl", "--headless"},
		{"webagent run --polic", "--policy"},
		{"webagent mcp --confir", "--confirm"},
		{"webagent run --conf", "--config --confirm"},
		{"webagent eval --workers", "--workers"},
		{"webagent eval --worker-", "--worker-model"},
		{"webagent sub", "submit"},
		{"webagent eval co", "compare"},
		{"webagent help ev", "eval"},
		{"webagent completion fi", "fish"},
	} {
		words := strings.Fields(c.words)
		prog := fmt.Sprintf(`source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _webagent; echo "${COMPREPLY[*]}"`, f, c.words, len(words)-1)
		out, err := exec.Command(bash, "-c", prog).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != c.want {
			t.Errorf("%q completes to %q (%v), want %q", c.words, out, err, c.want)
		}
	}
	for _, shell := range []string{"zsh", "fish"} {
		code, out, _ := runEnv(t, nil, "", "completion", shell)
		if code != exitOK || !strings.Contains(out, "task-timeout") || !strings.Contains(out, "compare") {
			t.Errorf("completion %s: exit %d\n%s", shell, code, out)
		}
	}
}

// The task can come from a file or stdin; it reaches the model as written.
// A declared secret the task does not name is a warning, not an error.
func TestTaskFromFileAndStdin(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>T</title><p>hello</p>`)
	}))
	t.Cleanup(site.Close)
	file := filepath.Join(t.TempDir(), "task.txt")
	if err := os.WriteFile(file, []byte("read the greeting\nfrom the file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stdin, want string
		args              []string
	}{
		{"file", "", "read the greeting\nfrom the file", []string{"--task-file", file}},
		{"dash", "read the greeting from stdin\n", "read the greeting from stdin", []string{"-"}},
		{"task-file dash", "stdin via --task-file\n", "stdin via --task-file", []string{"--task-file", "-"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv, err := modelserver.Start(modelserver.Script(modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "hello"})}}))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			args := append([]string{"run", "--url", site.URL, "--base-url", srv.BaseURL(), "--model", "m", "--secret", "pw=hunter2"}, c.args...)
			code, stdout, stderr := runEnv(t, nil, c.stdin, args...)
			if code != exitOK || strings.TrimSpace(stdout) != "hello" {
				t.Fatalf("exit %d, stdout %q; stderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "warning: the task does not mention <secret>pw</secret>") {
				t.Errorf("no warning about the unused secret; stderr:\n%s", stderr)
			}
			reqs := srv.Requests()
			if len(reqs) == 0 {
				t.Fatal("no model request")
			}
			var all strings.Builder
			for _, m := range reqs[0].Req.Messages {
				all.WriteString(m.Content)
			}
			if !strings.Contains(all.String(), c.want) {
				t.Errorf("the model was not given the task %q:\n%s", c.want, all.String())
			}
		})
	}
}

// Step lines show the model's <secret>NAME</secret> as written, not as
// JSON's \u003csecret\u003e; the secret's value is never shown.
func TestStepLinesShowSecretPlaceholder(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	code, stdout, stderr := runEnv(t, nil, "", "demo")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, `"text":"<secret>password</secret>"`) || strings.Contains(stderr, `\u003c`) {
		t.Errorf("step lines do not show <secret>password</secret> as written:\n%s", stderr)
	}
	if strings.Contains(stdout, `\u003c`) {
		t.Errorf("stdout has an escaped <: %s", stdout)
	}
}

// --vision stays a bool and takes marks.
func TestVisionFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args      []string
		on, marks bool
		bad       bool
	}{
		{nil, false, false, false},
		{[]string{"--vision"}, true, false, false},
		{[]string{"--vision=false"}, false, false, false},
		{[]string{"--vision=marks"}, true, true, false},
		{[]string{"--vision=pixels"}, false, false, true},
	} {
		var cm common
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cm.registerLoop(fs)
		err := fs.Parse(c.args)
		if (err != nil) != c.bad || cm.vision.on != c.on || cm.vision.marks != c.marks {
			t.Errorf("%v: on %v marks %v err %v", c.args, cm.vision.on, cm.vision.marks, err)
		}
	}
}
