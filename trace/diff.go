package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/internal/outline"
)

// Diff is where two traces of the same task part ways.
type Diff struct {
	Old, New *Trace
	// Step is the 1-based index of the first step that differs; 0 when
	// every step is the same.
	Step int
	// OldStep and NewStep describe that step in each trace ("" when the
	// trace has no such step).
	OldStep, NewStep string
}

// Same reports whether the traces took the same steps.
func (d *Diff) Same() bool { return d.Step == 0 }

// Compare finds the first step where two traces differ: in the page it was
// taken on (URL) or in what it did (each action's tool, its arguments with
// refs read as the elements they named, and whether it failed). Refs
// themselves are not compared: they change from one page load to the next;
// nor is the start URL's origin (http://127.0.0.1:PORT of a site served per
// run): URLs on it are compared by path.
func Compare(old, new *Trace) *Diff {
	d := &Diff{Old: old, New: new}
	n := max(len(old.Steps), len(new.Steps))
	for i := 0; i < n; i++ {
		var o, w string
		if i < len(old.Steps) {
			o = old.DescribeStep(old.Steps[i])
		}
		if i < len(new.Steps) {
			w = new.DescribeStep(new.Steps[i])
		}
		if o != w {
			d.Step, d.OldStep, d.NewStep = i+1, o, w
			return d
		}
	}
	return d
}

// Write prints the comparison for people.
func (d *Diff) Write(w io.Writer) {
	end := func(t *Trace) string {
		if t.End == nil {
			return fmt.Sprintf("did not end, %d steps", len(t.Steps))
		}
		return fmt.Sprintf("%s in %d steps", t.End.Result.Code, len(t.Steps))
	}
	fmt.Fprintf(w, "task: %s\nold: %s (%s)\nnew: %s (%s)\n", d.Old.Header.Task, end(d.Old), d.Old.Dir, end(d.New), d.New.Dir)
	if d.Same() {
		fmt.Fprintln(w, "the traces take the same steps")
		return
	}
	or := func(s string) string {
		if s == "" {
			return "(no such step)"
		}
		return s
	}
	fmt.Fprintf(w, "first difference at step %d:\n  old: %s\n  new: %s\n", d.Step, strings.ReplaceAll(or(d.OldStep), "\n", "\n       "), strings.ReplaceAll(or(d.NewStep), "\n", "\n       "))
}

// DescribeStep is a step as Compare sees it: its URL, then one line per
// action with the elements its refs named.
func (t *Trace) DescribeStep(s StepEvent) string {
	var lines []outline.Line
	if m := t.Model(s.Iteration); m != nil {
		lines = outline.Parse(m.Whole())
	}
	out := []string{s.Step.URL}
	if s.Step.Error != "" {
		out = append(out, "failed: "+s.Step.Error)
	}
	for _, a := range s.Step.Actions {
		out = append(out, describeAction(lines, a))
	}
	desc := strings.Join(out, "\n")
	if o := originOf(t.Header.URL); o != "" {
		desc = strings.ReplaceAll(desc, o, "")
	}
	return desc
}

func describeAction(lines []outline.Line, a agent.ActionRecord) string {
	var args map[string]any
	desc := a.Tool
	if json.Unmarshal(a.Args, &args) == nil {
		keys := make([]string, 0, len(args))
		for k := range args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := args[k]
			if ref, ok := v.(string); ok && (k == "ref" || k == "to_ref") {
				v = elementOf(lines, ref)
			}
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(v)
			desc += fmt.Sprintf(" %s=%s", k, strings.TrimSpace(b.String()))
		}
	} else if len(a.Args) > 0 {
		desc += " " + string(a.Args)
	}
	switch {
	case a.Skipped:
		desc += " (skipped)"
	case a.Error:
		desc += " (failed)"
	}
	return desc
}

// elementOf names the element a ref had in a snapshot.
func elementOf(lines []outline.Line, ref string) string {
	for _, l := range lines {
		if l.Ref == ref {
			return outline.Target{Role: l.Role, Name: l.Name}.String()
		}
	}
	return "[ref=" + ref + "]"
}

// originOf is the scheme://host[:port] of an absolute URL, or "".
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
