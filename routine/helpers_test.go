package routine_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/routine"
	"github.com/webagent/webagent/testfixture/routinesite"
	"github.com/webagent/webagent/trace"
)

// password is the secret customer_pw's value in every run.
const password = routinesite.Password

// world is one test's site, model server and routines folder.
type world struct {
	t     *testing.T
	site  *routinesite.Site
	url   string
	model *modelserver.Server
	llm   *llm.Client
	store *routine.Store
}

func newWorld(t *testing.T) *world {
	t.Helper()
	site := routinesite.New()
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	ms, err := modelserver.Start(routinesite.Model())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ms.Close() })
	client, err := llm.New(llm.Config{BaseURL: ms.BaseURL(), Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	store, err := routine.Open(filepath.Join(t.TempDir(), "routines"))
	if err != nil {
		t.Fatal(err)
	}
	return &world{t: t, site: site, url: srv.URL, model: ms, llm: client, store: store}
}

// requests is how many requests reached the model server so far.
func (w *world) requests() int { return len(w.model.Requests()) }

// run runs task from path in a fresh browser with the scripted model,
// traced to traceDir when set, with opts.
func (w *world) run(task, path, traceDir string, opts ...agent.Option) *agent.Result {
	w.t.Helper()
	b := chrome.Browser(w.t, browser.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tk := agent.Task{URL: w.url + path, Instruction: task, Secrets: map[string]string{"customer_pw": password}}
	var tw *trace.Writer
	if traceDir != "" {
		h, m := trace.TaskHeader(tk, trace.ModelInfo{Name: "scripted"})
		var err error
		if tw, err = trace.Create(traceDir, h, trace.Options{Masker: m}); err != nil {
			w.t.Fatal(err)
		}
		opts = append(opts, agent.WithTracer(tw))
	}
	opts = append([]agent.Option{agent.WithLimits(agent.Limits{MaxIterations: 30, IterationTimeout: 30 * time.Second, HumanTimeout: 10 * time.Second})}, opts...)
	a, err := agent.New(b, w.llm, opts...)
	if err != nil {
		w.t.Fatal(err)
	}
	res := a.Run(ctx, tk)
	if tw != nil {
		if err := tw.End(ctx, res); err != nil {
			w.t.Fatal(err)
		}
	}
	return res
}

// record runs task from path and saves it as the routine name; it returns
// the routine.
func (w *world) record(name, task, path string, vars map[string]string) *routine.Routine {
	w.t.Helper()
	dir := filepath.Join(w.t.TempDir(), "trace-"+name)
	res := w.run(task, path, dir)
	if res.Code != agent.CodeSuccess {
		w.t.Fatalf("the recorded run of %q: %s %s", task, res.Code, res.Message)
	}
	tr, err := trace.Read(dir)
	if err != nil {
		w.t.Fatal(err)
	}
	r, err := routine.FromTrace(tr, routine.SaveOptions{Name: name, Vars: vars, Source: dir})
	if err != nil {
		w.t.Fatal(err)
	}
	if err := w.store.Create(r); err != nil {
		w.t.Fatal(err)
	}
	return r
}

// runRoutine runs a stored routine as a task (routine.Drive), as webagent
// routine run does: the loop with the routine's tool and no model; heal
// gives the run's model as the healer; opts add to the loop's options.
func (w *world) runRoutine(name string, params map[string]string, heal bool, opts ...agent.Option) *agent.Result {
	w.t.Helper()
	r, err := w.store.Load(name)
	if err != nil {
		w.t.Fatal(err)
	}
	p, _ := json.Marshal(params)
	to := routine.ToolOptions{}
	if heal {
		to.Healer = routine.ModelHealer(w.llm, 0)
	}
	opts = append(opts, agent.WithTools(routine.Tool(w.store, r, to)), agent.WithRecording(routine.Drive(r, p)))
	return w.run("Run the routine "+name, "/", "", opts...)
}

// folderHas reports whether any file under dir holds s.
func folderHas(t *testing.T, dir, s string) []string {
	t.Helper()
	var hits []string
	_ = filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), s) {
			hits = append(hits, path)
		}
		return nil
	})
	return hits
}
