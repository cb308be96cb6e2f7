package suite

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/webagent/webagent/agent"
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
				defaults.Limits = l.limits(v, "limits", agent.Limits{})
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
