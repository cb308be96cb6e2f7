package eval

import (
	"context"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

var (
	clickButtonRe = regexp.MustCompile(`Click on the "([^"]+)" button`)
	clickLinkRe   = regexp.MustCompile(`Click on the link "([^"]+)"`)
)

// checkoutPlayer plays MiniWoB++'s click-button and click-link: it reads
// the utterance from the task and clicks the element of that name in the
// snapshot, as a model would.
func checkoutPlayer(calls *atomic.Int64) modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		calls.Add(1)
		task := ""
		for _, m := range req.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, "Task: ") {
				task = m.Content
				break
			}
		}
		role, name := "button", ""
		if m := clickButtonRe.FindStringSubmatch(task); m != nil {
			name = m[1]
		} else if m := clickLinkRe.FindStringSubmatch(task); m != nil {
			role, name = "link", m[1]
		} else {
			return failTurn("cannot read the instruction: " + task)
		}
		ref, ok := modelserver.FindRef(req.LastUser(), role, name)
		if !ok && role == "link" {
			// MiniWoB++'s links are spans with a click handler and
			// cursor:pointer; the snapshot calls them clickable.
			ref, ok = modelserver.FindRef(req.LastUser(), "clickable", name)
		}
		if !ok {
			return failTurn("no " + role + " named " + name)
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
	})
}

// TestMiniWoBCheckout runs real MiniWoB++ tasks from a checkout named by
// WEBAGENT_MINIWOB_DIR (skipped without one): the seeded episode, the
// utterance, the reward read after each action, and the stop when done.
func TestMiniWoBCheckout(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("WEBAGENT_MINIWOB_DIR")
	if dir == "" {
		t.Skip("WEBAGENT_MINIWOB_DIR is not set")
	}
	calls := &atomic.Int64{}
	srv, err := modelserver.Start(checkoutPlayer(calls))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "player"})
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseIdleConnections()
	mw, err := NewMiniWoB(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer mw.Close()
	jobs, err := mw.Jobs([]string{"click-button", "click-link"}, []int64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Model, cfg.ModelName = client, "player"
	rep := NewRunner(cfg).Run(context.Background(), jobs)
	for _, r := range rep.Runs {
		t.Logf("%s: success=%v code=%s iterations=%d %s", r.ID, r.Success, r.Code, r.Iterations, r.Message)
		if !r.Success || r.Iterations != 1 {
			t.Errorf("%s: %s after %d iterations: %s", r.ID, r.Code, r.Iterations, r.Message)
		}
	}
	if len(rep.Runs) != 6 || calls.Load() != 6 {
		t.Fatalf("%d runs, %d model calls; want 6 and 6 (one click an episode, never the start cover again)", len(rep.Runs), calls.Load())
	}
}
