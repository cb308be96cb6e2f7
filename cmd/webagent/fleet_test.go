package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/devtemporal"
)

// The fleet, against a real Temporal dev server: worker processes run the
// built-in eval while one of them and the eval itself are killed; tasks
// are submitted, answered and cancelled through the commands; secrets and
// keys stay out of workflow history.

// temporalServer starts a dev server for the test (building the temporal
// CLI into the user's cache if none is found).
func temporalServer(t *testing.T) *devtemporal.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	bin, err := devtemporal.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := devtemporal.Start(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// logged is a webagent process whose stderr goes to a file, readable while
// it runs.
type logged struct {
	*proc
	log  string
	done chan struct{}
}

func startLogged(t *testing.T, args ...string) *logged {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{tmp: t.TempDir()}
	p.stdout.printed = make(chan struct{})
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, f
	p.cmd.Env = append(cleanEnv(), "TMPDIR="+p.tmp)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	l := &logged{proc: p, log: f.Name(), done: make(chan struct{})}
	go func() { _ = p.cmd.Wait(); f.Close(); close(l.done) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-l.done
	})
	return l
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "OPENAI_API_KEY", "OPENAI_BASE_URL", "WEBAGENT_MODEL", "TMPDIR", "TEMPORAL_ADDRESS":
			continue
		}
		env = append(env, kv)
	}
	return env
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// text is what the process wrote on stderr so far, without colours.
func (l *logged) text() string {
	b, _ := os.ReadFile(l.log)
	return ansi.ReplaceAllString(string(b), "")
}

// exit waits for the process to end within d and returns its status.
func (l *logged) exit(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-l.done:
	case <-time.After(d):
		t.Fatalf("%v did not exit within %s; stderr:\n%s", l.cmd.Args[1:3], d, l.text())
	}
	return l.cmd.ProcessState.ExitCode()
}

// until polls cond every 50 ms until it holds, or fails the test after d,
// showing the end of the stderr of the processes in show.
func until(t *testing.T, what string, d time.Duration, cond func() bool, show ...*logged) {
	t.Helper()
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			var logs strings.Builder
			for _, l := range show {
				text := l.text()
				fmt.Fprintf(&logs, "\n%v stderr (its last 3000 bytes):\n%s", l.cmd.Args[1:2], text[max(0, len(text)-3000):])
			}
			t.Fatalf("%s: not within %s%s", what, d, logs.String())
		case <-tick.C:
		}
	}
}

var startedRe = regexp.MustCompile(`episode started .*task=(\S+)`)

// episodesStarted counts the episode starts in the workers' logs, by task.
func episodesStarted(ws []*logged) map[string]int {
	n := map[string]int{}
	for _, w := range ws {
		for _, m := range startedRe.FindAllStringSubmatch(w.text(), -1) {
			n[m[1]]++
		}
	}
	return n
}

var passedRe = regexp.MustCompile(`\]\s+pass (\S+)`)

func TestFleet(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short")
	}
	srv := temporalServer(t)
	// Each part has task queues of its own: they run side by side.
	t.Run("unreachable", func(t *testing.T) { t.Parallel(); testFleetUnreachable(t) })
	t.Run("eval", func(t *testing.T) { t.Parallel(); testFleetEval(t, srv.Addr) })
	t.Run("tasks", func(t *testing.T) { t.Parallel(); testFleetTasks(t, srv.Addr) })
	t.Run("mcp", func(t *testing.T) { t.Parallel(); testFleetMCP(t, srv.Addr) })
	t.Run("otel", func(t *testing.T) { t.Parallel(); testFleetOTel(t, srv.Addr) })
}

// A server that does not answer is a usage error, at once, for every
// command.
func testFleetUnreachable(t *testing.T) {
	closed := "127.0.0.1:1"
	for _, args := range [][]string{
		{"worker", "--temporal", closed},
		{"submit", "--temporal", closed, "--url", "http://example.org", "task"},
		{"status", "--temporal", closed, "some-id"},
		{"mcp", "--temporal", closed},
		{"eval", "--temporal", closed, "--suite", "widgets", "--out", filepath.Join(t.TempDir(), "report")},
	} {
		start := time.Now()
		code, p := run(t, args...)
		if args[0] == "eval" {
			if _, err := os.Stat(args[len(args)-1]); !os.IsNotExist(err) {
				t.Errorf("eval made its report folder before the server answered: %v", err)
			}
		}
		if code != exitUsage || !strings.Contains(p.stderr.String(), "cannot be reached at 127.0.0.1:1") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the address", args[0], code, p.stderr.String())
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("%v: took %s", args[0], d)
		}
	}
}

