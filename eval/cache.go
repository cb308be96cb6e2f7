package eval

import (
	"context"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/trace"
)

// taskCache is a task run under Config.Cache; nil without one.
type taskCache struct {
	s  *cache.Session
	tw *trace.Writer // the cache's own trace, when the eval writes none
}

// beginCache starts t's run under the cache. A task is known in the cache
// by its suite and id and its instruction as written: its site's port
// changes from run to run, and the replay moves the recorded URLs to it.
func beginCache(cfg *Config, t *suite.Task, task agent.Task, tw *trace.Writer) (*taskCache, error) {
	if cfg.Cache == nil {
		return nil, nil
	}
	key := cache.Key{Task: t.Instruction, URL: "eval:" + t.Suite + "/" + t.ID}
	tc := &taskCache{s: cfg.Cache.Begin(key, task.URL, nil)}
	if tw == nil {
		w, err := tc.s.Trace(task, trace.ModelInfo{Name: cfg.ModelName})
		if err != nil {
			return nil, err
		}
		tc.tw = w
	}
	return tc, nil
}

// options are the loop's options for the run: the recording, and the
// cache's own tracer.
func (tc *taskCache) options() []agent.Option {
	if tc == nil {
		return nil
	}
	opts := tc.s.Options()
	if tc.tw != nil {
		opts = append(opts, agent.WithTracer(tc.tw))
	}
	return opts
}

// finish ends the cache's trace and stores the run when res is a success
// worth keeping (nil: not kept).
func (tc *taskCache) finish(ctx context.Context, cfg *Config, res *agent.Result, dir string) {
	if tc == nil {
		return
	}
	if tc.tw != nil {
		ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if err := tc.tw.End(ectx, res); err != nil {
			cfg.Logger.Warn("cache trace", "error", err)
		}
		cancel()
		dir = tc.tw.Dir()
	}
	if _, err := tc.s.Finish(res, dir); err != nil {
		cfg.Logger.Warn("cache", "error", err)
	}
}

// traceDir is the folder of the run's own trace, "" without one.
func traceDir(_ *Env, tw *trace.Writer) string {
	if tw == nil {
		return ""
	}
	return tw.Dir()
}
