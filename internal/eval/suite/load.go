package suite

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/internal/eval/sites"
)

// Error is one problem in a task file.
type Error struct {
	File string
	Line int
	// Task is the ID of the task concerned, "" for the file's own fields.
	Task string
	// Field is the path of the offending field, e.g. "limits.task_timeout"
	// or "checks[2].state.path"; "" when the problem is the whole task.
	Field string
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Task != "" {
		fmt.Fprintf(&b, "task %q: ", e.Task)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "%s: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found while loading, in file and line order.
type Errors []*Error

func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

//go:embed tasks/*.yaml
var builtinFS embed.FS

// Builtin returns the built-in tasks, which run on the sites of package
// sites and all have reference solutions.
func Builtin() ([]*Task, error) {
	return LoadFS(builtinFS, "tasks")
}

// Load loads a task file, or every *.yaml and *.yml file under a directory.
func Load(p string) ([]*Task, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		return Parse(p, data)
	}
	tasks, err := LoadFS(os.DirFS(p), ".")
	for _, t := range tasks {
		t.File = filepath.Join(p, filepath.FromSlash(t.File))
	}
	var es Errors
	if errors.As(err, &es) {
		for _, e := range es {
			e.File = filepath.Join(p, filepath.FromSlash(e.File))
		}
	}
	return tasks, err
}

// LoadFiles loads task files and directories (each as [Load] does), in the
// order given. A task ID defined in two of them is an error naming both
// places; within one directory it is an [Error] like any other.
func LoadFiles(paths []string) ([]*Task, error) {
	var all []*Task
	seen := map[string]string{} // task ID -> file:line
	for _, p := range paths {
		tasks, err := Load(p)
		if err != nil {
			return nil, err
		}
		for _, t := range tasks {
			if prev, ok := seen[t.ID]; ok {
				return nil, fmt.Errorf("%s:%d: task %q is also defined in %s", t.File, t.Line, t.ID, prev)
			}
			seen[t.ID] = fmt.Sprintf("%s:%d", t.File, t.Line)
		}
		all = append(all, tasks...)
	}
	return all, nil
}

// LoadFS loads every *.yaml and *.yml file under dir in fsys, in path order.
// Task IDs must be unique across the files.
func LoadFS(fsys fs.FS, dir string) ([]*Task, error) {
	var files []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []*Task
	var errs Errors
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		ts, ferrs := parse(f, data)
		all = append(all, ts...)
		errs = append(errs, ferrs...)
	}
	errs = append(errs, duplicates(all)...)
	if len(errs) > 0 {
		return nil, errs
	}
	return all, nil
}

// Parse parses one task file; name is used in messages and Task.File.
func Parse(name string, data []byte) ([]*Task, error) {
	tasks, errs := parse(name, data)
	errs = append(errs, duplicates(tasks)...)
	if len(errs) > 0 {
		return nil, errs
	}
	return tasks, nil
}

func duplicates(tasks []*Task) Errors {
	var errs Errors
	seen := map[string]*Task{}
	for _, t := range tasks {
		if first, ok := seen[t.ID]; ok {
			errs = append(errs, &Error{File: t.File, Line: t.Line, Task: t.ID, Field: "id",
				Msg: fmt.Sprintf("duplicate id: the task at %s:%d has it too", first.File, first.Line)})
			continue
		}
		seen[t.ID] = t
	}
	return errs
}

// loader collects the problems of one file.
type loader struct {
	file   string
	errs   Errors
	taskID string // ID of the task being read
}

func (l *loader) errorf(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	l.errs = append(l.errs, &Error{File: l.file, Line: line, Task: l.taskID, Field: field, Msg: fmt.Sprintf(format, args...)})
}

var yamlLineRe = regexp.MustCompile(`^yaml: line ([0-9]+): (.*)$`)

