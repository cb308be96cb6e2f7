package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"math/rand/v2"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/webagent/webagent/internal/yamlfile"
)

// The datasets Load reads.
const (
	WebVoyager     = "webvoyager"
	OnlineMind2Web = "online-mind2web"
	// BUv2 is browser-use's BU Bench V2: tasks scored by a rubric.
	BUv2 = "bu-v2"
)

// Names lists the datasets Load reads.
func Names() []string { return []string{WebVoyager, OnlineMind2Web, BUv2} }

// Levels are Online-Mind2Web's difficulty levels.
var Levels = []string{"easy", "medium", "hard"}

// Task is one task of a dataset.
type Task struct {
	// Dataset is the set's name (WebVoyager, OnlineMind2Web).
	Dataset string
	// ID is the task's id in the set (id, task_id).
	ID string
	// Site groups the tasks by website: WebVoyager's web_name, or
	// Online-Mind2Web's website host without "www.".
	Site string
	// Level is Online-Mind2Web's easy, medium or hard; "" for WebVoyager.
	Level string
	// URL is where the task starts (web, website); Instruction the task
	// (ques, confirmed_task).
	URL         string
	Instruction string
	// ReferenceLength is Online-Mind2Web's number of steps of a person's
	// solution; 0 when not given.
	ReferenceLength int
	// HumanLabel is a person's verdict on a run of the task, when the
	// file carries one (human_label).
	HumanLabel *bool
	// Rubric is a BU Bench V2 task's: the text that defines the items,
	// each item's weight (summing to 100), and the canary string that must
	// never show in the agent's output.
	Rubric *Rubric
	// File and Line locate the task.
	File string
	Line int
}

// Error is a dataset file that cannot be read: its message names the file
// and the line.
type Error = yamlfile.Error

// Load reads the tasks of the dataset kind (see Names) from the file at
// path.
func Load(kind, path string) ([]Task, error) {
	if !slices.Contains(Names(), kind) {
		return nil, fmt.Errorf("%q is not a dataset webagent reads; use %s", kind, strings.Join(Names(), " or "))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot read the dataset: %v", err), Err: err}
	}
	return Read(kind, path, data)
}

// Read reads the tasks of the dataset kind from data; name is the file's
// name, for errors. Its error is an *Error.
func Read(kind, name string, data []byte) ([]Task, error) {
	r := &reader{kind: kind, file: name, seen: map[string]int{}}
	var err error
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		err = r.array(data)
	} else {
		err = r.lines(data)
	}
	if err != nil {
		return nil, err
	}
	if len(r.tasks) == 0 {
		return nil, &Error{File: name, Msg: "the file holds no task"}
	}
	return r.tasks, nil
}

type reader struct {
	kind, file string
	tasks      []Task
	seen       map[string]int // id → line
}

// lines reads JSON lines; blank lines are skipped.
func (r *reader) lines(data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := r.add(line, n); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return &Error{File: r.file, Msg: fmt.Sprintf("reading the dataset: %v", err), Err: err}
	}
	return nil
}

// array reads one JSON array of tasks.
func (r *reader) array(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // [
		return &Error{File: r.file, Line: 1, Msg: "not a JSON array: " + err.Error(), Err: err}
	}
	for dec.More() {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return &Error{File: r.file, Line: lineAt(data, errorOffset(err, dec.InputOffset())), Msg: "not valid JSON: " + err.Error(), Err: err}
		}
		at := start + int64(len(data[start:])-len(bytes.TrimLeft(data[start:], " \t\r\n,")))
		if err := r.add(raw, lineAt(data, at)); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // ]
		return &Error{File: r.file, Line: lineAt(data, dec.InputOffset()), Msg: "the JSON array does not end: " + err.Error(), Err: err}
	}
	return nil
}

func errorOffset(err error, fallback int64) int64 {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Offset
	}
	return fallback
}

// lineAt is the line (from 1) of byte offset off.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// add reads one task object.
func (r *reader) add(raw []byte, line int) error {
	errf := func(format string, args ...any) error {
		return &Error{File: r.file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return errf("not a JSON object: %v", err)
	}
	var (
		t   = Task{Dataset: r.kind, File: r.file, Line: line}
		err error
	)
	switch r.kind {
	case WebVoyager:
		err = webVoyagerTask(obj, &t)
	case BUv2:
		err = buV2Task(obj, &t)
	default:
		err = mind2WebTask(obj, &t)
	}
	if err == nil {
		t.HumanLabel, err = humanLabel(obj["human_label"])
	}
	if err != nil {
		return errf("%v", err)
	}
	if prev, dup := r.seen[t.ID]; dup {
		return errf("id %q again: it was given to the task at line %d", t.ID, prev)
	}
	r.seen[t.ID] = line
	r.tasks = append(r.tasks, t)
	return nil
}

func webVoyagerTask(obj map[string]json.RawMessage, t *Task) error {
	fields := []string{"web_name", "id", "ques", "web"}
	v, err := stringsOf(obj, "a WebVoyager task", fields...)
	if err != nil {
		return err
	}
	t.Site, t.ID, t.Instruction, t.URL = v[0], v[1], v[2], v[3]
	return checkURL("web", t.URL)
}

func mind2WebTask(obj map[string]json.RawMessage, t *Task) error {
	v, err := stringsOf(obj, "an Online-Mind2Web task", "task_id", "confirmed_task", "website")
	if err != nil {
		return err
	}
	t.ID, t.Instruction, t.URL = v[0], v[1], v[2]
	if err := checkURL("website", t.URL); err != nil {
		return err
	}
	u, _ := url.Parse(t.URL)
	t.Site = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if raw, ok := obj["level"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &t.Level); err != nil || !slices.Contains(Levels, t.Level) {
			return fmt.Errorf(`"level" is %s; it must be one of %s`, raw, strings.Join(Levels, ", "))
		}
	}
	if raw, ok := obj["reference_length"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &t.ReferenceLength); err != nil || t.ReferenceLength < 0 {
			return fmt.Errorf(`"reference_length" is %s; it must be a whole number of steps`, raw)
		}
	}
	return nil
}

