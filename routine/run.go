package routine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/script"
)

// Page is what a routine's steps run through: the host's gate (package
// agent's PageCaller, whose every call is a call of the run).
type Page interface {
	Call(ctx context.Context, tool string, args json.RawMessage) (string, error)
	Snapshot(ctx context.Context) (script.Page, error)
}

// Person is a Page that can ask a person (package agent's PageCaller):
// a healed step that changes data runs only on their yes.
type Person interface {
	AskPerson(ctx context.Context, question string) (bool, error)
}

// Classifier is a Page that says whether a call changes data (package
// agent's PageCaller); without it the step's element's role and name
// decide, as --confirm purchases and deletes class them.
type Classifier interface {
	ChangesData(ctx context.Context, tool string, args json.RawMessage) (string, error)
}

// RunOptions configure a run of a routine.
type RunOptions struct {
	// Healer, when set, is asked for the element of a step that is not on
	// the page; without one such a step ends the run.
	Healer Healer
	// Store, when set, receives the healed program as the routine's
	// draft, after a run that healed a step and ended well.
	Store *Store
	// Base, when set, replaces the origin of the routine's recorded start
	// URL wherever the program opens it (a staging site).
	Base string
	// Limits bound the program as a script's are.
	Limits script.Limits
}

// Result is a run that ended well.
type Result struct {
	// Value is what the program returned (the end page's url, title and
	// the text its postcondition found).
	Value json.RawMessage
	Calls int
	Logs  []string
	// Heals are the steps repaired; Draft the draft they made (nil when
	// none was written).
	Heals      []Heal
	Draft      *Draft
	ModelCalls int // questions asked to the Healer
}

// Run runs the routine's current program through page with the values in
// params (a JSON object that must fit its parameters' schema).
func Run(ctx context.Context, page Page, r *Routine, params json.RawMessage, o RunOptions) (*Result, error) {
	values, err := checkParams(r, params)
	if err != nil {
		return nil, err
	}
	base := ""
	if o.Base != "" {
		u, err := url.Parse(o.Base)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, &Error{Code: CodeParams, Msg: fmt.Sprintf("the base URL %q is not an http(s) URL with a host", o.Base)}
		}
		base = u.Scheme + "://" + u.Host
	}
	st := &stepper{page: page, r: r, o: o, lines: strings.Split(r.Program, "\n"), origin: origin(r.Source.URL), base: base, healed: map[string]Target{}}
	env := script.Env{Globals: map[string]any{"params": values, "__origin": st.origin, "__base": base}, Prelude: prelude}
	res, err := script.RunEnv(ctx, r.Program, env, agent.ScriptTools(), st, o.Limits)
	out := &Result{Heals: st.heals, ModelCalls: st.modelCalls}
	if err != nil {
		return out, st.failure(err)
	}
	out.Value, out.Calls, out.Logs = res.Value, res.Calls, res.Logs
	if len(st.heals) > 0 && o.Store != nil {
		if d, err := o.Store.WriteDraft(r.Name, st.draft(), st.heals); err == nil {
			out.Draft = d
		} else {
			return out, fmt.Errorf("routine %s: the run healed %d steps but its draft could not be written: %w", r.Name, len(st.heals), err)
		}
	}
	return out, nil
}

// CheckParams checks values (a JSON object) against the routine's
// parameters' schema, as Run does before it starts: an *Error
// (CodeParams) that names what is missing or wrong.
func CheckParams(r *Routine, params json.RawMessage) error {
	_, err := checkParams(r, params)
	return err
}

// checkParams reads params and checks them against the schema.
func checkParams(r *Routine, params json.RawMessage) (map[string]any, error) {
	if len(strings.TrimSpace(string(params))) == 0 {
		params = json.RawMessage("{}")
	}
	var values map[string]any
	if err := json.Unmarshal(params, &values); err != nil {
		return nil, &Error{Code: CodeParams, Msg: fmt.Sprintf("the parameters of %s must be a JSON object: %v", r.Name, err)}
	}
	rs, err := compileSchema(r.Parameters)
	if err != nil {
		return nil, &Error{Code: CodeInvalid, Msg: fmt.Sprintf("routine %s: its parameters' schema: %v", r.Name, err)}
	}
	if err := rs.Validate(values); err != nil {
		return nil, &Error{Code: CodeParams, Msg: fmt.Sprintf("the parameters given to %s do not fit its schema: %s (its parameters: %s)", r.Name,
			strings.TrimPrefix(err.Error(), "validating root: "), strings.Join(paramNames(r.Parameters), ", "))}
	}
	return values, nil
}

func compileSchema(raw json.RawMessage) (*jsonschema.Resolved, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if s.Type != "object" {
		return nil, errors.New(`it must be an object schema ("type": "object")`)
	}
	return s.Resolve(nil)
}