func parse(name string, data []byte) ([]*Task, Errors) {
	l := &loader{file: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		line := 0
		if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		l.errs = append(l.errs, &Error{File: name, Line: line, Msg: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")})
		return nil, l.errs
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		l.errorf(nil, "", "the file is empty; it needs tasks")
		return nil, l.errs
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		l.errorf(root, "", "the file must be a mapping with a tasks list (or a single task)")
		return nil, l.errs
	}
	base := strings.TrimSuffix(path.Base(filepath.ToSlash(name)), path.Ext(name))
	defaults := Task{Suite: base}
	var taskNodes []*yaml.Node
	if hasKey(root, "tasks") {
		for _, kv := range l.fields(root, "", []string{"suite", "site", "limits", "tags", "tasks"}) {
			k, v := kv[0], kv[1]
			switch k.Value {
			case "suite":
				defaults.Suite = l.str(v, "suite", true)
			case "site":
				defaults.Site = l.site(v, "site")
			case "limits":
				defaults.Limits = l.limits(v, "limits", Limits{})
			case "tags":
				defaults.Tags = l.strList(v, "tags")
			case "tasks":
				if v.Kind != yaml.SequenceNode {
					l.errorf(v, "tasks", "must be a list of tasks")
					continue
				}
				if len(v.Content) == 0 {
					l.errorf(v, "tasks", "the list is empty")
				}
				taskNodes = v.Content
			}
		}
	} else {
		taskNodes = []*yaml.Node{root}
	}
	var tasks []*Task
	for i, n := range taskNodes {
		if t := l.task(n, i, defaults); t != nil {
			tasks = append(tasks, t)
		}
	}
	return tasks, l.errs
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// fields returns a mapping's key/value pairs, reporting unknown and repeated
// keys.
func (l *loader) fields(m *yaml.Node, prefix string, known []string) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		name := prefix + k.Value
		switch {
		case !contains(known, k.Value):
			msg := fmt.Sprintf("unknown field %q", k.Value)
			if s := closest(k.Value, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			l.errorf(k, name, "%s; the fields here are: %s", msg, strings.Join(known, ", "))
		case seen[k.Value]:
			l.errorf(k, name, "the field is given twice")
		default:
			seen[k.Value] = true
			out = append(out, [2]*yaml.Node{k, v})
		}
	}
	return out
}

// closest returns the known name nearest to s, if it is near.
func closest(s string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(s, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var idRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

var taskFields = []string{"id", "site", "path", "url", "instruction", "tags", "limits", "secrets", "allowed_domains", "blocked_domains", "checks", "reference", "schema", "storage_state"}

// task reads one task of a file, starting from the file's defaults. It
// returns nil when the task has a problem; the problems are in l.errs.
func (l *loader) task(n *yaml.Node, index int, defaults Task) *Task {
	l.taskID = ""
	if n.Kind != yaml.MappingNode {
		l.errorf(n, fmt.Sprintf("tasks[%d]", index), "a task must be a mapping with id, instruction and checks")
		return nil
	}
	before := len(l.errs)
	t := &Task{Suite: defaults.Suite, File: l.file, Line: n.Line, Site: defaults.Site, Limits: defaults.Limits,
		Tags: append([]string(nil), defaults.Tags...)}
	// The ID first, so that every later message names the task.
	l.taskID = l.taskIdentity(n, index, t)
	var tn taskNodes
	for _, kv := range l.fields(n, "", taskFields) {
		l.taskField(kv[0].Value, kv[1], t, &tn)
	}
	l.requireTaskFields(n, tn.hasChecks)
	l.taskStart(n, t, tn)
	l.taskChecks(t, tn.checks)
	if tn.reference != nil {
		t.Reference = l.reference(tn.reference)
	}
	l.taskID = ""
	if len(l.errs) > before {
		return nil
	}
	return t
}

// taskNodes are the nodes of a task's fields that are read after the
// others: where the task starts, its checks and its reference.
type taskNodes struct {
	site, url, path *yaml.Node
	checks          []*yaml.Node
	hasChecks       bool
	reference       *yaml.Node
}

// taskIdentity reads the task's id into t.ID and returns the name the
// task's messages use: its id, or "#N" for the file's N-th task when it
// has none.
func (l *loader) taskIdentity(n *yaml.Node, index int, t *Task) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "id" {
			v := n.Content[i+1]
			t.ID = l.str(v, "id", true)
			if t.ID != "" && !idRe.MatchString(t.ID) {
				l.errorf(v, "id", "%q is not a valid id: use letters, digits, '.', '_' and '-'", t.ID)
			}
		}
	}
	if t.ID != "" {
		return t.ID
	}
	if !hasKey(n, "id") {
		l.errorf(n, "id", "missing: every task needs an id")
	}
	return fmt.Sprintf("#%d", index+1)
}

// taskField reads the task's field key, whose value is v, into t, or keeps
// its node in tn for later.
func (l *loader) taskField(key string, v *yaml.Node, t *Task, tn *taskNodes) {
	switch key {
	case "site":
		t.Site, tn.site = l.site(v, "site"), v
	case "path":
		t.Path, tn.path = l.str(v, "path", true), v
	case "url":
		t.URL, tn.url = l.str(v, "url", true), v
	case "instruction":
		t.Instruction = strings.TrimSpace(l.str(v, "instruction", true))
	case "tags":
		t.Tags = append(t.Tags, l.strList(v, "tags")...)
	case "limits":
		t.Limits = l.limits(v, "limits", t.Limits)
	case "secrets":
		t.Secrets = l.secrets(v)
	case "allowed_domains":
		t.AllowedDomains = l.domains(v, "allowed_domains")
	case "blocked_domains":
		t.BlockedDomains = l.domains(v, "blocked_domains")
	case "checks":
		tn.hasChecks, tn.checks = true, l.checkList(v)
	case "reference":
		tn.reference = v
	case "schema":
		t.Schema = l.schema(v)
	case "storage_state":
		t.StorageState = l.storageState(v)
	}
}

// checkList returns the nodes of a task's checks, a non-empty list.
func (l *loader) checkList(v *yaml.Node) []*yaml.Node {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		l.errorf(v, "checks", "must be a non-empty list of checks")
		return nil
	}
	return v.Content
}

// storageState reads the path of a storage-state file; a relative path is
// relative to the task file.
func (l *loader) storageState(v *yaml.Node) string {
	p := l.str(v, "storage_state", true)
	if p != "" && !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(l.file), p)
	}
	return p
}