// Three workers without a model run the 52 tasks of the built-in suites
// that go from page to page (all but apps); one is killed
// with an episode in progress, and so is the eval, which is started again:
// all 52 pass, the lost episode ran again elsewhere (its attempts say so),
// and no episode that had finished before the eval was killed ran twice.
func testFleetEval(t *testing.T, addr string) {
	queue := fmt.Sprintf("eval-%d", time.Now().UnixNano())
	var ws []*logged
	for i := range 3 {
		ws = append(ws, startLogged(t, "worker", "--temporal", addr, "--task-queue", queue, "--concurrency", "1",
			"--identity", fmt.Sprintf("w%d", i+1), "--log-level", "info"))
	}
	out := t.TempDir()
	args := []string{"eval", "--temporal", addr, "--task-queue", queue, "--heartbeat-timeout", "5s", "--out", out,
		"--suite", "admin,bank,booking,shop,webmail,widgets,wiki"} // all but apps, the in-page suite
	first := startLogged(t, args...)
	passed := func(l *logged) []string {
		var keys []string
		for _, m := range passedRe.FindAllStringSubmatch(l.text(), -1) {
			keys = append(keys, m[1])
		}
		return keys
	}
	until(t, "8 episodes pass", 5*time.Minute, func() bool { return len(passed(first)) >= 8 }, append([]*logged{first}, ws...)...)
	// Kill w1 in the middle of an episode.
	busy := func() bool {
		s := ws[0].text()
		return strings.Count(s, "episode started") > strings.Count(s, "episode ended")
	}
	until(t, "w1 runs an episode", 2*time.Minute, busy)
	if err := ws[0].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	lost := startedRe.FindAllStringSubmatch(ws[0].text(), -1)
	lostKey := lost[len(lost)-1][1]
	until(t, "16 episodes pass", 5*time.Minute, func() bool { return len(passed(first)) >= 16 })
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.exit(t, 10*time.Second)
	done := passed(first)

	second := startLogged(t, args...)
	if code := second.exit(t, 10*time.Minute); code != exitOK {
		t.Fatalf("the eval started again: exit %d; stderr:\n%s", code, second.text())
	}
	if !regexp.MustCompile(`resumed: \d+ episodes had finished`).MatchString(second.text()) {
		t.Errorf("the eval started again did not say it resumed:\n%s", second.text())
	}
	var rep struct {
		Runs []struct {
			Suite, ID string
			Success   bool
			Attempts  int
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 52 {
		t.Fatalf("%d runs in the report, want 52", len(rep.Runs))
	}
	for _, r := range rep.Runs {
		key := r.Suite + "/" + r.ID
		if !r.Success {
			t.Errorf("%s failed", key)
		}
		if key == lostKey && r.Attempts < 2 {
			t.Errorf("%s ran on the killed worker but records %d attempt(s)", key, r.Attempts)
		}
	}
	starts := episodesStarted(ws)
	for _, key := range done {
		if starts[key] != 1 {
			t.Errorf("%s finished before the eval was killed, but started %d times", key, starts[key])
		}
	}
	if starts[lostKey] < 2 {
		t.Errorf("%s was lost with w1 but started %d time(s)", lostKey, starts[lostKey])
	}
	t.Logf("%d episodes had passed when the eval was killed; %s was lost with w1 and ran again", len(done), lostKey)
	// The workers that remain stop on SIGTERM, their browsers gone.
	for _, w := range ws[1:] {
		_ = w.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, w := range ws[1:] {
		if code := w.exit(t, 30*time.Second); code != exitOK {
			t.Errorf("a worker stopped with exit %d:\n%s", code, w.text())
		}
		if left := w.left(); len(left) > 0 {
			t.Errorf("a worker left behind %v", left)
		}
	}
}

// fleetSite is a sign-in page: a password box and a button; it records
// the passwords it receives.
func fleetSite(t *testing.T) (*httptest.Server, func() []string) {
	var (
		mu  sync.Mutex
		got []string
	)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/plain" {
			fmt.Fprint(w, `<!doctype html><title>Plain</title><p>Nothing here</p>`)
			return
		}
		if r.URL.Path == "/signin" {
			mu.Lock()
			got = append(got, r.FormValue("password"))
			mu.Unlock()
			fmt.Fprint(w, `<!doctype html><title>In</title><h1>Signed in</h1>`)
			return
		}
		fmt.Fprint(w, `<!doctype html><title>Sign in</title><form action="/signin" method="post">
<label>Password <input type="password" name="password"></label><button>Sign in</button></form>`)
	}))
	t.Cleanup(ts.Close)
	return ts, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), got...) }
}

