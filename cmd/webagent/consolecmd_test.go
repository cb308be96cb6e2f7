package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// teaSite is a shop of two pages; while hold is set, the price list does
// not answer until release is closed (or the test ends).
func teaSite(t *testing.T) (site *httptest.Server, hold *atomic.Bool, release chan struct{}) {
	t.Helper()
	hold, release = &atomic.Bool{}, make(chan struct{})
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/prices" {
			if hold.Load() {
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
			}
			fmt.Fprint(w, `<title>Prices</title><h1>Price list</h1><p>Green tea: 4 EUR</p>`)
			return
		}
		fmt.Fprint(w, `<title>Tea shop</title><h1>The tea shop</h1><a href="/prices">Open the price list</a>`)
	}))
	t.Cleanup(func() {
		site.CloseClientConnections()
		site.Close()
	})
	return site, hold, release
}

// teaModel opens the price list, then answers with the price.
func teaModel(t *testing.T) *modelserver.Server {
	t.Helper()
	m, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if strings.Contains(req.LastUser(), "Green tea: 4 EUR") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]string{"answer": "4 EUR"})}}
		}
		ref, _ := modelserver.FindRef(req.LastUser(), "link", "Open the price list")
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": ref})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// consoleProc is a running webagent console.
type consoleProc struct {
	cmd    *exec.Cmd
	stderr *watchedBuffer
	tmp    string // its TMPDIR, where its replays' browsers keep their folders
	url    string // the page's URL, with its token
	base   string
}

// startConsole runs webagent console with a live view registry of its own
// (rt, shared with the replays it starts) and waits for its URL.
func startConsole(t *testing.T, rt string, args ...string) *consoleProc {
	t.Helper()
	p := &consoleProc{stderr: newWatchedBuffer(), tmp: t.TempDir()}
	p.cmd = exec.Command(bin, append([]string{"console"}, args...)...)
	p.cmd.Stdout, p.cmd.Stderr = io.Discard, p.stderr
	env := []string{"TMPDIR=" + p.tmp, "XDG_RUNTIME_DIR=" + rt}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "TMPDIR" && k != "XDG_RUNTIME_DIR" && k != "OPENAI_API_KEY" && k != "OPENAI_BASE_URL" && k != "WEBAGENT_MODEL" {
			env = append(env, kv)
		}
	}
	p.cmd.Env = env
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	if !p.stderr.waitFor("\n", 30*time.Second) {
		t.Fatalf("webagent console printed no URL:\n%s", p.stderr.String())
	}
	m := regexp.MustCompile(`webagent console: (http://127\.0\.0\.1:\d+)/\?t=\S+`).FindStringSubmatch(p.stderr.String())
	if m == nil {
		t.Fatalf("webagent console's first line: %q", p.stderr.String())
	}
	p.url, p.base = m[0][len("webagent console: "):], m[1]
	return p
}

// api calls the console's API and decodes its JSON answer into v.
func (p *consoleProc) api(t *testing.T, method, path string, v any) int {
	t.Helper()
	tok := p.url[strings.Index(p.url, "?t="):]
	req, err := http.NewRequest(method, p.base+path+tok, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if v != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(body, v); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, path, err, body)
		}
	}
	return resp.StatusCode
}

type consoleLive struct {
	Live []struct {
		PID     int
		Title   string
		Task    string
		Control string
		Replay  int
	}
}

type consoleReplays struct {
	Replays []struct {
		ID      int
		PID     int
		Running bool
		Exit    int
		Output  []string
	}
}

