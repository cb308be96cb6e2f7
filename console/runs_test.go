package console_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/console"
)

// listing is /api/runs.
type listing struct {
	Runs  []console.Run
	Notes []string
}

func listRuns(t *testing.T, srv *console.Server) listing {
	t.Helper()
	code, body, _ := get(t, srv, "GET", "/api/runs", token(t, srv), nil)
	if code != 200 {
		t.Fatalf("/api/runs: %d %s", code, body)
	}
	var l listing
	if err := json.Unmarshal([]byte(body), &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRunsFolders: the console finds traces in the folders it is given,
// a few levels down (an eval's, a cache's entries), never in hidden
// folders or past its depth; a cache entry says so; a trace cut short or
// damaged is listed with what is wrong; a folder without traces is
// named; a trace that grows is read again.
func TestRunsFolders(t *testing.T) {
	t.Parallel()
	root, other := t.TempDir(), t.TempDir()
	recordTakeover(t, filepath.Join(root, "a"))
	recordTakeover(t, filepath.Join(root, "evals", "suite", "task1"))
	recordTakeover(t, filepath.Join(root, "cache", "sign-in-3f9c2a1b7d04"))
	if err := os.WriteFile(filepath.Join(root, "cache", "sign-in-3f9c2a1b7d04", "entry.json"), []byte(`{"version":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	recordTakeover(t, filepath.Join(root, ".store-x", "entry"))          // a cache's working folder
	recordTakeover(t, filepath.Join(root, "d1", "d2", "d3", "too-deep")) // past the depth
	events, err := os.ReadFile(filepath.Join(root, "a", "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(root, "cut")
	_ = os.MkdirAll(cut, 0o755)
	if err := os.WriteFile(filepath.Join(cut, "trace.jsonl"), events[:len(events)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(root, "bad")
	_ = os.MkdirAll(bad, 0o755)
	if err := os.WriteFile(filepath.Join(bad, "trace.jsonl"), []byte("not json\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, console.Config{Dirs: []string{root, other, filepath.Join(root, "a")}})
	l := listRuns(t, srv)
	got := map[string]console.Run{}
	for _, r := range l.Runs {
		rel, _ := filepath.Rel(root, r.Dir)
		got[rel] = r
	}
	for _, want := range []string{"a", "evals/suite/task1", "cache/sign-in-3f9c2a1b7d04", "cut", "bad"} {
		if _, ok := got[want]; !ok {
			t.Errorf("the console does not list %s: %v", want, got)
		}
	}
	if len(l.Runs) != 5 {
		t.Errorf("%d runs listed, not 5 (a hidden folder, one too deep, or one listed twice?)", len(l.Runs))
	}
	if got["cache/sign-in-3f9c2a1b7d04"].Kind != console.KindCache || got["a"].Kind != console.KindTrace {
		t.Errorf("kinds: %+v", got)
	}
	if r := got["cut"]; r.Ended || !strings.Contains(r.Problem, "cut short") || r.Task != "Sign in to the bank" {
		t.Errorf("the cut trace: %+v", r)
	}
	if r := got["bad"]; !strings.Contains(r.Problem, "line 1") {
		t.Errorf("the damaged trace: %+v", r)
	}
	if a := got["a"]; !a.Ended || !a.TookOver || a.Iterations != 2 || a.DurationMS != 15300 || a.Code != "SUCCESS" || a.URL != "https://bank.example/login" {
		t.Errorf("the finished run: %+v", a)
	}
	if !strings.Contains(strings.Join(l.Notes, "\n"), other+" holds no trace") {
		t.Errorf("notes: %q", l.Notes)
	}

	// The cut trace grows its end: the console reads it again.
	if err := os.WriteFile(filepath.Join(cut, "trace.jsonl"), events, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range listRuns(t, srv).Runs {
		if r.Dir == cut && (!r.Ended || r.Problem != "") {
			t.Errorf("the trace, now whole, reads %+v", r)
		}
	}
	// A run's page names its steps, by id; an unknown id is 404.
	code, body, _ := get(t, srv, "GET", "/api/runs/"+got["a"].ID, token(t, srv), nil)
	if code != 200 || !strings.Contains(body, `"tool":"takeover"`) || !strings.Contains(body, "webagent replay --live "+filepath.Join(root, "a")) {
		t.Errorf("the run's page: %d %s", code, body)
	}
	if code, _, _ := get(t, srv, "GET", "/api/runs/0123456789abcdef", token(t, srv), nil); code != 404 {
		t.Errorf("an unknown run: %d", code)
	}
	if code, _, _ := get(t, srv, "GET", "/api/runs/"+got["a"].ID+"/shots/0", token(t, srv), nil); code != 404 {
		t.Errorf("a step without a screenshot: %d", code)
	}
}

// TestShotStaysInFolder: a screenshot the trace names outside its folder,
// by path or by a link, is not served.
func TestShotStaysInFolder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "runs", "bank")
	recordTakeover(t, dir)
	outside := filepath.Join(root, "private.jpg")
	if err := os.WriteFile(outside, []byte("\xff\xd8 the user's own picture"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "shots", "0002.jpg")); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "trace.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"type":"shot","iteration":1,"screenshot":"../../private.jpg"}` + "\n" +
		`{"type":"shot","iteration":2,"screenshot":"shots/0002.jpg"}` + "\n")
	f.Close()
	srv := serve(t, console.Config{Dirs: []string{filepath.Join(root, "runs")}})
	id := listRuns(t, srv).Runs[0].ID
	// Step 0 names a path out of the folder; step 2 (iteration 2's last)
	// a link out of it.
	for _, c := range []struct {
		step, code int
		says       string
	}{{0, 403, "outside its folder"}, {2, 404, "cannot be read"}} {
		code, body, _ := get(t, srv, "GET", fmt.Sprintf("/api/runs/%s/shots/%d", id, c.step), token(t, srv), nil)
		if code != c.code || !strings.Contains(body, c.says) || strings.Contains(body, "own picture") {
			t.Errorf("step %d's screenshot: %d %q", c.step, code, body)
		}
	}
}
