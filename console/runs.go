package console

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/trace"
)

// Bounds of a listing: how deep a folder is searched for traces, how many
// folders are looked into, and how many runs are listed.
const (
	maxDepth   = 3
	maxFolders = 5000
	maxRuns    = 2000
)

// Kinds of past runs.
const (
	KindTrace = "trace" // a folder written by run --trace
	KindCache = "cache" // an entry of a run cache (--cache)
)

// Run is a past run as the console lists it.
type Run struct {
	ID   string `json:"id"`
	Dir  string `json:"dir"`
	Kind string `json:"kind"`
	// Name labels the run (an eval task's id); Task and URL are the task
	// and its start URL as recorded (secrets masked).
	Name  string `json:"name,omitempty"`
	Task  string `json:"task"`
	URL   string `json:"url"`
	Model string `json:"model,omitempty"`
	// Started is when the run began (the zero time when not recorded).
	Started time.Time `json:"started,omitzero"`
	// Ended is false for a run that did not end: still running, or
	// killed. Its result fields are then empty.
	Ended      bool   `json:"ended"`
	Status     string `json:"status,omitempty"`
	Code       string `json:"code,omitempty"`
	Message    string `json:"message,omitempty"`
	Answer     string `json:"answer,omitempty"`
	Iterations int    `json:"iterations"`
	DurationMS int64  `json:"duration_ms"`
	Steps      int    `json:"steps"`
	Shots      int    `json:"shots"`
	// TookOver: a person took the browser over in the run (a step whose
	// tool is agent.ToolTakeover).
	TookOver bool `json:"took_over"`
	// Secrets are the names of the secrets the run typed; a replay needs
	// their values again.
	Secrets []string `json:"secrets,omitempty"`
	// Problem says what is wrong with the trace (cut short, damaged).
	Problem string `json:"problem,omitempty"`
}

// catalog finds the past runs in its folders and keeps each trace's
// summary while its file does not change.
type catalog struct {
	dirs []string

	mu   sync.Mutex
	seen map[string]summary // by the trace's folder
	byID map[string]string  // a run's id: its folder
}

type summary struct {
	mod  time.Time
	size int64
	run  Run
}

func newCatalog(dirs []string) *catalog {
	return &catalog{dirs: dirs, seen: map[string]summary{}, byID: map[string]string{}}
}

// runID names a run by its folder: the page's handle, never a path.
func runID(dir string) string {
	h := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(h[:8])
}

// list finds the runs, newest first, and says what it could not read.
func (c *catalog) list() ([]Run, []string) {
	dirs, notes := c.find()
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Run, 0, len(dirs))
	kept := map[string]summary{}
	c.byID = map[string]string{}
	for _, d := range dirs {
		r, sum, ok := c.summarize(d)
		if !ok {
			continue
		}
		kept[d] = sum
		c.byID[r.ID] = d
		out = append(out, r)
	}
	c.seen = kept
	sort.SliceStable(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	return out, notes
}

// dir is the folder of the run id, from the latest listing (a fresh one
// when it is not there).
func (c *catalog) dir(id string) (string, bool) {
	c.mu.Lock()
	d, ok := c.byID[id]
	c.mu.Unlock()
	if ok {
		return d, true
	}
	c.list()
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok = c.byID[id]
	return d, ok
}

// summarize returns the run in dir, read again only when its events
// changed; c.mu is held.
func (c *catalog) summarize(dir string) (Run, summary, bool) {
	fi, err := os.Stat(filepath.Join(dir, trace.EventsFile))
	if err != nil {
		return Run{}, summary{}, false
	}
	if s, ok := c.seen[dir]; ok && s.mod.Equal(fi.ModTime()) && s.size == fi.Size() {
		return s.run, s, true
	}
	r := Run{ID: runID(dir), Dir: dir, Kind: KindTrace}
	if _, err := os.Stat(filepath.Join(dir, cache.EntryFile)); err == nil {
		r.Kind = KindCache
	}
	t, err := trace.Read(dir)
	switch {
	case errors.Is(err, trace.ErrTruncated):
		r.Problem = "the trace is cut short (the run was killed while writing it); its steps before that are shown"
	case err != nil:
		r.Problem = err.Error()
		r.Started = fi.ModTime()
	}
	if t != nil {
		fill(&r, t)
	}
	s := summary{mod: fi.ModTime(), size: fi.Size(), run: r}
	return r, s, true
}

// fill sets a run's fields from its trace.
func fill(r *Run, t *trace.Trace) {
	h := t.Header
	r.Name, r.Task, r.URL, r.Model, r.Started = h.Name, h.Task, h.URL, h.Model.Name, h.Started
	r.Secrets = h.Secrets
	r.Steps = len(t.Steps)
	for _, s := range t.Steps {
		if s.Screenshot != "" {
			r.Shots++
		}
		for _, a := range s.Step.Actions {
			r.TookOver = r.TookOver || a.Tool == agent.ToolTakeover
		}
	}
	if t.End == nil {
		r.Iterations = len(t.Steps)
		if n := len(t.Steps); n > 0 {
			last := t.Steps[n-1].Step
			r.DurationMS = last.StartMS + last.SnapshotMS + last.LLMMS + last.ActionMS
		}
		return
	}
	res := t.End.Result
	r.Ended = true
	r.Status, r.Code, r.Message, r.Answer = string(res.Status), string(res.Code), res.Message, res.Answer
	r.Iterations, r.DurationMS = res.Iterations, res.DurationMS
	if r.Started.IsZero() {
		r.Started = res.StartedAt
	}
}

// find walks the folders for traces: a folder holding trace.jsonl is one
// (not looked into further); others are searched down to maxDepth, hidden
// folders aside (a cache's working folders).
func (c *catalog) find() ([]string, []string) {
	var out, notes []string
	folders := 0
	taken := map[string]bool{}
	for _, root := range c.dirs {
		abs, err := filepath.Abs(root)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", root, err))
			continue
		}
		before := len(out)
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == abs {
					return err
				}
				return nil // an unreadable folder inside: skipped
			}
			if !d.IsDir() {
				return nil
			}
			if p != abs && (strings.HasPrefix(d.Name(), ".") || d.Name() == trace.ShotsDir || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if folders++; folders > maxFolders || len(out) >= maxRuns {
				return filepath.SkipAll
			}
			if _, err := os.Stat(filepath.Join(p, trace.EventsFile)); err == nil {
				if !taken[p] {
					taken[p] = true
					out = append(out, p)
				}
				return filepath.SkipDir
			}
			if rel, _ := filepath.Rel(abs, p); rel != "." && strings.Count(rel, string(filepath.Separator)) >= maxDepth-1 {
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", root, err))
			continue
		}
		if len(out) == before && !taken[abs] {
			notes = append(notes, fmt.Sprintf("%s holds no trace (a folder of webagent run --trace, or of --cache)", root))
		}
	}
	if folders > maxFolders || len(out) >= maxRuns {
		notes = append(notes, fmt.Sprintf("the search stopped at %d folders and %d runs: give the console narrower folders", maxFolders, maxRuns))
	}
	return out, notes
}
