package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/machinelock"
	"github.com/webagent/webagent/testfixture/tier"
)

var bin string

func TestMain(m *testing.M) {
	if os.Getenv(spinEnv) != "" {
		spin()
	}
	_ = machinelock.Shared()
	dir, err := os.MkdirTemp("", "webagent-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "webagent")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building webagent: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	if err := viewerChrome.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	// A test that started a session (webagent browser) must have ended it;
	// one that is closing has a few seconds to go.
	if left := sessionsLeftAfter(bin, 15*time.Second); len(left) > 0 {
		fmt.Fprintln(os.Stderr, "webagent browser sessions left running:", left)
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		code = 1
	}
	os.RemoveAll(dir)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutine leak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

type proc struct {
	cmd    *exec.Cmd
	stdout stampedBuffer
	stderr bytes.Buffer
	tmp    string
}

// stampedBuffer is a bytes.Buffer that notes when its first bytes came
// (read it after the process has exited).
type stampedBuffer struct {
	bytes.Buffer
	first   time.Time
	printed chan struct{} // closed with the first bytes, when made
}

// ReadFrom copies through Write, which notes the time: the Buffer's own
// ReadFrom, which exec's copy prefers, would not.
func (b *stampedBuffer) ReadFrom(r io.Reader) (int64, error) {
	return io.Copy(struct{ io.Writer }{b}, r)
}

func (b *stampedBuffer) Write(p []byte) (int, error) {
	if b.first.IsZero() && len(p) > 0 {
		b.first = time.Now()
		if b.printed != nil {
			close(b.printed)
		}
	}
	return b.Buffer.Write(p)
}

// start runs the binary with a private TMPDIR (so leftover Chrome profiles
// can be found) and no model configured in the environment.
func start(t *testing.T, args ...string) *proc {
	t.Helper()
	return startEnv(t, nil, args...)
}

// startEnv is start with env (KEY=value) added to the process's
// environment.
func startEnv(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{tmp: t.TempDir()}
	p.stdout.printed = make(chan struct{})
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	base := []string{"TMPDIR=" + p.tmp}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "OPENAI_API_KEY", "OPENAI_BASE_URL", "WEBAGENT_MODEL", "TMPDIR":
			continue
		}
		base = append(base, kv)
	}
	p.cmd.Env = append(base, env...)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	return p
}

func (p *proc) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(within):
		p.cmd.Process.Kill()
		<-done
		t.Fatalf("webagent did not exit within %s\nstderr:\n%s", within, p.stderr.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// leftWithin is how long after its exit a run's folders may remain: the
// time its reaper may take (launcher.Process.Abandon), which its own bound
// (10 s, launcher's reapBudget) ends. It usually takes well under a
// second; on a loaded machine a browser's helpers can take seconds to
// die, and the reaper waits for them before it removes the folders (seen
// at 3 s, in state R, in about one full run of six).
const leftWithin = 10 * time.Second

// noChromeLeft checks that no Chrome profile, temporary or download
// folder (and so no Chrome using it) remains in the process's TMPDIR
// leftWithin after its exit.
func (p *proc) noChromeLeft(t *testing.T) {
	t.Helper()
	if left := p.goneWithin(leftWithin); len(left) > 0 {
		t.Errorf("left behind %s after the exit: %v", leftWithin, left)
	}
}

// goneWithin waits, up to d, for nothing of p's browser to be left, and
// returns what is left then.
func (p *proc) goneWithin(d time.Duration) []string {
	deadline := time.Now().Add(d)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		left := p.left()
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		<-tick.C
	}
}

