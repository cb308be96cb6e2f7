package routine

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/script"
	"github.com/webagent/webagent/trace"
)

// SaveOptions say how a run becomes a routine.
type SaveOptions struct {
	Name string
	// Description is the routine's description for a model; empty makes
	// one from the run's task.
	Description string
	// Vars are the values the run was given by name (a cache entry's
	// variables): each becomes a parameter of that name where the run
	// typed, chose or opened it.
	Vars map[string]string
	// Source names the run (its folder) in the manifest.
	Source string
}

// FromTrace makes a routine of a run that worked: its page actions in
// order, each element by role and name, the values that came from the
// task (or Vars) as parameters, secrets by name, the start URL as its
// precondition and what the end page showed as its postcondition. A run
// that did not succeed, or that acted by coordinates (a vendor's computer
// tool), is an *Error (CodeUnsaveable) that says why.
func FromTrace(t *trace.Trace, o SaveOptions) (*Routine, error) {
	if err := CheckName(o.Name); err != nil {
		return nil, err
	}
	if t.End == nil || t.End.Result.Code != agent.CodeSuccess {
		code := "not ended"
		if t.End != nil {
			code = string(t.End.Result.Code)
		}
		return nil, &Error{Code: CodeUnsaveable, Msg: fmt.Sprintf("the run in %s did not succeed (%s): only a run that worked becomes a routine", t.Dir, code)}
	}
	w := &writer{t: t, params: newParams(t.Header.Task, o.Vars)}
	for _, st := range t.Steps {
		for _, rec := range st.Step.Actions {
			if err := w.action(st, rec); err != nil {
				return nil, err
			}
		}
	}
	if len(w.lines) == 0 {
		return nil, &Error{Code: CodeUnsaveable, Msg: fmt.Sprintf("the run in %s took no page action: nothing to save", t.Dir)}
	}
	r := &Routine{Manifest: Manifest{
		Format: Format, Name: o.Name, Version: 1,
		Parameters: w.params.schema(),
		Secrets:    w.secrets,
		Output:     json.RawMessage(outputSchema),
		Source:     Source{Run: o.Source, Task: t.Header.Task, URL: t.Header.URL, Created: time.Now().UTC().Format(time.RFC3339)},
	}}
	r.Description = o.Description
	if r.Description == "" {
		r.Description = w.params.describe(t.Header.Task)
	}
	r.Program = w.program(r)
	return r, Validate(r.Manifest, r.Program)
}

// outputSchema is what every routine returns: the page it ended on and
// the text its postcondition found there.
const outputSchema = `{"type":"object","properties":{"url":{"type":"string"},"title":{"type":"string"},"shown":{"type":"string","description":"the text the end page showed, as the saved run's did"}}}`

// writer writes a routine's program from a trace.
type writer struct {
	t       *trace.Trace
	params  *params
	secrets []string
	lines   []string
	endIter int // the iteration whose page showed the run's end (done)
}