// requireTaskFields reports a task without an instruction or checks.
func (l *loader) requireTaskFields(n *yaml.Node, hasChecks bool) {
	if !hasKey(n, "instruction") {
		l.errorf(n, "instruction", "missing: every task needs an instruction")
	}
	if !hasChecks {
		l.errorf(n, "checks", "missing: every task needs at least one check")
	}
}

// taskStart settles where the task starts: a site and a path on it
// (default /), or an absolute url, which overrides the file's site.
func (l *loader) taskStart(n *yaml.Node, t *Task, tn taskNodes) {
	switch {
	case t.URL != "" && tn.site != nil:
		l.errorf(tn.url, "url", "a task has either a site or a url, not both")
	case t.URL != "" && t.Site != "":
		t.Site = "" // the task's url overrides the file's site
	case t.URL == "" && t.Site == "" && tn.url == nil && tn.site == nil:
		l.errorf(n, "site", "missing: a task needs a site (a built-in site name) or a url")
	}
	if t.URL != "" {
		if u, err := url.Parse(t.URL); err != nil || !u.IsAbs() {
			l.errorf(tn.url, "url", "%q is not an absolute URL", t.URL)
		}
		if tn.path != nil {
			l.errorf(tn.path, "path", "path goes with site; put the whole address in url")
		}
	}
	if t.Site != "" {
		if t.Path == "" {
			t.Path = "/"
		} else if !strings.HasPrefix(t.Path, "/") {
			l.errorf(tn.path, "path", "%q must start with /", t.Path)
		}
	}
}