// stringsOf reads the named fields, each a non-empty string (an id may be
// a number).
func stringsOf(obj map[string]json.RawMessage, what string, names ...string) ([]string, error) {
	out := make([]string, len(names))
	for i, n := range names {
		raw, ok := obj[n]
		if !ok {
			return nil, fmt.Errorf("%s needs %q (it has %s)", what, n, keys(obj))
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			var num json.Number
			if !strings.HasSuffix(n, "id") || json.Unmarshal(raw, &num) != nil {
				return nil, fmt.Errorf("%q is %s; it must be text", n, clip(string(raw), 40))
			}
			s = num.String()
		}
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("%q is empty", n)
		}
		out[i] = strings.TrimSpace(s)
	}
	return out, nil
}

func checkURL(field, s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is %q, not an http or https URL", field, s)
	}
	return nil
}

// humanLabel reads a person's verdict: a boolean, "success"/"failure"
// (or yes/no, true/false, pass/fail), or 1/0.
func humanLabel(raw json.RawMessage) (*bool, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	yes, no := true, false
	switch x := v.(type) {
	case bool:
		return &x, nil
	case float64:
		switch x {
		case 1:
			return &yes, nil
		case 0:
			return &no, nil
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "success", "yes", "true", "pass", "1":
			return &yes, nil
		case "failure", "no", "false", "fail", "0":
			return &no, nil
		}
	}
	return nil, fmt.Errorf(`"human_label" is %s; write true or false ("success" or "failure", 1 or 0)`, raw)
}

func keys(obj map[string]json.RawMessage) string {
	ks := make([]string, 0, len(obj))
	for k := range obj {
		ks = append(ks, strconvQuote(k))
	}
	sort.Strings(ks)
	if len(ks) == 0 {
		return "no fields"
	}
	return strings.Join(ks, ", ")
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Filter chooses tasks by site and level; an empty list keeps all.
type Filter struct {
	Sites  []string
	Levels []string
}

// Select keeps the tasks of the filter's sites and levels (sites match
// without regard to case, and with or without "www."). A site or level
// no task has is an error listing those there are.
func Select(tasks []Task, f Filter) ([]Task, error) {
	norm := func(s string) string { return strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "www.") }
	sites := map[string]bool{}
	levels := map[string]bool{}
	for _, t := range tasks {
		sites[norm(t.Site)] = true
		if t.Level != "" {
			levels[t.Level] = true
		}
	}
	for _, s := range f.Sites {
		if !sites[norm(s)] {
			return nil, fmt.Errorf("no task is on the site %q; the sites are %s", s, strings.Join(sortedSites(tasks), ", "))
		}
	}
	for _, l := range f.Levels {
		switch {
		case len(levels) == 0:
			return nil, fmt.Errorf("these tasks have no level (only Online-Mind2Web's do); leave out --level %s", l)
		case !levels[strings.ToLower(l)]:
			return nil, fmt.Errorf("no task has the level %q; the levels are %s", l, strings.Join(sortedKeys(levels), ", "))
		}
	}
	var out []Task
	for _, t := range tasks {
		if len(f.Sites) > 0 && !slices.ContainsFunc(f.Sites, func(s string) bool { return norm(s) == norm(t.Site) }) {
			continue
		}
		if len(f.Levels) > 0 && !slices.ContainsFunc(f.Levels, func(l string) bool { return strings.EqualFold(l, t.Level) }) {
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

func sortedSites(tasks []Task) []string {
	var s []string
	for _, t := range tasks {
		if !slices.Contains(s, t.Site) {
			s = append(s, t.Site)
		}
	}
	sort.Strings(s)
	return s
}

func sortedKeys(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// Sample returns n tasks chosen at random with seed, in their order in
// the set; the same tasks, seed and n give the same sample. n at or above
// the number of tasks keeps them all.
func Sample(tasks []Task, n int, seed uint64) []Task {
	if n <= 0 || n >= len(tasks) {
		return tasks
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	idx := rng.Perm(len(tasks))[:n]
	sort.Ints(idx)
	out := make([]Task, n)
	for i, j := range idx {
		out[i] = tasks[j]
	}
	return out
}