// left lists the temporary Chrome profiles and folders, the download
// folders, and the processes using them or reaping them, that remain in
// the process's TMPDIR.
func (p *proc) left() []string {
	var left []string
	for _, pat := range []string{"webagent-profile-*", "webagent-tmp-*", "webagent-downloads-*", "org.chromium.Chromium.*"} {
		m, _ := filepath.Glob(filepath.Join(p.tmp, pat))
		left = append(left, m...)
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err == nil && bytes.Contains(b, []byte(p.tmp)) {
			left = append(left, "a process: "+strings.ReplaceAll(string(b), "\x00", " "))
			continue
		}
		// A reaper (launcher.Process.Abandon) names its folders in its
		// environment.
		env, err := os.ReadFile(filepath.Join(filepath.Dir(f), "environ"))
		if err == nil && bytes.Contains(env, []byte("WEBAGENT_LAUNCHER_REAP=")) && bytes.Contains(env, []byte(p.tmp)) {
			left = append(left, "a process: the reaper "+filepath.Dir(f)+" "+procState(filepath.Dir(f)))
		}
	}
	return left
}

// procState says what the process at dir (/proc/PID) is doing: its
// state, where in the kernel it waits, and its threads' states.
func procState(dir string) string {
	stat, _ := os.ReadFile(filepath.Join(dir, "stat"))
	wchan, _ := os.ReadFile(filepath.Join(dir, "wchan"))
	var threads []string
	tasks, _ := filepath.Glob(filepath.Join(dir, "task", "*", "stat"))
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
			threads = append(threads, string(b[i+2]))
		}
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	state, start := "?", "?"
	if len(f) > 19 {
		state, start = f[0], f[19] // field 3 and field 22 (starttime, clock ticks)
	}
	up, _ := os.ReadFile("/proc/uptime")
	return fmt.Sprintf("(state %s, wchan %s, threads %s, started at tick %s, uptime %s)", state, wchan, strings.Join(threads, ""), start, bytes.Fields(up)[0])
}

func run(t *testing.T, args ...string) (int, *proc) {
	t.Helper()
	p := start(t, args...)
	return p.wait(t, 2*time.Minute), p
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	llm, err := modelserver.Start(modelserver.Script())
	if err != nil {
		t.Fatal(err)
	}
	defer llm.Close()
	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return "http://" + l.Addr().String() + "/v1"
	}()
	model := []string{"--base-url", llm.BaseURL(), "--model", "m"}
	cases := []struct {
		name string
		args []string
		want []string // every fragment must be in the one line on stderr
	}{
		{"no command", nil, []string{"Usage"}},
		{"unknown command", []string{"fly"}, []string{`unknown command "fly"`}},
		{"bad flag", []string{"run", "--nope"}, []string{"unknown flag --nope"}},
		{"no task", append([]string{"run", "--url", "https://example.org"}, model...), []string{"no task given"}},
		{"no url", append([]string{"run", "task"}, model...), []string{"--url is required"}},
		{"url without scheme", append([]string{"run", "--url", "example.org", "task"}, model...), []string{"has no scheme", "https://example.org"}},
		{"bad scheme", append([]string{"run", "--url", "ftp://x", "task"}, model...), []string{`scheme "ftp" is not supported`}},
		{"negative timeout", append([]string{"run", "--url", "https://example.org", "--iteration-timeout", "-1s", "task"}, model...), []string{"--iteration-timeout is -1s"}},
		{"bad duration", append([]string{"run", "--url", "https://example.org", "--iteration-timeout", "soon", "task"}, model...), []string{`--iteration-timeout "soon" is not a duration`, "90s"}},
		{"bad log level", append([]string{"run", "--url", "https://example.org", "--log-level", "loud", "task"}, model...), []string{`--log-level "loud"`}},
		{"no model", []string{"run", "--url", "https://example.org", "task"}, []string{"no model configured", "--model", "Ollama", "11434"}},
		{"bad tool mode", append([]string{"run", "--url", "https://example.org", "--tool-mode", "maybe", "task"}, model...), []string{`--tool-mode is "maybe"`, "auto, native or prompt"}},
		{"bad temperature", append([]string{"run", "--url", "https://example.org", "--temperature", "hot", "task"}, model...), []string{`--temperature "hot"`, "from 0 to 2"}},
		{"bad max tokens", append([]string{"run", "--url", "https://example.org", "--max-tokens", "0", "task"}, model...), []string{`--max-tokens "0"`}},
		{"unreachable model", []string{"run", "--url", "https://example.org", "--base-url", closed, "--model", "m", "task"}, []string{"cannot reach the model server", "connection refused", "is the model server running on port"}},
		{"file url", append([]string{"run", "--url", "file:///etc/passwd", "task"}, model...), []string{"local files are not opened", "http.server"}},
		{"bad allowed domain", append([]string{"run", "--url", "https://example.org", "--allowed-domains", "example.org,ex*.org", "task"}, model...), []string{"--allowed-domains", "wildcard"}},
		{"bad blocked domain", append([]string{"run", "--url", "https://example.org", "--blocked-domains", "example.org/path", "task"}, model...), []string{"--blocked-domains", "not a path"}},
		{"bad secret origin", append([]string{"run", "--url", "https://example.org", "--secret", "pw@ftp://x=hunter2", "task"}, model...), []string{"--secret", "not an http or https origin"}},
		{"bad secret", append([]string{"run", "--url", "https://example.org", "--secret", "pw=env:WEBAGENT_TEST_UNSET", "task"}, model...), []string{"WEBAGENT_TEST_UNSET is not set"}},
		{"inbox not imaps", append([]string{"run", "--url", "https://example.org", "--inbox", "imap://a@mail.example.org/INBOX", "--secret", "inbox=pw", "task"}, model...), []string{"--inbox", "never STARTTLS", "imaps://USER@HOST"}},
		{"inbox without password", append([]string{"run", "--url", "https://example.org", "--inbox", "imaps://a@mail.example.org/INBOX", "task"}, model...), []string{"--inbox", "--secret inbox=env:VAR"}},
		{"inbox CA missing", append([]string{"run", "--url", "https://example.org", "--inbox", "imaps://a@mail.example.org/INBOX", "--secret", "inbox=pw", "--inbox-ca", "/nonexistent.pem", "task"}, model...), []string{"--inbox-ca", "/nonexistent.pem"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, p := run(t, c.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want 2; stderr:\n%s", code, p.stderr.String())
			}
			msg := p.stderr.String()
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr lacks %q:\n%s", w, msg)
				}
			}
			if c.args != nil && strings.Count(strings.TrimSpace(msg), "\n") > 0 {
				t.Errorf("want one line, got:\n%s", msg)
			}
			if p.stdout.Len() > 0 {
				t.Errorf("stdout not empty: %q", p.stdout.String())
			}
			p.noChromeLeft(t)
		})
	}
}