// action adds one recorded action of step st.
func (w *writer) action(st trace.StepEvent, rec agent.ActionRecord) error {
	if rec.Error || rec.Skipped {
		return nil
	}
	switch rec.Tool {
	case agent.ToolDone:
		if len(w.lines) > 0 && !slices.ContainsFunc(st.Step.Actions, acted) {
			w.endIter = st.Iteration
		}
		return nil
	case agent.ToolFail, agent.ToolAskHuman, agent.ToolScreenshot, agent.ToolSnapshot, "wait":
		return nil
	case agent.ToolScript, agent.ToolTakeover: // a takeover's Calls: what the person did, by element
		for _, c := range rec.Calls {
			if c.Tool == agent.ToolSnapshot || c.Tool == "snapshot" || c.Error || c.Skipped {
				continue
			}
			if err := w.call(st, c, c.Element); err != nil {
				return err
			}
		}
		return nil
	}
	if _, page := scriptTool(rec.Tool); !page && len(rec.Calls) > 0 && !rec.Native && !slices.ContainsFunc(rec.Calls, func(c agent.ActionRecord) bool { return c.Native }) {
		// A tool whose work was page calls (a routine the run called):
		// its calls, each by its element.
		for _, c := range rec.Calls {
			if c.Tool != agent.ToolSnapshot && !c.Error && !c.Skipped {
				if err := w.call(st, c, c.Element); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if rec.Native || slices.ContainsFunc(rec.Calls, func(c agent.ActionRecord) bool { return c.Native }) {
		return &Error{Code: CodeUnsaveable, Msg: fmt.Sprintf("step %d acted by the screen's coordinates (a vendor's computer tool): a routine finds elements by role and name; record the run with --tools webagent", st.Iteration)}
	}
	return w.call(st, rec, nil)
}

// acted reports whether a recorded call acted on the page.
func acted(a agent.ActionRecord) bool {
	switch a.Tool {
	case agent.ToolDone, agent.ToolFail, agent.ToolAskHuman, agent.ToolScreenshot, agent.ToolSnapshot:
		return false
	}
	return !a.Error && !a.Skipped
}

// call adds one page call: el is the element a script's call named, nil
// to read it from the step's snapshot.
func (w *writer) call(st trace.StepEvent, rec agent.ActionRecord, el *agent.Element) error {
	tool, ok := scriptTool(rec.Tool)
	if !ok {
		return nil // not a page tool a program has (wait): nothing to redo
	}
	var args map[string]any
	if err := json.Unmarshal(argsBytes(rec.Args), &args); err != nil {
		return &Error{Code: CodeUnsaveable, Msg: fmt.Sprintf("step %d: the recorded arguments of %s do not read: %v", st.Iteration, rec.Tool, err)}
	}
	if rec.Tool == "goto" && len(w.lines) == 0 {
		if u, _ := args["url"].(string); u == w.t.Header.URL {
			return nil // the start, which start() opens
		}
	}
	exprs := map[string]string{}
	for k, v := range args {
		if k == "ref" || k == "to_ref" {
			ref, _ := v.(string)
			tgt, err := w.target(st, ref, el, k == "ref")
			if err != nil {
				return err
			}
			exprs[k] = tgt
			continue
		}
		exprs[k] = w.value(v, fieldName(el, st, w.t, args))
	}
	w.lines = append(w.lines, callLine(tool, exprs))
	return nil
}

// argsBytes is the recorded arguments as JSON (arguments that were not
// JSON were recorded as a string).
func argsBytes(raw json.RawMessage) []byte {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return []byte(s)
	}
	if len(raw) == 0 {
		return []byte("{}")
	}
	return raw
}

// scriptTool is the program's function for a page tool.
func scriptTool(name string) (script.Tool, bool) {
	for _, t := range agent.ScriptTools() {
		if t.Name == name {
			return t, true
		}
	}
	return script.Tool{}, false
}

// target is the element a recorded ref named, as the program writes it:
// {role: "button", name: "Next"}, with near and nth where equal ones stood.
func (w *writer) target(st trace.StepEvent, ref string, el *agent.Element, first bool) (string, error) {
	var tg Target
	if el != nil && first {
		tg = Target{Role: el.Role, Name: el.Name}
	} else {
		m := w.t.Model(st.Iteration)
		if m == nil {
			return "", &Error{Code: CodeUnsaveable, Msg: fmt.Sprintf("step %d: the trace has no snapshot to read its element from", st.Iteration)}
		}
		r, err := outline.Recall(outline.Parse(m.Whole()), ref)
		if err != nil {
			return "", &Error{Code: CodeUnsaveable, Msg: fmt.Sprintf("step %d: %v", st.Iteration, err)}
		}
		tg = Target{Role: r.Line.Role, Name: r.Line.Name, Near: r.Scope}
		if r.Nth > 0 && r.Scope == "" {
			tg.Nth = r.Nth + 1
		}
	}
	return tg.literal(w.value), nil
}

// fieldName names the parameter a call's text would become: the element
// it was typed into.
func fieldName(el *agent.Element, st trace.StepEvent, t *trace.Trace, args map[string]any) string {
	if el != nil {
		return el.Name
	}
	ref, _ := args["ref"].(string)
	if m := t.Model(st.Iteration); m != nil && ref != "" {
		if r, err := outline.Recall(outline.Parse(m.Whole()), ref); err == nil {
			return r.Line.Name
		}
	}
	return ""
}

var secretRE = regexp.MustCompile(`<secret>([A-Za-z0-9_.@:/-]+)</secret>`)

// value writes a recorded value as an expression: a secret by name, a
// parameter where the task gave the value, else the value itself.
func (w *writer) value(v any, field string) string {
	s, ok := v.(string)
	if !ok {
		return jsLiteral(v)
	}
	if m := secretRE.FindStringSubmatch(s); m != nil && m[0] == s {
		if !slices.Contains(w.secrets, m[1]) {
			w.secrets = append(w.secrets, m[1])
		}
		return "secret(" + jsLiteral(m[1]) + ")"
	}
	if name := w.params.of(s, field); name != "" {
		return "params." + name
	}
	return w.params.within(s)
}

// callLine is one call of the program: the tool's positional arguments,
// then an object with the others.
func callLine(t script.Tool, exprs map[string]string) string {
	var args []string
	done := map[string]bool{}
	for _, p := range script.Positional(t) {
		e, ok := exprs[p.Name]
		if !ok {
			break
		}
		args = append(args, e)
		done[p.Name] = true
	}
	var rest []string
	for k := range exprs {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	if len(rest) > 0 {
		var kv []string
		for _, k := range rest {
			kv = append(kv, k+": "+exprs[k])
		}
		args = append(args, "{"+strings.Join(kv, ", ")+"}")
	}
	return script.FuncName(t.Name) + "(" + strings.Join(args, ", ") + ");"
}

// jsLiteral writes a value as JavaScript (JSON, HTML left as it is).
func jsLiteral(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// program is the routine's text.
func (w *writer) program(r *Routine) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s, version 1: saved from the run %s on %s.\n", r.Name, r.Source.Run, r.Source.Created[:10])
	fmt.Fprintf(&b, "// The task then: %s\n", oneLine(r.Source.Task))
	b.WriteString("// Elements are found by role and name; params.NAME are the parameters, secret(\"NAME\") a\n")
	b.WriteString("// secret by name. Edit it, then check it: webagent routine check " + r.Name + "\n")
	if typed := slices.DeleteFunc(slices.Clone(w.secrets), func(n string) bool { return !strings.HasPrefix(n, "TYPED_BY_PERSON_") }); len(typed) > 0 {
		fmt.Fprintf(&b, "// A person typed %s in a takeover: give each by name when it runs (--secret NAME=VALUE).\n", strings.Join(typed, ", "))
	}
	fmt.Fprintf(&b, "start(%s);\n", jsLiteral(w.t.Header.URL))
	for _, l := range w.lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("return " + w.end() + ";\n")
	return b.String()
}

// end is the postcondition: expect() with the end page's path and a text
// that was new on it, or the page as it is when the trace does not show it.
func (w *writer) end() string {
	m := w.t.Model(w.endIter)
	if w.endIter == 0 || m == nil {
		return "expect({})"
	}
	var kv []string
	if st := w.step(w.endIter); st != nil && st.Step.URL != "" {
		if u, err := url.Parse(st.Step.URL); err == nil && u.Path != "" {
			kv = append(kv, "url: "+jsLiteral(stablePath(u.Path)))
		}
	}
	if text := newText(w.t, w.endIter); text != "" {
		kv = append(kv, "text: "+w.params.expectText(text))
	}
	return "expect({" + strings.Join(kv, ", ") + "})"
}

// stablePath is the part of a path that the next run's end shares: up to
// its first segment with a digit (an order's number, an id).
func stablePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if strings.ContainsAny(s, "0123456789") {
			return strings.Join(segs[:i], "/") + "/"
		}
	}
	return p
}

func (w *writer) step(iter int) *trace.StepEvent {
	for i := range w.t.Steps {
		if w.t.Steps[i].Iteration == iter {
			return &w.t.Steps[i]
		}
	}
	return nil
}

// newText is a text line the end page showed that the page before it did
// not: the first heading, alert or status, else the first text.
func newText(t *trace.Trace, iter int) string {
	end := t.Model(iter)
	var before map[string]bool
	for i := iter - 1; i > 0; i-- {
		if m := t.Model(i); m != nil {
			before = map[string]bool{}
			for _, l := range outline.Parse(m.Whole()) {
				before[lineText(l)] = true
			}
			break
		}
	}
	var first string
	for _, l := range outline.Parse(end.Whole()) {
		s := lineText(l)
		if len(s) < 3 || len(s) > 120 || before[s] || l.Ref != "" && l.Role != "heading" {
			continue
		}
		switch l.Role {
		case "heading", "alert", "status":
			return s
		}
		if first == "" && l.Role == "" {
			first = s
		}
	}
	return first
}

// lineText is what a line shows: an element's name, or its text.
func lineText(l outline.Line) string {
	if l.Role != "" {
		return strings.TrimSpace(l.Name)
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l.Text), "- "))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