// taskChecks reads the task's checks into t.Checks.
func (l *loader) taskChecks(t *Task, nodes []*yaml.Node) {
	for i, c := range nodes {
		if ch, ok := l.check(c, fmt.Sprintf("checks[%d]", i)); ok {
			if ch.Kind == KindState && t.Site == "" {
				l.errorf(c, fmt.Sprintf("checks[%d]", i), "state checks need a site")
			}
			t.Checks = append(t.Checks, ch)
		}
	}
}

// Field readers. Each reports its own problems and returns a zero value on
// error.

func (l *loader) str(v *yaml.Node, field string, required bool) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		if v.Kind == yaml.ScalarNode && !required {
			return ""
		}
		l.errorf(v, field, "must be a string")
		return ""
	}
	if required && strings.TrimSpace(v.Value) == "" {
		l.errorf(v, field, "must not be empty")
	}
	return v.Value
}

func (l *loader) strList(v *yaml.Node, field string) []string {
	if v.Kind != yaml.SequenceNode {
		l.errorf(v, field, "must be a list of strings")
		return nil
	}
	var out []string
	for i, x := range v.Content {
		if s := l.str(x, fmt.Sprintf("%s[%d]", field, i), true); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (l *loader) site(v *yaml.Node, field string) string {
	s := l.str(v, field, true)
	if s == "" {
		return ""
	}
	if !contains(sites.Names(), s) {
		l.errorf(v, field, "unknown site %q; the built-in sites are: %s", s, strings.Join(sites.Names(), ", "))
		return ""
	}
	return s
}

func (l *loader) limits(v *yaml.Node, field string, lim Limits) Limits {
	if v.Kind != yaml.MappingNode {
		l.errorf(v, field, "must be a mapping of max_iterations, iteration_timeout and task_timeout")
		return lim
	}
	for _, kv := range l.fields(v, field+".", []string{"max_iterations", "iteration_timeout", "task_timeout"}) {
		k, x := kv[0], kv[1]
		name := field + "." + k.Value
		switch k.Value {
		case "max_iterations":
			n, err := strconv.Atoi(x.Value)
			if x.Kind != yaml.ScalarNode || err != nil || n < 1 {
				l.errorf(x, name, "%q must be a whole number of at least 1", x.Value)
				continue
			}
			lim.MaxIterations = n
		default:
			d, err := time.ParseDuration(x.Value)
			if x.Kind != yaml.ScalarNode || err != nil || d <= 0 {
				l.errorf(x, name, "%q is not a positive Go duration such as 90s, 5m or 1h30m", x.Value)
				continue
			}
			if k.Value == "iteration_timeout" {
				lim.IterationTimeout = d
			} else {
				lim.TaskTimeout = d
			}
		}
	}
	return lim
}

// domains reads a list of domain patterns (agent.ParseDomainPattern).
func (l *loader) domains(v *yaml.Node, field string) []agent.DomainPattern {
	var out []agent.DomainPattern
	for i, s := range l.strList(v, field) {
		p, err := agent.ParseDomainPattern(s)
		if err != nil {
			l.errorf(v.Content[i], fmt.Sprintf("%s[%d]", field, i), "%v", err)
			continue
		}
		out = append(out, p)
	}
	return out
}

func (l *loader) secrets(v *yaml.Node) map[string]string {
	if v.Kind != yaml.MappingNode {
		l.errorf(v, "secrets", "must be a mapping of secret names to values")
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, x := v.Content[i], v.Content[i+1]
		if _, _, err := agent.ParseSecretKey(k.Value); err != nil {
			l.errorf(k, "secrets."+k.Value, "%v (a secret's name may hold only letters, digits, '_', '.' and '-', and may be bound as NAME@https://origin)", err)
			continue
		}
		if _, dup := out[k.Value]; dup {
			l.errorf(k, "secrets."+k.Value, "the secret is given twice")
			continue
		}
		out[k.Value] = l.str(x, "secrets."+k.Value, true)
	}
	return out
}

var checkKinds = []string{KindAnswerEquals, KindAnswerContains, KindAnswerRegex, KindAnswerNumber,
	KindURLEquals, KindURLContains, KindURLRegex, KindPageJS, KindElementText, KindState}

func (l *loader) check(n *yaml.Node, field string) (Check, bool) {
	before := len(l.errs)
	if n.Kind != yaml.MappingNode {
		l.errorf(n, field, "a check is a mapping such as {answer_contains: \"42\"}; the kinds are: %s", strings.Join(checkKinds, ", "))
		return Check{}, false
	}
	c := Check{Line: n.Line}
	var kindNode, tolNode *yaml.Node
	for _, kv := range l.fields(n, field+".", append(append([]string(nil), checkKinds...), "tolerance")) {
		k, v := kv[0], kv[1]
		if k.Value == "tolerance" {
			tolNode = v
			continue
		}
		if c.Kind != "" {
			l.errorf(k, field+"."+k.Value, "a check has one kind; this one is already %s (write a second check)", c.Kind)
			continue
		}
		c.Kind, kindNode = k.Value, v
	}
	if c.Kind == "" {
		if len(l.errs) == before {
			l.errorf(n, field, "the check has no kind; the kinds are: %s", strings.Join(checkKinds, ", "))
		}
		return Check{}, false
	}
	name := field + "." + c.Kind
	if tolNode != nil && c.Kind != KindAnswerNumber {
		l.errorf(tolNode, field+".tolerance", "tolerance goes only with answer_number")
	}
	switch c.Kind {
	case KindAnswerEquals, KindAnswerContains, KindURLEquals, KindURLContains, KindPageJS:
		c.Text = l.str(kindNode, name, true)
	case KindAnswerRegex, KindURLRegex:
		c.Text = l.str(kindNode, name, true)
		c.re = l.regex(kindNode, name, c.Text)
	case KindAnswerNumber:
		c.Number = l.number(kindNode, name)
		if tolNode != nil {
			c.Tolerance = l.number(tolNode, field+".tolerance")
			if c.Tolerance < 0 {
				l.errorf(tolNode, field+".tolerance", "must not be negative")
			}
		}
	case KindElementText:
		if kindNode.Kind != yaml.MappingNode {
			l.errorf(kindNode, name, "must be a mapping {selector: CSS, equals|contains|regex: TEXT}")
			break
		}
		for _, kv := range l.fields(kindNode, name+".", []string{"selector", OpEquals, OpContains, OpRegex}) {
			k, v := kv[0], kv[1]
			if k.Value == "selector" {
				c.Selector = l.str(v, name+".selector", true)
				continue
			}
			if c.Op != "" {
				l.errorf(k, name+"."+k.Value, "give one of equals, contains or regex, not both %s and %s", c.Op, k.Value)
				continue
			}
			c.Op = k.Value
			s := l.str(v, name+"."+k.Value, k.Value != OpEquals)
			c.Want = s
			if c.Op == OpRegex {
				c.re = l.regex(v, name+".regex", s)
			}
		}
		if !hasKey(kindNode, "selector") {
			l.errorf(kindNode, name+".selector", "missing: the CSS selector of the element")
		}
		if c.Op == "" && len(l.errs) == before {
			l.errorf(kindNode, name, "give one of equals, contains or regex")
		}
	case KindState:
		l.stateCheck(kindNode, name, &c)
	}
	return c, len(l.errs) == before
}

func (l *loader) stateCheck(n *yaml.Node, name string, c *Check) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, name, "must be a mapping {path: DOTTED.PATH, equals|contains|regex|count|exists: VALUE}")
		return
	}
	before := len(l.errs)
	for _, kv := range l.fields(n, name+".", []string{"path", OpEquals, OpContains, OpRegex, OpCount, OpExists}) {
		k, v := kv[0], kv[1]
		field := name + "." + k.Value
		if k.Value == "path" {
			c.Path = l.str(v, field, true)
			if c.Path != "" {
				segs, err := parsePath(c.Path)
				if err != nil {
					l.errorf(v, field, "bad path %q: %v", c.Path, err)
				}
				c.segs = segs
			}
			continue
		}
		if c.Op != "" {
			l.errorf(k, field, "give one operator, not both %s and %s", c.Op, k.Value)
			continue
		}
		c.Op = k.Value
		switch k.Value {
		case OpEquals, OpContains:
			var x any
			if err := v.Decode(&x); err != nil {
				l.errorf(v, field, "%v", err)
			}
			c.Want = normalize(x)
		case OpRegex:
			s := l.str(v, field, true)
			c.Want, c.re = s, l.regex(v, field, s)
		case OpCount:
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || n < 0 {
				l.errorf(v, field, "%q must be a whole number of 0 or more", v.Value)
			}
			c.Want = float64(n)
		case OpExists:
			b, err := strconv.ParseBool(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil {
				l.errorf(v, field, "%q must be true or false", v.Value)
			}
			c.Want = b
		}
	}
	if !hasKey(n, "path") {
		l.errorf(n, name+".path", "missing: the dotted path into the site's state, e.g. orders.0.total_cents")
	}
	if c.Op == "" && len(l.errs) == before {
		l.errorf(n, name, "give one operator: equals, contains, regex, count or exists")
	}
}