// paramNames are the properties of a parameters' schema.
func paramNames(raw json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(raw, &s)
	var out []string
	for k := range s.Properties {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// prelude are a routine's own functions: start (its precondition),
// expect (its postcondition) and secret.
const prelude = `
function secret(name) { return "<secret>" + name + "</secret>"; }
function __rebase(u) {
  if (__base && __origin && u.indexOf(__origin) === 0) return __base + u.slice(__origin.length);
  return u;
}
function __bare(u) { return String(u).replace(/#.*$/, "").replace(/\/$/, ""); }
function start(url) {
  var p = snapshot();
  if (__bare(p.url) === __bare(__rebase(url))) return;
  goto(url);
}
function __fail(code, msg) { var e = new Error(msg); e.code = code; throw e; }
function expect(q) {
  q = q || {};
  var p = snapshot();
  if (q.url && String(p.url).indexOf(q.url) < 0)
    __fail("ROUTINE_POSTCONDITION", "the run ended on " + p.url + ", not on " + q.url + " as the saved run did");
  var shown = "";
  if (q.text instanceof RegExp) {
    var m = String(p.text).match(q.text);
    if (!m) __fail("ROUTINE_POSTCONDITION", "the end page shows nothing like " + String(q.text) + " as the saved run's did");
    shown = m[0];
  } else if (q.text) {
    if (String(p.text).toLowerCase().indexOf(String(q.text).toLowerCase()) < 0)
      __fail("ROUTINE_POSTCONDITION", "the end page does not show " + JSON.stringify(q.text) + " as the saved run's did");
    shown = q.text;
  }
  return {url: p.url, title: p.title, shown: shown};
}
`

// failure is a program's end as a routine's error.
func (st *stepper) failure(err error) error {
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	var se *script.Error
	if !errors.As(err, &se) {
		return err
	}
	if u := se.Unwrap(); u != nil {
		if errors.As(u, &re) {
			return re
		}
		return &Error{Code: CodeFailed, Line: se.Line, Msg: se.Code + ": " + se.Message, err: err}
	}
	if m, ok := strings.CutPrefix(se.Message, "uncaught "+CodeEnd+": "); ok {
		return &Error{Code: CodeEnd, Line: se.Line, Msg: m, err: err}
	}
	return &Error{Code: CodeFailed, Line: se.Line, Msg: se.Error(), err: err}
}

// stepper is a run's Caller: it finds each element the program names by
// role and name on the page now, heals a step whose element is gone, and
// passes the call to the Page.
type stepper struct {
	page         Page
	r            *Routine
	o            RunOptions
	lines        []string
	origin, base string
	heals        []Heal
	healed       map[string]Target // the line and the element looked for -> the element healed to
	modelCalls   int
}

// Snapshot passes snapshot() through.
func (st *stepper) Snapshot(ctx context.Context) (script.Page, error) { return st.page.Snapshot(ctx) }

// Call finds the call's elements and makes it.
func (st *stepper) Call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return "", &script.CallError{Code: "ACTION_FAILED", Msg: "the arguments do not read: " + err.Error()}
	}
	if tool == "goto" && st.base != "" {
		var u string
		if json.Unmarshal(m["url"], &u) == nil && strings.HasPrefix(u, st.origin) {
			m["url"], _ = json.Marshal(st.base + strings.TrimPrefix(u, st.origin))
		}
	}
	var lines []outline.Line
	for _, k := range []string{"ref", "to_ref"} {
		raw, ok := m[k]
		if !ok || len(raw) == 0 || raw[0] != '{' {
			continue
		}
		var want Target
		if err := json.Unmarshal(raw, &want); err != nil || want.Name == "" && want.Role == "" {
			return "", &script.CallError{Code: "ACTION_FAILED", Msg: fmt.Sprintf("%s: an element is {role: \"button\", name: \"Next\"}, not %s", k, raw)}
		}
		if lines == nil {
			p, err := st.page.Snapshot(ctx)
			if err != nil {
				return "", err
			}
			lines = outline.Parse(p.Text)
		}
		ref, err := st.find(ctx, tool, m, want, lines)
		if err != nil {
			return "", err
		}
		m[k], _ = json.Marshal(ref)
	}
	call, _ := json.Marshal(m)
	return st.page.Call(ctx, tool, call)
}

// find is the ref of the element want on the page (lines), healed when it
// is not there.
func (st *stepper) find(ctx context.Context, tool string, args map[string]json.RawMessage, want Target, lines []outline.Line) (string, error) {
	line := script.Line(ctx)
	key := fmt.Sprintf("%d\x00%s", line, want)
	if h, ok := st.healed[key]; ok {
		if ref, err := h.find(lines); err == nil {
			return ref, nil
		}
	}
	ref, err := want.find(lines)
	if err == nil {
		return ref, nil
	}
	return st.heal(ctx, healStep{line: line, tool: tool, args: args, want: want, why: err, lines: lines, key: key})
}

// draft is the program with each healed step's element replaced on its
// line.
func (st *stepper) draft() string {
	lines := append([]string(nil), st.lines...)
	for _, h := range st.heals {
		if h.Line < 1 || h.Line > len(lines) || h.was == nil || h.now == nil {
			continue
		}
		l := lines[h.Line-1]
		l = strings.Replace(l, jsLiteral(h.was.Name), jsLiteral(h.now.Name), 1)
		if h.was.Role != h.now.Role {
			l = strings.Replace(l, jsLiteral(h.was.Role), jsLiteral(h.now.Role), 1)
		}
		lines[h.Line-1] = l
	}
	prog := strings.Join(lines, "\n")
	return prog
}
