package cache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/trace"
)

// Session is one run of a task under a cache: it gives the loop the stored
// run (agent.WithRecording), and stores this run when it succeeded.
type Session struct {
	c     *Cache
	key   Key
	vars  map[string]string
	entry *Entry
	rep   *Replayer
	tmp   string // the trace folder TraceDir made
}

// Begin starts a run of the task key names, which starts at startURL with
// the values vars. The stored run of the task, if any, is replayed; a run
// with none is recorded.
func (c *Cache) Begin(key Key, startURL string, vars map[string]string) *Session {
	s := &Session{c: c, key: key, vars: vars, entry: c.Lookup(key)}
	if s.entry != nil {
		s.rep = NewReplayer(s.entry, startURL, vars)
	} else {
		s.rep = &Replayer{planned: -1, pending: -1} // no step: the model answers every one
	}
	return s
}

// Hit reports whether a stored run is replayed.
func (s *Session) Hit() bool { return s.entry != nil }

// Entry is the folder of the task's entry (it may not exist yet).
func (s *Session) Entry() string { return s.c.entryDir(s.key) }

// Options are the loop's options for the run: the stored run as its
// recording (with none, the recording has no step, and the result still
// counts the model calls).
func (s *Session) Options() []agent.Option {
	return []agent.Option{agent.WithRecording(s.rep)}
}

// TraceDir makes a folder in the cache for the run's trace, for a caller
// that records none of its own; Finish removes it or makes it the entry.
func (s *Session) TraceDir() (string, error) {
	if s.tmp != "" {
		return s.tmp, nil
	}
	dir, err := os.MkdirTemp(s.c.dir, ".run-")
	if err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	s.tmp = dir
	return dir, nil
}

// Finish ends the session with the run's result and its ended trace in
// traceDir: a successful run that asked the model is stored as the task's
// entry (a run wholly replayed changes nothing). It reports whether the
// run was stored.
func (s *Session) Finish(res *agent.Result, traceDir string) (bool, error) {
	defer func() {
		if s.tmp != "" {
			os.RemoveAll(s.tmp)
		}
	}()
	if res == nil || res.Code != agent.CodeSuccess || traceDir == "" {
		return false, nil
	}
	if s.entry != nil && res.Replay != nil && res.Replay.ModelCalls == 0 {
		return false, nil
	}
	if _, err := os.Stat(filepath.Join(traceDir, trace.EventsFile)); errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("cache: the run's trace %s has no events", traceDir)
	}
	move := traceDir == s.tmp
	if err := s.c.Store(s.key, s.vars, traceDir, move); err != nil {
		return false, err
	}
	if move {
		s.tmp = ""
	}
	return true, nil
}

// Trace starts the run's trace in a folder of the cache (TraceDir), for a
// caller that records none of its own: the events only, no screenshots,
// secrets masked. model names the model in the header.
func (s *Session) Trace(task agent.Task, model trace.ModelInfo) (*trace.Writer, error) {
	dir, err := s.TraceDir()
	if err != nil {
		return nil, err
	}
	h, m := trace.TaskHeader(task, model)
	return trace.Create(dir, h, trace.Options{Masker: m})
}
