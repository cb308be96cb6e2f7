package replay_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/replay"
	"github.com/webagent/webagent/testfixture/tier"
	"github.com/webagent/webagent/trace"
)

// A run whose model wrote one script (three result pages walked, then a
// form filled and sent) replays without a model: the script's recorded
// calls are made one by one, each on the element of the same role and
// name, and the site gets the same form again. A page whose form lost a
// field names the script's call that no longer fits.
func TestReplayScript(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	var (
		mu    sync.Mutex
		posts []url.Values
		label = "City"
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Method == http.MethodPost:
			_ = r.ParseForm()
			posts = append(posts, r.PostForm)
			fmt.Fprint(w, `<title>Sent</title><h1>Sent</h1>`)
		case r.URL.Query().Get("page") == "3":
			fmt.Fprintf(w, `<title>Page 3</title><h1>Last page</h1><form method="post"><label>Name <input name="name"></label><label>%s <input name="city"></label><button>Send</button></form>`, label)
		default:
			n := 1
			if r.URL.Query().Get("page") == "2" {
				n = 2
			}
			fmt.Fprintf(w, `<title>Page %d</title><h1>Page %d</h1><a href="/?page=%d">Next</a>`, n, n, n+1)
		}
	}))
	t.Cleanup(srv.Close)
	sent := func() []url.Values { mu.Lock(); defer mu.Unlock(); return append([]url.Values(nil), posts...) }

	const program = `for (;;) { var s = snapshot(); var next = s.find({role: "link", name: "Next"}); if (!next) break; click(next.ref) }
var s = snapshot();
type(s.find({role: "textbox", name: "Name"}).ref, "Ada");
type(s.find({role: "textbox", name: "City"}).ref, "Oslo");
click(s.find({role: "button", name: "Send"}).ref);
return "sent";`
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		if req.LastTool() != "" {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "sent"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("script", map[string]any{"code": program})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	client, err := llm.New(llm.Config{BaseURL: model.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "trace")
	task := agent.Task{URL: srv.URL + "/", Instruction: "walk to the form and send it"}
	tw, err := trace.Create(dir, trace.Header{Task: task.Instruction, URL: task.URL}, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(launch(t, browser.Options{}), client, agent.WithTracer(tw))
	if err != nil {
		t.Fatal(err)
	}
	res := a.Run(ctx, task)
	if err := tw.End(ctx, res); err != nil {
		t.Fatal(err)
	}
	if res.Code != agent.CodeSuccess || len(sent()) != 1 {
		t.Fatalf("recorded run: %s %s; posts %v", res.Code, res.Message, sent())
	}
	model.Close() // no model from here on

	tr, err := trace.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	out, err := replay.Run(ctx, launch(t, browser.Options{}), tr, replay.Options{Progress: &progress})
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, progress.String())
	}
	p := sent()
	if len(p) != 2 || p[1].Get("name") != "Ada" || p[1].Get("city") != "Oslo" || out.Actions != 5 {
		t.Fatalf("after the replay the site got %v; %d actions replayed\n%s", p, out.Actions, progress.String())
	}
	if !strings.Contains(progress.String(), `script call 7: type textbox "Name"`) {
		t.Errorf("progress:\n%s", progress.String())
	}

	mu.Lock()
	label = "Town"
	mu.Unlock()
	_, err = replay.Run(ctx, launch(t, browser.Options{}), tr, replay.Options{})
	var se *replay.StepError
	if !errors.As(err, &se) || !strings.Contains(se.Tool, "type (call 8 of the script)") || !strings.Contains(se.Looked, `"City"`) {
		t.Fatalf("replay on a changed page: %v", err)
	}
	if n := len(sent()); n != 2 {
		t.Errorf("a diverged replay sent the form: %d posts", n)
	}
}