func TestUnauthorizedKeyIsUsageError(t *testing.T) {
	t.Parallel()
	// The server accepts only another key.
	llm, err := modelserver.Start(modelserver.Script(), modelserver.WithAPIKey("good-key"))
	if err != nil {
		t.Fatal(err)
	}
	defer llm.Close()
	code, p := run(t, "run", "--url", "https://example.org", "--base-url", llm.BaseURL(), "--model", "m", "--api-key", "sk-secret-123", "task")
	if code != exitUsage || !strings.Contains(p.stderr.String(), "refused the API key") {
		t.Fatalf("exit %d, stderr:\n%s", code, p.stderr.String())
	}
	if strings.Contains(p.stderr.String()+p.stdout.String(), "sk-secret-123") {
		t.Fatal("the API key was printed")
	}
}

func TestDemoJSON(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	code, p := run(t, "demo", "--json")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	var res map[string]any
	dec := json.NewDecoder(&p.stdout)
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	if dec.More() {
		t.Fatal("stdout holds more than one JSON value")
	}
	for _, k := range []string{"status", "code", "answer", "message", "iterations", "duration_ms", "steps", "usage"} {
		if _, ok := res[k]; !ok {
			t.Errorf("JSON result lacks %q", k)
		}
	}
	if res["code"] != "SUCCESS" || !strings.Contains(res["answer"].(string), "$1,234.56") {
		t.Fatalf("result %v", res)
	}
	if n := strings.Count(p.stderr.String(), "step "); n < 2 {
		t.Errorf("want a line per step on stderr, got:\n%s", p.stderr.String())
	}
	if strings.Contains(p.stderr.String()+p.stdout.String(), "correct-horse-battery") {
		t.Fatal("the demo's password was printed")
	}
	p.noChromeLeft(t)
}