// TestConsoleReplay: webagent console lists a run that run --trace
// recorded; "replay" starts webagent replay --live as its child, whose live
// view the console lists as that replay's while it runs, and whose result
// it shows once it ends. Interrupted, the console ends a replay still
// running with itself: no process and no browser is left.
func TestConsoleReplay(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	site, hold, release := teaSite(t)
	model := teaModel(t)
	dir := filepath.Join(t.TempDir(), "tea")
	if code, p := run(t, "run", "--url", site.URL+"/", "--base-url", model.BaseURL(), "--model", "scripted", "--trace", dir,
		"What does green tea cost?"); code != 0 {
		t.Fatalf("run --trace: exit %d\n%s", code, p.stderr.String())
	}
	rt := t.TempDir()

	// A replay that succeeds; its result stays on the page.
	c := startConsole(t, rt, filepath.Dir(dir))
	var runs struct {
		Runs []struct{ ID, Task, Code string }
	}
	if c.api(t, "GET", "/api/runs", &runs) != 200 || len(runs.Runs) != 1 || runs.Runs[0].Code != "SUCCESS" {
		t.Fatalf("the console's runs: %+v", runs)
	}
	id := runs.Runs[0].ID
	if code := c.api(t, "POST", "/api/runs/"+id+"/replay", nil); code != http.StatusAccepted {
		t.Fatalf("starting the replay: %d", code)
	}
	var rs consoleReplays
	waitFor(t, "the replay's end", 90*time.Second, func() bool {
		c.api(t, "GET", "/api/replays", &rs)
		return len(rs.Replays) == 1 && !rs.Replays[0].Running
	})
	if r, out := rs.Replays[0], strings.Join(rs.Replays[0].Output, "\n"); r.Exit != 0 || !strings.Contains(out, `step 1  click link "Open the price list"`) ||
		!strings.Contains(out, "the recorded run ended SUCCESS") || !strings.Contains(out, "4 EUR") {
		t.Errorf("the replay: exit %d\n%s", r.Exit, strings.Join(r.Output, "\n"))
	}

	// A replay held on the price list: live, listed as the console's.
	hold.Store(true)
	if code := c.api(t, "POST", "/api/runs/"+id+"/replay", nil); code != http.StatusAccepted {
		t.Fatalf("starting the second replay: %d", code)
	}
	var live consoleLive
	waitFor(t, "the replay's live view", 60*time.Second, func() bool {
		c.api(t, "GET", "/api/live", &live)
		return len(live.Live) == 1 && live.Live[0].Replay == 2
	})
	lv := live.Live[0]
	if lv.Title != "webagent replay" || lv.Task != "What does green tea cost?" {
		t.Errorf("the replay's live view: %+v", lv)
	}
	if resp, err := http.Get(lv.Control); err != nil || resp.StatusCode != 200 {
		t.Errorf("the replay's live view does not open: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	c.api(t, "GET", "/api/replays", &rs)
	pid := rs.Replays[0].PID

	t0 := time.Now()
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		close(release)
		t.Fatalf("the console did not exit within 20 s of SIGTERM\n%s", c.stderr.String())
	}
	close(release)
	if code := c.cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Errorf("the console's exit: %d\n%s", code, c.stderr.String())
	}
	t.Logf("the console and its replay ended %s after SIGTERM", time.Since(t0).Round(time.Millisecond))
	waitFor(t, "the replay's process to end", 10*time.Second, func() bool { return syscall.Kill(pid, 0) == syscall.ESRCH })
	left := (&proc{tmp: c.tmp}).goneWithin(leftWithin)
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	if es, _ := filepath.Glob(filepath.Join(rt, "webagent", "live", "*.json")); len(es) > 0 {
		t.Errorf("live views still registered: %v", es)
	}
}

// TestConsoleUsageErrors: bad input to console (and to replay's --live) is
// exit 2 with one line saying what is wrong and how to fix it.
func TestConsoleUsageErrors(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	recorded := filepath.Join(t.TempDir(), "trace")
	tw, err := trace.Create(recorded, trace.Header{Task: "look", URL: "http://127.0.0.1:1/"}, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.End(context.Background(), &agent.Result{Status: agent.StatusSuccess, Code: agent.CodeSuccess}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"missing folder", []string{"console", "/nonexistent/traces"}, []string{"/nonexistent/traces", "no such file", "run --trace DIR"}},
		{"a file", []string{"console", file}, []string{"is a file", "trace or cache folders"}},
		{"no replay bound", []string{"console", "--replay-timeout", "0s", t.TempDir()}, []string{"--replay-timeout is 0s", "10m"}},
		{"open address", []string{"console", "--addr", "0.0.0.0:0", t.TempDir()}, []string{"--addr 0.0.0.0:0", "needs TLS", "--cert, --key"}},
		{"cert alone", []string{"console", "--cert", file, t.TempDir()}, []string{"--cert and --key go together"}},
		{"bad address", []string{"console", "--addr", "nowhere", t.TempDir()}, []string{"nowhere", "host:port"}},
		{"replay's live cert alone", []string{"replay", "--live-cert", file, "--live-key", file, recorded}, []string{"--live-cert and --live-key go with --live"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, p := run(t, c.args...)
			msg := p.stderr.String()
			if code != exitUsage || strings.Count(strings.TrimSpace(msg), "\n") > 0 {
				t.Fatalf("exit %d, want 2 and one line:\n%s", code, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr lacks %q:\n%s", w, msg)
				}
			}
		})
	}
}
