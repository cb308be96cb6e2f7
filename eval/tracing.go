package eval

import (
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/trace"
)

// traceName is the folder of a run's trace, relative to Config.OutDir.
func traceName(key string) string {
	return "traces/" + strings.Trim(unsafeName.ReplaceAllString(key, "_"), "_")
}

// startTrace opens the trace of a task run under Config.OutDir when
// Config.Trace is set; nil otherwise, or when the folder cannot be made
// (logged: the run goes on without one).
func startTrace(env *Env, name string, task agent.Task) *trace.Writer {
	cfg := env.Config
	if !cfg.Trace || cfg.OutDir == "" || env.Trace == "" {
		return nil
	}
	h, m := trace.TaskHeader(task, trace.ModelInfo{Name: cfg.ModelName})
	h.Name = name
	tw, err := trace.Create(filepath.Join(cfg.OutDir, filepath.FromSlash(env.Trace)), h,
		trace.Options{Masker: m, Shots: env.Browser, Activity: env.Browser})
	if err != nil {
		cfg.Logger.Warn("no trace for this run", "task", name, "error", err)
		return nil
	}
	return tw
}

// endTrace closes a run's trace and links it, and each step's screenshot,
// from the run.
func endTrace(ctx context.Context, env *Env, tw *trace.Writer, res *agent.Result, run *report.Run) {
	if tw == nil {
		return
	}
	if err := tw.End(ctx, res); err != nil {
		env.Config.Logger.Warn("trace", "task", run.ID, "error", err)
	}
	run.Trace = env.Trace
	t, err := trace.Read(tw.Dir())
	if err != nil {
		return
	}
	shots := map[int]string{}
	for _, s := range t.Steps {
		if s.Screenshot != "" {
			shots[s.Iteration] = path.Join(env.Trace, s.Screenshot)
		}
	}
	for i := range run.Steps {
		run.Steps[i].Screenshot = shots[run.Steps[i].Iteration]
	}
}
