package suite

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/webagent/webagent/agent"
)

// Reading one task of a task file: its fields, where it starts, its checks,
// its reference and its answer schema.

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
		t.Navigation.Allowed = l.domains(v, "allowed_domains")
	case "blocked_domains":
		t.Navigation.Blocked = l.domains(v, "blocked_domains")
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
