package mcpserver

import (
	"context"
	"log/slog"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/trace"
)

// taskCache is a run_task under the server's run cache (Config.Cache).
type taskCache struct {
	s  *cache.Session
	tw *trace.Writer
}

// beginCache starts run_task's run under the cache; nil without one.
func (s *Server) beginCache(in taskArgs, task agent.Task) (*taskCache, error) {
	if s.cfg.Cache == nil {
		return nil, nil
	}
	var names []string
	for n := range in.Vars {
		names = append(names, n)
	}
	cs := s.cfg.Cache.Begin(cache.Key{Task: in.Task, URL: in.URL, Vars: names}, task.URL, in.Vars)
	tw, err := cs.Trace(task, trace.ModelInfo{})
	if err != nil {
		return nil, err
	}
	return &taskCache{s: cs, tw: tw}, nil
}

func (tc *taskCache) options() []agent.Option {
	if tc == nil {
		return nil
	}
	return append(tc.s.Options(), agent.WithTracer(tc.tw))
}

// finish ends the run's trace and keeps a successful run in the cache.
func (tc *taskCache) finish(ctx context.Context, res *agent.Result, log *slog.Logger) {
	if tc == nil {
		return
	}
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := tc.tw.End(ectx, res); err != nil {
		log.Warn("run cache: the trace", "error", err)
	}
	if _, err := tc.s.Finish(res, tc.tw.Dir()); err != nil {
		log.Warn("run cache", "error", err)
	}
}
