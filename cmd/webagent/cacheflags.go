package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/trace"
)

// cacheFlags are run's --cache and --var (eval and mcp take --cache).
type cacheFlags struct {
	dir  string
	vars varFlag
	// Set by the command once the flags are read: the cache, and the
	// task's key in it.
	opened *cache.Cache
	key    cache.Key
}

func (c *cacheFlags) register(fs *flag.FlagSet, withVars bool) {
	fs.StringVar(&c.dir, "cache", "", "keep the first successful run of each task in this folder and replay it on the next run of the same task, asking the model only where the page differs (made if missing; delete an entry's folder to forget it)")
	if withVars {
		fs.Var(&c.vars, "var", "NAME=VALUE the value of {{NAME}} in the task or --url; a cached run types the new value where the recorded run typed the old one (repeatable)")
	}
}

// expand puts the variables' values in the task and the start URL; bad
// variables are a usage error.
func (c *cacheFlags) expand(task, startURL string) (string, string, error) {
	vars, err := c.vars.values()
	if err != nil {
		return "", "", err
	}
	out, err := cache.Expand(vars, task, startURL)
	var ve *cache.VarError
	if errors.As(err, &ve) {
		return "", "", usagef("--var: %v", err)
	}
	if err != nil {
		return "", "", err
	}
	return out[0], out[1], nil
}

// open opens the cache, when one was asked for; a folder that cannot be
// one is a usage error.
func (c *cacheFlags) open(log *slog.Logger) error {
	if c.dir == "" {
		return nil
	}
	cc, err := cache.Open(c.dir, log)
	if err != nil {
		return usagef("--cache: %v", err)
	}
	c.opened = cc
	return nil
}

// cacheRun is a run of run under --cache.
type cacheRun struct {
	s  *cache.Session
	tw *trace.Writer // the cache's own trace, when --trace gave none
}

// begin starts the run under the cache: the stored run as the loop's
// recording, and a trace to store when --trace records none.
// It returns nil without --cache.
func (c *cacheFlags) begin(task agent.Task, model trace.ModelInfo, traced bool) (*cacheRun, error) {
	if c.opened == nil {
		return nil, nil
	}
	vars, err := c.vars.values()
	if err != nil {
		return nil, err
	}
	cr := &cacheRun{s: c.opened.Begin(c.key, task.URL, vars)}
	if !traced {
		if cr.tw, err = cr.s.Trace(task, model); err != nil {
			return nil, fmt.Errorf("--cache: %w", err)
		}
	}
	return cr, nil
}

// finish ends the cache's own trace, stores the run when it should be, and
// tells the user how much came from the cache.
func (cr *cacheRun) finish(ctx context.Context, res *agent.Result, traceDir string, stderr io.Writer) {
	if cr == nil {
		return
	}
	if cr.tw != nil {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), traceEndTimeout)
		defer cancel()
		if err := cr.tw.End(ctx, res); err != nil {
			fmt.Fprintf(stderr, "webagent: cache: %v\n", err)
		}
		traceDir = cr.tw.Dir()
	}
	stored, err := cr.s.Finish(res, traceDir)
	if err != nil {
		fmt.Fprintf(stderr, "webagent: %v\n", err)
	}
	fmt.Fprintln(stderr, cacheLine(res.Replay, cr.s.Hit(), stored, cr.s.Entry()))
}

// cacheLine says in one line how a run used the cache.
func cacheLine(s *agent.ReplaySummary, hit, stored bool, entry string) string {
	var b strings.Builder
	b.WriteString("cache: ")
	if !hit {
		b.WriteString("no stored run of this task")
	} else if s != nil {
		fmt.Fprintf(&b, "%d steps from the cache, %d model calls made, %d saved (%d tokens)", s.Steps, s.ModelCalls, s.ModelCallsSaved, s.TokensSaved)
		for _, h := range s.Healed {
			fmt.Fprintf(&b, "; step %d (%s) healed: %s", h.Step, h.Recorded, h.Became)
		}
	}
	if stored {
		b.WriteString("; this run is stored in " + entry)
	}
	return b.String()
}

// varFlag collects --var NAME=VALUE.
type varFlag []string

func (v *varFlag) String() string { return "" }

func (v *varFlag) Set(s string) error {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("--var wants NAME=VALUE, e.g. --var user=bob; got %q", s)
	}
	*v = append(*v, s)
	return nil
}

func (v varFlag) values() (map[string]string, error) {
	if len(v) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, s := range v {
		name, val, _ := strings.Cut(s, "=")
		if _, dup := m[name]; dup {
			return nil, usagef("--var %s is given twice", name)
		}
		m[name] = val
	}
	return m, nil
}

func (v varFlag) names() []string {
	var out []string
	for _, s := range v {
		name, _, _ := strings.Cut(s, "=")
		out = append(out, name)
	}
	return out
}
