package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/trace"
)

// Version is the format of the entries this package writes and reads
// (entry.json's "version").
const Version = 1

// EntryFile is an entry's own record.
const EntryFile = "entry.json"

// Key names a task in the cache: the same key is the same task.
type Key struct {
	// Task is the instruction as written, with {{name}} where a
	// variable's value goes.
	Task string `json:"task"`
	// URL is the start URL as written (it may hold {{name}} too).
	URL string `json:"url"`
	// Vars are the variables' names; their values are not part of the
	// key.
	Vars []string `json:"vars,omitempty"`
	// Schema is the answer's JSON Schema, if any.
	Schema json.RawMessage `json:"schema,omitempty"`
}

// ID is the name of the key's folder: a readable start of the task and a
// hash of the whole key.
func (k Key) ID() string {
	vars := slices.Clone(k.Vars)
	slices.Sort(vars)
	h := sha256.New()
	for _, part := range []string{k.Task, k.URL, strings.Join(vars, ","), string(k.Schema)} {
		fmt.Fprintf(h, "%d:%s\n", len(part), part)
	}
	slug := strings.Trim(nonWord.ReplaceAllString(strings.ToLower(k.Task), "-"), "-")
	if r := []rune(slug); len(r) > 40 {
		slug = strings.TrimRight(string(r[:40]), "-")
	}
	if slug == "" {
		slug = "task"
	}
	return slug + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

var nonWord = regexp.MustCompile(`[^\p{L}\p{N}]+`)

// Cache is a folder of entries.
type Cache struct {
	dir string
	log *slog.Logger
}

// Open returns the cache in dir, making the folder if need be. log
// receives the warnings (an entry of another format); nil discards them.
func Open(dir string, log *slog.Logger) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("cache: no folder given")
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("cache: %s is a file, not a folder; give a folder (it is made if missing)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	sweep(dir)
	return &Cache{dir: dir, log: log}, nil
}

// staleAfter is the age of a run's working folder (.run-*, .store-*) past
// which its run is surely over (killed before it could remove it).
const staleAfter = 24 * time.Hour

// sweep removes the working folders of runs long over.
func sweep(dir string) {
	for _, pat := range []string{".run-*", ".store-*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, d := range m {
			if fi, err := os.Stat(d); err == nil && time.Since(fi.ModTime()) > staleAfter {
				os.RemoveAll(d)
			}
		}
	}
}

// Dir is the cache's folder.
func (c *Cache) Dir() string { return c.dir }

// entryDir is the folder of key's entry.
func (c *Cache) entryDir(key Key) string { return filepath.Join(c.dir, key.ID()) }

// record is entry.json.
type record struct {
	Version int    `json:"version"`
	Key     Key    `json:"key"`
	Created string `json:"created"`
	// Vars are the values the recorded run was given, by name.
	Vars map[string]string `json:"vars,omitempty"`
	// Steps and Tokens describe the recorded run.
	Steps  int `json:"steps"`
	Tokens int `json:"tokens"`
}

// Entry is a stored run of a task.
type Entry struct {
	Dir   string
	Key   Key
	Vars  map[string]string // the values the recorded run was given
	Trace *trace.Trace
}

// Lookup returns the entry of key, or nil when there is none that this
// package can read: an entry of another format, or a damaged one, is
// ignored with a warning (the next successful run replaces it).
func (c *Cache) Lookup(key Key) *Entry {
	dir := c.entryDir(key)
	b, err := os.ReadFile(filepath.Join(dir, EntryFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	warn := func(why string) *Entry {
		c.log.Warn("cache entry ignored; this run will replace it if it succeeds", "entry", dir, "why", why)
		return nil
	}
	if err != nil {
		return warn(err.Error())
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return warn(fmt.Sprintf("%s is not JSON: %v", EntryFile, err))
	}
	if rec.Version != Version {
		return warn(fmt.Sprintf("written by cache format %d; this webagent reads format %d", rec.Version, Version))
	}
	if rec.Key.Task != key.Task || rec.Key.URL != key.URL {
		return warn("it records another task (edited by hand?)")
	}
	t, err := trace.Read(dir)
	if err != nil {
		return warn(err.Error())
	}
	if t.End == nil || t.End.Result.Code != agent.CodeSuccess {
		return warn("its trace is not of a successful run")
	}
	return &Entry{Dir: dir, Key: key, Vars: rec.Vars, Trace: t}
}

// Store makes the trace in traceDir, of a successful run of key with vars,
// the entry of key, replacing any. With move, traceDir is moved into the
// cache (it must be on the same file system); else its events are copied.
func (c *Cache) Store(key Key, vars map[string]string, traceDir string, move bool) error {
	t, err := trace.Read(traceDir)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if t.End == nil || t.End.Result.Code != agent.CodeSuccess {
		return errors.New("cache: only a successful run is stored")
	}
	tmp, err := os.MkdirTemp(c.dir, ".store-")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	entry := filepath.Join(tmp, "entry")
	if move {
		err = os.Rename(traceDir, entry)
	} else {
		err = copyTrace(traceDir, entry)
	}
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	rec := record{Version: Version, Key: key, Created: time.Now().UTC().Format(time.RFC3339), Vars: vars,
		Steps: len(t.Steps), Tokens: recordedTokens(t)}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err := os.WriteFile(filepath.Join(entry, EntryFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	// Replace the old entry: move it aside, move the new one in, then
	// remove the old one.
	final := c.entryDir(key)
	old := filepath.Join(tmp, "old")
	if err := os.Rename(final, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cache: %w", err)
	}
	if err := os.Rename(entry, final); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// recordedTokens is what the run's model calls cost, replayed ones
// included (their recorded cost).
func recordedTokens(t *trace.Trace) int {
	n := 0
	for _, m := range t.Models {
		n += m.Reply.Usage.TotalTokens
	}
	return n
}

// copyTrace copies a trace's events and viewer (not its screenshots).
func copyTrace(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, name := range []string{trace.EventsFile, trace.ViewerFile} {
		b, err := os.ReadFile(filepath.Join(from, name))
		if errors.Is(err, os.ErrNotExist) && name != trace.EventsFile {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