func (l *loader) regex(v *yaml.Node, field, s string) *regexp.Regexp {
	re, err := regexp.Compile(s)
	if err != nil {
		l.errorf(v, field, "bad regex %q: %v", s, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		return nil
	}
	return re
}

func (l *loader) number(v *yaml.Node, field string) float64 {
	f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
	if v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		l.errorf(v, field, "%q is not a number", v.Value)
		return 0
	}
	return f
}

// reference reads the reference: a literal block (reference: |), one step
// line per line, or a list of lines.
func (l *loader) reference(v *yaml.Node) *Reference {
	var lines []refLine
	add := func(n *yaml.Node, field string) {
		switch {
		case n.Kind == yaml.MappingNode:
			l.errorf(n, field, "this line was read as a mapping because it holds \": \"; quote the line, or write the reference as a literal block (reference: |)")
			return
		case n.Kind != yaml.ScalarNode:
			l.errorf(n, field, "must be a block of step lines (reference: |) or a list of step lines")
			return
		}
		switch {
		case n.Style&yaml.FoldedStyle != 0:
			l.errorf(n, field, "use a literal block (reference: |), not a folded one (>), so that each step keeps its line")
		case n.Style&yaml.LiteralStyle != 0:
			for i, s := range strings.Split(n.Value, "\n") {
				lines = append(lines, refLine{line: n.Line + 1 + i, text: s})
			}
		default:
			for _, s := range strings.Split(n.Value, "\n") {
				lines = append(lines, refLine{line: n.Line, text: s})
			}
		}
	}
	if v.Kind == yaml.SequenceNode {
		for i, x := range v.Content {
			add(x, fmt.Sprintf("reference[%d]", i))
		}
	} else {
		add(v, "reference")
	}
	ref, errs := parseReference(lines)
	for _, e := range errs {
		line := e.line
		if line == 0 {
			line = v.Line
		}
		l.errs = append(l.errs, &Error{File: l.file, Line: line, Task: l.taskID, Field: "reference", Msg: e.msg})
	}
	return ref
}

// schema reads a task's answer schema: a YAML mapping, or a string holding
// JSON, checked as package agent will use it.
func (l *loader) schema(v *yaml.Node) json.RawMessage {
	var raw []byte
	if v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
		raw = []byte(v.Value)
	} else {
		var x any
		if err := v.Decode(&x); err != nil {
			l.errorf(v, "schema", "%v", err)
			return nil
		}
		b, err := json.Marshal(x)
		if err != nil {
			l.errorf(v, "schema", "cannot be written as JSON: %v", err)
			return nil
		}
		raw = b
	}
	if err := agent.CheckAnswerSchema(raw); err != nil {
		l.errorf(v, "schema", "%v", err)
		return nil
	}
	return raw
}