// Tasks through the commands, on a worker with a model of its own (and a
// key its model server requires) and a secret: one signs in with the
// secret, asks a person and is answered; one is cancelled mid-stream and
// frees the worker's only browser for the next; a worker without a model
// refuses a task. Neither the secret nor a key is in workflow history.
func testFleetTasks(t *testing.T, addr string) {
	const (
		secret   = "pw-7Hq2-not-for-history"
		modelKey = "sk-fleet-test-key-0042"
	)
	site, passwords := fleetSite(t)
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs, tool := req.LastUser(), req.LastTool()
		call := func(name string, args any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "Wait forever") {
				return modelserver.Turn{Fault: modelserver.StallMidStream}
			}
		}
		switch {
		case strings.Contains(tool, `"answered"`):
			var a struct{ Answer string }
			_ = json.Unmarshal([]byte(tool), &a)
			return call("done", map[string]string{"answer": "colour: " + a.Answer})
		case strings.Contains(obs, "Signed in"):
			return call("ask_human", map[string]string{"question": "Which colour should I pick?"})
		}
		if ref, ok := modelserver.FindRef(obs, "textbox", "Password"); ok {
			return call("type", map[string]any{"ref": ref, "text": "<secret>PASS</secret>", "submit": true})
		}
		return call("done", map[string]string{"answer": "nothing to do"})
	}), modelserver.WithAPIKey(modelKey))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })

	queue := fmt.Sprintf("tasks-%d", time.Now().UnixNano())
	w := startLogged(t, "worker", "--temporal", addr, "--task-queue", queue, "--concurrency", "1",
		"--base-url", model.BaseURL(), "--model", "m", "--api-key", modelKey, "--secret", "PASS="+secret, "--log-level", "debug")
	until(t, "the worker starts", time.Minute, func() bool { return strings.Contains(w.text(), "worker started") }, w)
	q := []string{"--temporal", addr, "--task-queue", queue}
	byID := []string{"--temporal", addr} // status, cancel and answer find a task by its id, on no queue

	// Sign in with the secret, ask, be answered.
	code, p := run(t, append(append([]string{"submit"}, q...), "--detach", "--url", site.URL+"/", "--secret", "PASS",
		"--allow-private-network", "Sign in with <secret>PASS</secret>, then ask which colour")...)
	if code != exitOK {
		t.Fatalf("submit --detach: exit %d\n%s", code, p.stderr.String())
	}
	id := strings.TrimSpace(p.stdout.String())
	until(t, "status shows the question", 2*time.Minute, func() bool {
		_, p := run(t, append(append([]string{"status"}, byID...), id)...)
		return strings.Contains(p.stdout.String(), "question: Which colour should I pick?")
	})
	if code, p := run(t, append(append([]string{"answer"}, byID...), id, "blue")...); code != exitOK {
		t.Fatalf("answer: exit %d\n%s", code, p.stderr.String())
	}
	var st struct {
		Workflow string
		Outcome  *struct {
			Code, Answer string
			Attempts     int
			Worker       string
		}
	}
	until(t, "the task ends", 2*time.Minute, func() bool {
		_, p := run(t, append(append([]string{"status", "--json"}, byID...), id)...)
		return json.Unmarshal(p.stdout.Bytes(), &st) == nil && st.Outcome != nil
	})
	if st.Workflow != "COMPLETED" || st.Outcome.Code != "SUCCESS" || st.Outcome.Answer != "colour: blue" || st.Outcome.Attempts != 1 {
		t.Errorf("status after the answer: %+v %+v", st, *st.Outcome)
	}
	if got := passwords(); len(got) != 1 || got[0] != secret {
		t.Errorf("the site received %q, want the worker's secret once", got)
	}
	if code, p := run(t, append(append([]string{"answer"}, byID...), id, "again")...); code != exitUsage || !strings.Contains(p.stderr.String(), "has ended") {
		t.Errorf("answering an ended task: exit %d, %s", code, p.stderr.String())
	}
	checkHistoryClean(t, addr, id, secret, modelKey)
	for _, r := range model.Requests() {
		if r.Header.Get("Authorization") != "Bearer "+modelKey {
			t.Errorf("a model request without the worker's key")
		}
		if strings.Contains(string(r.Req.Raw), secret) {
			t.Errorf("the secret reached the model")
		}
	}
	if strings.Contains(w.text(), secret) || strings.Contains(w.text(), modelKey) {
		t.Errorf("the worker's log shows the secret or the key")
	}

	// Cancel mid-stream: CANCELED long before the iteration bound, and the
	// worker's one browser is free for the next task.
	code, p = run(t, append(append([]string{"submit"}, q...), "--detach", "--iteration-timeout", "5m", "--url", site.URL+"/", "--allow-private-network", "Wait forever")...)
	if code != exitOK {
		t.Fatalf("submit: exit %d\n%s", code, p.stderr.String())
	}
	id = strings.TrimSpace(p.stdout.String())
	n := len(model.Requests())
	until(t, "the model is asked", time.Minute, func() bool { return len(model.Requests()) > n })
	began := time.Now()
	code, p = run(t, append(append([]string{"cancel"}, byID...), id)...)
	if code != exitOK || !strings.Contains(p.stdout.String(), "CANCELED") {
		t.Fatalf("cancel: exit %d, %s %s", code, p.stdout.String(), p.stderr.String())
	}
	if d := time.Since(began); d > 30*time.Second {
		t.Errorf("cancel took %s", d)
	}
	code, p = run(t, append(append([]string{"submit", "--json"}, q...), "--url", site.URL+"/plain", "Look around")...)
	if code != exitOK || !strings.Contains(p.stdout.String(), `"attempts": 1`) {
		t.Errorf("the task after the cancel: exit %d, %s %s", code, p.stdout.String(), p.stderr.String())
	}

	// A worker without a model refuses a submitted task, saying why.
	bare := fmt.Sprintf("bare-%d", time.Now().UnixNano())
	nw := startLogged(t, "worker", "--temporal", addr, "--task-queue", bare, "--concurrency", "1")
	until(t, "the bare worker starts", time.Minute, func() bool { return strings.Contains(nw.text(), "worker started") }, nw)
	code, p = run(t, "submit", "--temporal", addr, "--task-queue", bare, "--url", site.URL+"/", "Sign in")
	if code != exitUsage || !strings.Contains(p.stderr.String(), "has no model of its own") {
		t.Errorf("a task on a worker without a model: exit %d, %s", code, p.stderr.String())
	}
	for _, l := range []*logged{w, nw} {
		_ = l.cmd.Process.Signal(syscall.SIGTERM)
		if code := l.exit(t, 30*time.Second); code != exitOK {
			t.Errorf("worker exit %d", code)
		}
		if left := l.left(); len(left) > 0 {
			t.Errorf("a worker left behind %v", left)
		}
	}
}

// checkHistoryClean fails t when the workflow's history holds any of the
// values, as they are or base64-encoded.
func checkHistoryClean(t *testing.T, addr, id string, values ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, client.Options{HostPort: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	it := c.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	events := 0
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events++
		raw, _ := proto.Marshal(ev)
		js, _ := protojson.Marshal(ev)
		for _, v := range values {
			for _, form := range []string{v, base64.StdEncoding.EncodeToString([]byte(v)), base64.StdEncoding.EncodeToString([]byte(`"` + v + `"`))} {
				if bytes.Contains(raw, []byte(form)) || bytes.Contains(js, []byte(form)) {
					t.Errorf("event %d (%s) of %s holds a secret or key", ev.GetEventId(), ev.GetEventType(), id)
				}
			}
		}
	}
	if events < 5 {
		t.Errorf("only %d events in the history of %s", events, id)
	}
}