func TestDemoHuman(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	code, p := run(t, "demo")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	if got := strings.TrimSpace(p.stdout.String()); got != "The checking account balance is $1,234.56." {
		t.Fatalf("stdout %q, want only the answer", got)
	}
}

func hangingSetup(t *testing.T) (site string, srv *modelserver.Server) {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>T</title><button>Go</button>`)
	}))
	t.Cleanup(s.Close)
	srv, err := modelserver.Start(modelserver.ResponderFunc(func(*modelserver.ChatRequest) modelserver.Turn {
		return modelserver.Turn{Fault: modelserver.NoHeaders}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return s.URL, srv
}

// SIGINT and SIGTERM end the task as CANCELED within a second, with the
// result printed, exit 130, and Chrome and its profile gone.
func TestSignalCancels(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			site, srv := hangingSetup(t)
			p := start(t, "run", "--json", "--url", site, "--base-url", srv.BaseURL(), "--model", "m", "press Go")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			// The loop is mid-iteration once the model request arrives.
			if _, err := srv.WaitRequest(ctx, 0); err != nil {
				t.Fatalf("no model request: %v; stderr:\n%s", err, p.stderr.String())
			}
			sent := time.Now()
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := p.wait(t, 5*time.Second)
			lag := time.Since(sent)
			printed := p.stdout.first.Sub(sent)
			t.Logf("result printed %s and exited %s after the signal", printed, lag)
			if printed > resultBound || lag > exitBound {
				t.Errorf("result printed %s and exited %s after the signal, want within %s and %s", printed, lag, resultBound, exitBound)
			}
			if code != exitInterrupted {
				t.Fatalf("exit %d, want 130; stderr:\n%s", code, p.stderr.String())
			}
			var res struct{ Code, Status string }
			if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || res.Code != "CANCELED" {
				t.Fatalf("result %q (%v)", p.stdout.String(), err)
			}
			p.noChromeLeft(t)
		})
	}
}

// A signal that comes once the task has its result (printed, the browser
// closing) does not change it: the outcome reached first wins, here
// SUCCESS and exit 0; the process still exits within exitBound.
func TestSignalAfterResultKeepsIt(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site, _ := hangingSetup(t)
	srv, err := modelserver.Start(modelserver.Script(modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "pressed"})}}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	p := start(t, "run", "--json", "--url", site, "--base-url", srv.BaseURL(), "--model", "m", "press Go")
	select {
	case <-p.stdout.printed:
	case <-time.After(time.Minute):
		t.Fatalf("no result within a minute; stderr:\n%s", p.stderr.String())
	}
	sent := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := p.wait(t, 5*time.Second)
	if lag := time.Since(sent); lag > exitBound {
		t.Errorf("exited %s after the signal, want within %s", lag, exitBound)
	}
	var res struct{ Code, Answer string }
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || res.Code != "SUCCESS" || code != exitOK {
		t.Fatalf("exit %d, result %q (%v), want SUCCESS and 0", code, p.stdout.String(), err)
	}
	p.noChromeLeft(t)
}

func TestIterationTimeoutExitsOne(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site, srv := hangingSetup(t)
	start := time.Now()
	code, p := run(t, "run", "--json", "--iteration-timeout", "2s", "--url", site, "--base-url", srv.BaseURL(), "--model", "m", "press Go")
	if code != exitFailed {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	var res struct{ Code, Message string }
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || res.Code != "ITERATION_TIMEOUT" {
		t.Fatalf("result %q (%v)", p.stdout.String(), err)
	}
	if e := time.Since(start); e > 20*time.Second {
		t.Fatalf("took %s", e)
	}
	p.noChromeLeft(t)
}

// A signal while the browser starts still gives exactly one result (one
// JSON object under --json) and exit 130 at once; Chrome and its profile
// are gone.
func TestSignalWhileStarting(t *testing.T) {
	t.Parallel()
	site, srv := hangingSetup(t)
	p := start(t, "run", "--json", "--url", site, "--base-url", srv.BaseURL(), "--model", "m", "press Go")
	// Chromium is starting once a process uses a profile in p's TMPDIR.
	waitFor(t, "Chromium to start", time.Minute, func() bool { return p.chromeRuns() })
	sent := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := p.wait(t, 5*time.Second)
	lag := time.Since(sent)
	printed := p.stdout.first.Sub(sent)
	t.Logf("result printed %s and exited %s after the signal", printed, lag)
	if printed > resultBound || lag > exitBound {
		t.Errorf("result printed %s and exited %s after the signal, want within %s and %s", printed, lag, resultBound, exitBound)
	}
	if code != exitInterrupted {
		t.Fatalf("exit %d, want 130; stderr:\n%s", code, p.stderr.String())
	}
	dec := json.NewDecoder(&p.stdout)
	var res struct{ Code, Status string }
	if err := dec.Decode(&res); err != nil || res.Code != "CANCELED" {
		t.Fatalf("result %q (%v)", p.stdout.String(), err)
	}
	if dec.More() {
		t.Errorf("more than one JSON object on stdout: %q", p.stdout.String())
	}
	p.noChromeLeft(t)
}

// chromeRuns reports whether a process uses p's TMPDIR (a Chromium with
// its profile there).
func (p *proc) chromeRuns() bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err == nil && bytes.Contains(b, []byte("--user-data-dir="+p.tmp)) {
			return true
		}
	}
	return false
}

// After a signal or a bound, the result must be printed within
// resultBound, and the process must have exited, Chrome's clean-up
// included, within exitBound (half a second on a quiet machine; the bound
// leaves room for a loaded one).
const (
	resultBound = 500 * time.Millisecond
	exitBound   = 1500 * time.Millisecond
)

// waitFor polls cond until it holds or the limit passes.
func waitFor(t testing.TB, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		<-tick.C
	}
}

// TestModelFlagsReachServer: --temperature 0 and --seed are sent as given,
// and --tool-mode prompt sends no tools and reads the call from the text.
// Under go test -short it is the door's one real-browser run of webagent
// run (package tier): never call tier.Slow here.
func TestModelFlagsReachServer(t *testing.T) {
	t.Parallel()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>T</title><p>Hello</p>`)
	}))
	defer s.Close()
	srv, err := modelserver.Start(modelserver.Script(modelserver.Turn{Text: `<tool_call>{"name": "done", "arguments": {"answer": "hi"}}</tool_call>`}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	code, p := run(t, "run", "--json", "--temperature", "0", "--seed", "7", "--tool-mode", "prompt",
		"--url", s.URL, "--base-url", srv.BaseURL(), "--model", "m", "say hi")
	var res struct{ Code, Answer string }
	if err := json.Unmarshal(p.stdout.Bytes(), &res); err != nil || code != 0 || res.Code != "SUCCESS" || res.Answer != "hi" {
		t.Fatalf("exit %d, result %q (%v); stderr:\n%s", code, p.stdout.String(), err, p.stderr.String())
	}
	req := srv.Requests()[0].Req
	if req.Temperature == nil || *req.Temperature != 0 || !strings.Contains(string(req.Raw), `"seed":7`) || len(req.Tools) != 0 {
		t.Errorf("request: %s", req.Raw)
	}
	p.noChromeLeft(t)
}

// sessionsLeft lists the session processes of the binary at path.
func sessionsLeft(path string) []int {
	var pids []int
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err == nil && bytes.HasPrefix(b, []byte(path+"\x00browser\x00"+serveCommand)) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			pids = append(pids, pid)
		}
	}
	return pids
}

// sessionsLeftAfter waits, up to d, for the session processes of the
// binary at path to end, and returns those left.
func sessionsLeftAfter(path string, d time.Duration) []int {
	deadline := time.Now().Add(d)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		left := sessionsLeft(path)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		<-tick.C
	}
}
