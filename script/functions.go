package script

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/dop251/goja"

	"github.com/webagent/webagent/internal/outline"
)

// install gives the program its functions: a function per page tool,
// call(name, args) for any of them by its table name, snapshot(), log()
// and console.log.
func (e *engine) install(tools []Tool) error {
	vm := e.vm
	pre, err := vm.RunString(prelude)
	if err != nil {
		return err
	}
	setup, _ := goja.AssertFunction(pre)
	if _, err := setup(goja.Undefined(), vm.GlobalObject(), vm.ToValue(DefaultMaxString)); err != nil {
		return err
	}
	byName := map[string]Tool{}
	for _, t := range tools {
		byName[t.Name] = t
		if err := vm.Set(FuncName(t.Name), e.pageFunc(t)); err != nil {
			return err
		}
	}
	set := map[string]any{
		"call": func(fc goja.FunctionCall) goja.Value {
			name := fc.Argument(0).String()
			t, ok := byName[name]
			if !ok {
				panic(vm.NewTypeError("call: no page tool %q", name))
			}
			return e.pageCall(t, objectOf(vm, fc.Argument(1)))
		},
		"snapshot": func(goja.FunctionCall) goja.Value { return e.snapshot() },
		"log":      e.log,
	}
	for k, v := range set {
		if err := vm.Set(k, v); err != nil {
			return err
		}
	}
	console := vm.NewObject()
	if err := console.Set("log", e.log); err != nil {
		return err
	}
	return vm.Set("console", console)
}

