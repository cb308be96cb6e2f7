package console_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/console"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// replayView is a replay as /api/replays lists it.
type replayView struct {
	ID       int      `json:"id"`
	PID      int      `json:"pid"`
	Running  bool     `json:"running"`
	Exit     int      `json:"exit"`
	TimedOut bool     `json:"timed_out"`
	Output   []string `json:"output"`
}

func replaysOf(t *testing.T, srv *console.Server) []replayView {
	t.Helper()
	code, body, _ := get(t, srv, "GET", "/api/replays", token(t, srv), nil)
	if code != 200 {
		t.Fatalf("/api/replays: %d %s", code, body)
	}
	var out struct{ Replays []replayView }
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	return out.Replays
}

// runIDs are the ids of the console's runs, in its order.
func runIDs(t *testing.T, srv *console.Server) []string {
	t.Helper()
	code, body, _ := get(t, srv, "GET", "/api/runs", token(t, srv), nil)
	if code != 200 {
		t.Fatalf("/api/runs: %d %s", code, body)
	}
	var out struct{ Runs []struct{ ID string } }
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range out.Runs {
		ids = append(ids, r.ID)
	}
	return ids
}

// gone reports whether the process pid has ended (and was reaped).
func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// waitUntil polls cond every 20 ms until it holds, or fails t after d.
func waitUntil(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", d, what)
		}
		<-tick.C
	}
}

// TestReplayBound: a replay that runs past the console's bound is told to
// end, and killed when it does not within its grace; what it printed is
// kept, but its live view's URLs.
func TestReplayBound(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	dir := t.TempDir()
	recordTakeover(t, filepath.Join(dir, "bank"))
	// A replay deaf to SIGTERM: only the kill ends it.
	srv := serve(t, console.Config{Dirs: []string{dir}, ReplayTimeout: time.Second, Replay: func(d string) []string {
		return []string{"/bin/sh", "-c", `echo "live view (control): http://127.0.0.1:1/v/x?t=TOKEN"; echo "replaying $0"; trap '' TERM; exec sleep 60`, d}
	}})
	id := runIDs(t, srv)[0]
	t0 := time.Now()
	if code, body, _ := get(t, srv, "POST", "/api/runs/"+id+"/replay", token(t, srv), nil); code != http.StatusAccepted {
		t.Fatalf("starting the replay: %d %s", code, body)
	}
	var r replayView
	waitUntil(t, "the replay's end", 30*time.Second, func() bool { r = replaysOf(t, srv)[0]; return !r.Running })
	took := time.Since(t0)
	if took < time.Second || took > 10*time.Second {
		t.Errorf("the replay ended after %s; its bound is 1 s, its grace 5 s", took)
	}
	if !r.TimedOut || r.Exit == 0 || !gone(r.PID) {
		t.Errorf("the replay past its bound: %+v, gone %v", r, gone(r.PID))
	}
	out := strings.Join(r.Output, "\n")
	if !strings.Contains(out, "replaying "+filepath.Join(dir, "bank")) || !strings.Contains(out, "ran past its bound of 1s") ||
		strings.Contains(out, "TOKEN") || strings.Contains(out, "live view") {
		t.Errorf("the replay's output as kept:\n%s", out)
	}
}

// TestReplayLimits: at most MaxReplays run at once; the console's Close
// ends those running; a run that typed a secret is not replayed from the
// console, which gives the command instead.
func TestReplayLimits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	recordTakeover(t, filepath.Join(dir, "bank"))
	h, _ := trace.TaskHeader(agent.Task{URL: "https://shop.example/", Instruction: "Sign in", Secrets: map[string]string{"password": "hunter2"}},
		trace.ModelInfo{})
	h.Started = time.Now().Add(-2 * time.Hour)
	tw, err := trace.Create(filepath.Join(dir, "secret"), h, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.End(context.Background(), &agent.Result{Status: agent.StatusSuccess, Code: agent.CodeSuccess}); err != nil {
		t.Fatal(err)
	}
	srv, err := console.Start(console.Config{Dirs: []string{dir}, Replay: func(string) []string { return []string{"sleep", "60"} }})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			_ = srv.Close(context.Background())
		}
	}()
	ids, tok := runIDs(t, srv), token(t, srv)
	for i := range console.MaxReplays {
		if code, body, _ := get(t, srv, "POST", "/api/runs/"+ids[0]+"/replay", tok, nil); code != http.StatusAccepted {
			t.Fatalf("replay %d: %d %s", i+1, code, body)
		}
	}
	if code, body, _ := get(t, srv, "POST", "/api/runs/"+ids[0]+"/replay", tok, nil); code != http.StatusTooManyRequests ||
		!strings.Contains(body, "wait for one to end") {
		t.Errorf("one replay more than MaxReplays: %d %s", code, body)
	}
	code, body, _ := get(t, srv, "POST", "/api/runs/"+ids[1]+"/replay", tok, nil)
	if code != http.StatusConflict || !strings.Contains(body, "webagent replay --live --secret password=env:WEBAGENT_SECRET_PASSWORD") ||
		strings.Contains(body, "hunter2") {
		t.Errorf("a run with a secret: %d %s", code, body)
	}
	running := replaysOf(t, srv)
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Close(ctx); err != nil {
		t.Errorf("closing: %v", err)
	}
	closed = true
	if took := time.Since(t0); took > 6*time.Second {
		t.Errorf("closing the console took %s", took)
	}
	for _, r := range running {
		if !gone(r.PID) {
			t.Errorf("replay %d (pid %d) outlived the console", r.ID, r.PID)
		}
	}
}
