package eval

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/replay"
	"github.com/webagent/webagent/trace"
)

// TestReplayTraces replays the traces an eval wrote (WEBAGENT_REPLAY_DIR,
// its --out folder) against a fresh instance of each task's site, with no
// model, and runs the task's checks: every successful run of the built-in
// suites is a regression test. TestRunWritesReports does the same for its
// own runs.
func TestReplayTraces(t *testing.T) {
	t.Parallel()
	skipWithoutChrome(t)
	dir := os.Getenv("WEBAGENT_REPLAY_DIR")
	if dir == "" {
		t.Skip("set WEBAGENT_REPLAY_DIR to the output folder of a webagent eval")
	}
	all, err := suite.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Load(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	replayChecked(t, dir, all, rep)
}

// replayChecked replays the traces of the tasks found in an eval's output
// folder and checks each task on the site the replay acted on: its checks
// pass again where they passed in the report, and fail again where they
// failed.
func replayChecked(t *testing.T, dir string, tasks []*suite.Task, rep *report.Report) {
	t.Helper()
	ctx := context.Background()
	n := 0
	for _, tk := range tasks {
		tr, err := trace.Read(filepath.Join(dir, traceName(tk.Suite+"/"+tk.ID)))
		if err != nil || tr.End == nil || tr.End.Result.Code != agent.CodeSuccess {
			continue
		}
		i := slices.IndexFunc(rep.Runs, func(r report.Run) bool { return r.Suite == tk.Suite && r.ID == tk.ID })
		if i < 0 {
			continue
		}
		passed := rep.Runs[i].Success
		n++
		t.Run("replay "+tk.ID, func(t *testing.T) {
			t.Parallel()
			b := chrome.Browser(t, browser.Options{})
			s, err := sites.New(tk.Site)
			if err != nil {
				t.Fatal(err)
			}
			srv, err := serveOn("", s)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			rctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			res, err := replay.Run(rctx, b, tr, replay.Options{BaseURL: srv.URL, Secrets: tk.Secrets})
			if err != nil {
				t.Fatal(err)
			}
			// An answer that quotes the recorded site's address quotes the new one's.
			answer := strings.ReplaceAll(res.Answer, originOf(tr.Header.URL), srv.URL)
			if checks := checkSettled(rctx, tk, &agent.Result{Answer: answer}, b, s, passed); suite.Passed(checks) != passed {
				t.Fatalf("checks after the replay: passed %v (%s), as recorded %v", suite.Passed(checks), firstFailure(checks), passed)
			}
		})
	}
	if n == 0 {
		t.Fatalf("no successful trace in %s", dir)
	}
}

// originOf is scheme://host[:port] of a URL.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Scheme + "://" + u.Host
}