// FuncName is a tool's name as the program calls it: lower camel case
// (wait_for is waitFor).
func FuncName(tool string) string {
	parts := strings.Split(tool, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = string(unicode.ToUpper(rune(parts[i][0]))) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// Signature is how the program calls a tool: `type(ref, text, {submit})`.
func Signature(t Tool) string {
	pos := positional(t)
	var names []string
	for _, p := range pos {
		names = append(names, p.Name)
	}
	var opts []string
	for _, p := range t.Params {
		if !contains(pos, p.Name) {
			opts = append(opts, p.Name)
		}
	}
	if len(opts) > 0 {
		names = append(names, "{"+strings.Join(opts, ", ")+"}")
	}
	return FuncName(t.Name) + "(" + strings.Join(names, ", ") + ")"
}

// positional are the parameters a tool takes by position.
func positional(t Tool) []Param {
	var out []Param
	for _, p := range t.Params {
		if p.Required {
			out = append(out, p)
		}
	}
	if len(out) == 0 && len(t.Params) > 0 && t.Params[0].Type != "object" {
		out = append(out, t.Params[0])
	}
	for _, p := range t.Params {
		if p.Type == "object" && !contains(out, p.Name) {
			out = append(out, p)
			break
		}
	}
	return out
}

func contains(ps []Param, name string) bool {
	for _, p := range ps {
		if p.Name == name {
			return true
		}
	}
	return false
}

// pageFunc is the function a tool is in the program.
func (e *engine) pageFunc(t Tool) func(goja.FunctionCall) goja.Value {
	pos := positional(t)
	return func(fc goja.FunctionCall) goja.Value {
		args := map[string]any{}
		rest := fc.Arguments
		for _, p := range pos {
			if len(rest) == 0 {
				break
			}
			v := rest[0]
			if p.Type != "object" && isPlainObject(v) && !(isTargetParam(p.Name) && isTarget(v)) {
				break // the options object
			}
			args[p.Name] = v.Export()
			rest = rest[1:]
		}
		if len(rest) > 0 {
			if !isPlainObject(rest[0]) || len(rest) > 1 {
				panic(e.vm.NewTypeError("%s: too many arguments; call it as %s", FuncName(t.Name), Signature(t)))
			}
			for k, v := range objectOf(e.vm, rest[0]) {
				args[k] = v
			}
		}
		return e.pageCall(t, args)
	}
}

// isTargetParam reports whether a tool's parameter names an element:
// there, an object with a role ({role: "button", name: "Next"}) is the
// element, which the Caller finds on the page (a routine's steps).
func isTargetParam(name string) bool { return name == "ref" || name == "to_ref" }

// isTarget reports whether v is an element described by role and name
// rather than the options object.
func isTarget(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	return ok && o.Get("role") != nil && !goja.IsUndefined(o.Get("role"))
}

func isPlainObject(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	switch o.ClassName() {
	case "Object":
		return true
	}
	return false
}

func objectOf(vm *goja.Runtime, v goja.Value) map[string]any {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return map[string]any{}
	}
	m, ok := v.Export().(map[string]any)
	if !ok {
		panic(vm.NewTypeError("the arguments must be an object such as {ref: \"e3\"}"))
	}
	return m
}

// count counts a page call against the limit; past it the run ends.
func (e *engine) count() bool {
	e.calls++
	if e.calls > e.lim.MaxCalls {
		e.vm.Interrupt(stop{&Error{Code: CodeCalls, Message: fmt.Sprintf("the script made more than %d page calls; do less in one script, or return what you have", e.lim.MaxCalls)}})
		return false
	}
	return true
}

// pageCall performs one call through the Caller. A *CallError is thrown
// into the program; any other error ends the run.
func (e *engine) pageCall(t Tool, args map[string]any) goja.Value {
	if !e.count() {
		return goja.Undefined()
	}
	raw, err := json.Marshal(args)
	if err != nil {
		panic(e.vm.NewTypeError("%s: the arguments cannot be sent: %v", FuncName(t.Name), err))
	}
	ctx := e.ctx
	if line := e.line(); line > 0 {
		ctx = context.WithValue(ctx, lineKey{}, line)
	}
	out, err := e.c.Call(ctx, t.Name, raw)
	if err != nil {
		e.throwOrStop(FuncName(t.Name), err)
		return goja.Undefined()
	}
	return e.vm.ToValue(out)
}

// lineKey carries, in a Call's context, the program's line that made it.
type lineKey struct{}

// Line is the line of the program (1-based, as given) whose page call a
// Caller is performing: what a routine's healed step is written back to.
// 0 when ctx is not a page call's or the line is not known.
func Line(ctx context.Context) int {
	n, _ := ctx.Value(lineKey{}).(int)
	return n
}

// line is the program's line at the page call being made: the innermost
// frame of the program itself.
func (e *engine) line() int {
	l, _ := position(e.vm.CaptureCallStack(0, nil))
	return l
}

// throwOrStop throws a *CallError into the program, or ends the run with
// any other error.
func (e *engine) throwOrStop(fn string, err error) {
	var ce *CallError
	if errors.As(err, &ce) {
		o := e.vm.NewGoError(err)
		_ = o.Set("name", "PageError")
		_ = o.Set("code", ce.Code)
		_ = o.Set("message", fn+": "+ce.Msg)
		panic(o)
	}
	if e.ctx.Err() != nil {
		e.vm.Interrupt(stop{&Error{Code: CodeTimeout, Message: "the script ran out of time during " + fn + " and was stopped", err: e.ctx.Err()}})
		return
	}
	e.vm.Interrupt(stop{&Error{Code: CodeThrown, Message: fn + ": " + err.Error(), err: err}})
}

// snapshot is snapshot() in the program: the page with its nodes.
func (e *engine) snapshot() goja.Value {
	if !e.count() {
		return goja.Undefined()
	}
	p, err := e.c.Snapshot(e.ctx)
	if err != nil {
		e.throwOrStop("snapshot", err)
		return goja.Undefined()
	}
	nodes := Nodes(p.Text)
	list := make([]any, len(nodes))
	for i, n := range nodes {
		var box any
		if n.Box != nil {
			box = map[string]any{"x": n.Box[0], "y": n.Box[1], "width": n.Box[2], "height": n.Box[3]}
		}
		states := make([]any, len(n.States))
		for j, s := range n.States {
			states[j] = s
		}
		list[i] = map[string]any{"role": n.Role, "name": n.Name, "value": n.Value, "states": states,
			"ref": n.Ref, "box": box, "depth": n.Depth, "text": n.Text}
	}
	obj := e.vm.ToValue(map[string]any{"url": p.URL, "title": p.Title, "text": p.Text, "nodes": list})
	wrap, _ := goja.AssertFunction(e.vm.Get("__page"))
	v, err := wrap(goja.Undefined(), obj)
	if err != nil {
		panic(err)
	}
	return v
}

// log is log(...) in the program.
func (e *engine) log(fc goja.FunctionCall) goja.Value {
	parts := make([]string, len(fc.Arguments))
	for i, a := range fc.Arguments {
		if s, ok := a.Export().(string); ok {
			parts[i] = s
			continue
		}
		b, err := json.Marshal(a.Export())
		if err != nil {
			parts[i] = a.String()
		} else {
			parts[i] = string(b)
		}
	}
	e.logs.add(strings.Join(parts, " "), e.lim.MaxLogBytes)
	return goja.Undefined()
}

// Node is one line of a snapshot as a program reads it.
type Node struct {
	Role, Name, Value string
	States            []string
	Ref               string
	// Box is x, y, width, height in viewport CSS pixels, where the line
	// gives one (box=…); nil elsewhere.
	Box   []int
	Depth int
	Text  string // the whole line, without its indentation and list marker ("- ")
}

// Nodes reads a snapshot's lines: elements with their role, name, value,
// states, ref and box, and text lines (Role "text").
func Nodes(text string) []Node {
	lines := outline.Parse(text)
	out := make([]Node, 0, len(lines))
	for _, l := range lines {
		n := Node{Role: l.Role, Name: l.Name, Ref: l.Ref, Depth: l.Indent / 2, Text: strings.TrimPrefix(l.Text, "- ")}
		if n.Role == "" {
			n.Role = "text"
		}
		rest := l.Text
		if i := strings.Index(rest, `"`); i >= 0 && l.Name != "" {
			// past the quoted name
			if q, err := strconv.QuotedPrefix(rest[i:]); err == nil {
				rest = rest[i+len(q):]
			}
		} else if l.Role != "" {
			rest = strings.TrimPrefix(strings.TrimPrefix(rest, "- "), l.Role)
		}
		if l.Role != "" {
			n.Value, n.States, n.Box = fields(rest)
		} else {
			n.States = []string{}
		}
		out = append(out, n)
	}
	return out
}

// fields reads what follows an element's name: value="…", box=x,y,w,h,
// bare words (states), and the [ref=…] tail.
func fields(rest string) (value string, states []string, box []int) {
	states = []string{}
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		switch {
		case strings.HasPrefix(rest, "[ref="):
			return
		case strings.HasPrefix(rest, `value="`):
			if q, err := strconv.QuotedPrefix(rest[len("value="):]); err == nil {
				value, _ = strconv.Unquote(q)
				rest = rest[len("value=")+len(q):]
				continue
			}
		case strings.HasPrefix(rest, "box="):
			word, tail, _ := strings.Cut(rest, " ")
			for _, s := range strings.Split(strings.TrimPrefix(word, "box="), ",") {
				v, err := strconv.Atoi(s)
				if err != nil {
					box = nil
					break
				}
				box = append(box, v)
			}
			if len(box) != 4 {
				box = nil
			}
			rest = tail
			continue
		}
		word, tail, _ := strings.Cut(rest, " ")
		if w := strings.Trim(word, "[]"); w != "" && !strings.Contains(w, "=") && !strings.HasPrefix(w, `"`) {
			states = append(states, w)
		}
		rest = tail
	}
	return
}

// Positional are the parameters a tool takes by position in a program, in
// order (see Tool): what a program's writer (a routine saved from a run)
// passes without naming.
func Positional(t Tool) []Param { return positional(t) }
