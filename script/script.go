// Package script runs a model's small program over the page tools: many
// steps in one model turn.
//
// The program is JavaScript, the body of a function (return gives the
// result), run in an interpreter embedded in the process (goja, pure Go):
// never in the page's world, never in a child process. It has no network,
// files, timers or host access. What it can do is call the page tools it is
// given, each as a synchronous function (click(ref), type(ref, text,
// {submit: true}), goto(url), waitFor({text}), ...), take a snapshot of the
// page (snapshot(), with its nodes and find), log lines, and return a value
// (JSON), which becomes the tool's result.
//
// Every page call goes through the Caller, which is where the caller puts
// its checks: package agent runs each call through the gate the model's own
// calls go through (the action policy, confirmations, secrets by origin,
// budgets, the trace). A call the Caller refuses or that fails on the page
// throws an Error the script may catch (its code in e.code); a Caller error
// that is not a *CallError ends the script at once.
//
// Bounds: the whole run ends by ctx (an endless loop is interrupted), by a
// count of page calls, by the bytes logged and returned, and by memory (the
// live heap's growth, read at every garbage collection, and the length of a
// string made in one step); a regular expression that needs backtracking
// gives up a match after RegexpTimeout. Each bound ends the run with an
// *Error whose Code says which.
package script

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
)

// The codes of an *Error.
const (
	// CodeSyntax: the program does not parse; Line says where.
	CodeSyntax = "SCRIPT_SYNTAX_ERROR"
	// CodeThrown: the program threw an exception it did not catch (a
	// failed page call among them).
	CodeThrown = "SCRIPT_ERROR"
	// CodeTimeout: the run's context ended (its deadline, within the
	// iteration's bound) while the program ran.
	CodeTimeout = "SCRIPT_TIMEOUT"
	// CodeCalls: the program made more page calls than Limits.MaxCalls.
	CodeCalls = "SCRIPT_CALL_LIMIT"
	// CodeMemory: the program's memory passed Limits.MaxMemory.
	CodeMemory = "SCRIPT_MEMORY_LIMIT"
	// CodeOutput: the returned value was larger than
	// Limits.MaxResultBytes.
	CodeOutput = "SCRIPT_OUTPUT_LIMIT"
)

// Defaults of Limits.
const (
	DefaultMaxCalls       = 200
	DefaultMaxResultBytes = 32 << 10
	DefaultMaxLogBytes    = 8 << 10
	DefaultMaxMemory      = 256 << 20
	// DefaultMaxString is the longest string (in UTF-16 units) repeat,
	// padStart and padEnd may make in one step.
	DefaultMaxString = 4 << 20
	// maxStack bounds the depth of the program's calls.
	maxStack = 1000
)

// RegexpTimeout bounds one match of a regular expression that needs
// backtracking (back references, look-arounds): past it the match fails,
// as if it found nothing. Expressions without those run in linear time.
const RegexpTimeout = time.Second

// Limits bound one run. A zero field takes its default.
type Limits struct {
	// MaxCalls is the most page calls (snapshot included) one run makes.
	MaxCalls int
	// MaxResultBytes bounds the returned value, as JSON.
	MaxResultBytes int
	// MaxLogBytes bounds what log writes; past it lines are dropped and
	// the last says how many.
	MaxLogBytes int
	// MaxMemory bounds how much the process's live heap may grow while
	// the program runs, in bytes.
	MaxMemory int64
}

func (l Limits) effective() Limits {
	return Limits{
		MaxCalls:       cmp.Or(l.MaxCalls, DefaultMaxCalls),
		MaxResultBytes: cmp.Or(l.MaxResultBytes, DefaultMaxResultBytes),
		MaxLogBytes:    cmp.Or(l.MaxLogBytes, DefaultMaxLogBytes),
		MaxMemory:      cmp.Or(l.MaxMemory, DefaultMaxMemory),
	}
}

// Caller performs the page calls of a program.
type Caller interface {
	// Call performs one call of the named tool with its JSON arguments
	// and returns its outcome as text. A call that did not do what it
	// was asked is a *CallError (the program may catch it); any other
	// error ends the run.
	Call(ctx context.Context, tool string, args json.RawMessage) (string, error)
	// Snapshot returns the page as the program sees it.
	Snapshot(ctx context.Context) (Page, error)
}

// Page is a snapshot of the page: the outline the model reads.
type Page struct {
	URL, Title string
	// Text is the page's outline, one element or text a line (package
	// browser's snapshot).
	Text string
}

// CallError is a page call that did not do what it was asked: refused by
// a rule, failed on the page, out of time. The program sees it as a thrown
// Error with e.code and e.message.
type CallError struct {
	Code string // e.g. ACTION_FAILED, STALE_REF, REFUSED, OPERATION_TIMEOUT
	Msg  string
}

func (e *CallError) Error() string { return e.Code + ": " + e.Msg }

// Tool is a page tool offered to the program as a function. Its name in
// the program is the tool's name in lower camel case (wait_for is
// waitFor). Arguments are taken by position (the required parameters in
// order, or the first parameter of a tool that requires none, then the
// object parameter if the tool has one), and a last plain object gives
// any of them by name: type("e3", "blue mug", {submit: true}).
type Tool struct {
	Name   string
	Params []Param
}

// Param is one parameter of a Tool.
type Param struct {
	Name     string
	Type     string // JSON Schema type: string, integer, boolean, array, object
	Required bool
}

// Result is what a run gave.
type Result struct {
	// Value is the returned value as JSON: null when the program
	// returned nothing.
	Value json.RawMessage
	// Logs are the lines log wrote.
	Logs []string
	// Calls counts the page calls made.
	Calls int
}

// Error is a run that did not end with a returned value.
type Error struct {
	Code    string
	Message string
	// Line and Column are where the program was, 1-based in the code as
	// given; 0 when not known.
	Line, Column int
	// Logs are the lines log wrote before the end, and Calls the page
	// calls made.
	Logs  []string
	Calls int
	err   error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s at line %d: %s", e.Code, e.Line, e.Message)
	}
	return e.Code + ": " + e.Message
}

// Unwrap returns the Caller's error that ended the run, or the context's.
func (e *Error) Unwrap() error { return e.err }

var regexpOnce sync.Once

// Run runs code, the body of a function, with tools as its page functions,
// and returns its result. ctx bounds the whole run: when it ends the
// program is interrupted, at its next instruction or when its page call
// returns. Nothing of the run goes on after Run returns.
func Run(ctx context.Context, code string, tools []Tool, c Caller, lim Limits) (*Result, error) {
	return RunEnv(ctx, code, Env{}, tools, c, lim)
}

// Env is what a program runs with besides its code, its tools and its
// Caller: values it reads by name, and functions of its host written in
// the program's own language.
type Env struct {
	// Globals are values the program reads by name (a routine's params),
	// each made a JavaScript value (a map an object, a slice an array).
	Globals map[string]any
	// Prelude is JavaScript run before the program, in its world, to
	// define functions it calls (a routine's start and expect). Its
	// errors are the host's, not the program's: Run fails with them.
	Prelude string
}

// RunEnv is Run with an Env.
func RunEnv(ctx context.Context, code string, env Env, tools []Tool, c Caller, lim Limits) (*Result, error) {
	regexpOnce.Do(func() { regexp2.DefaultMatchTimeout = RegexpTimeout })
	e := &engine{ctx: ctx, c: c, lim: lim.effective(), vm: goja.New(), env: env}
	res, err := e.run(code, tools)
	if err != nil {
		err.Logs, err.Calls = e.logs.lines, e.calls
		return nil, err
	}
	return res, nil
}

// engine is one run.
type engine struct {
	ctx   context.Context
	c     Caller
	lim   Limits
	vm    *goja.Runtime
	calls int
	logs  logBuf
	env   Env
}

// stop is the reason given to Interrupt: a bound or a Caller's error.
type stop struct{ err *Error }

// prelude adds what the program's helpers need, in the program's own
// world: find and findAll on a snapshot, and string makers with a bound.
const prelude = `(function(g, maxString){
  function matches(n, q) {
    if (typeof q === "string") q = {name: q};
    for (var k in q) {
      var want = q[k], got = n[k];
      if (want instanceof RegExp) { if (!want.test(got == null ? "" : String(got))) return false; continue; }
      if (k === "name" || k === "text") {
        if (String(got == null ? "" : got).toLowerCase().indexOf(String(want).toLowerCase()) < 0) return false;
        continue;
      }
      if (k === "states") { for (var i = 0; i < want.length; i++) if (n.states.indexOf(want[i]) < 0) return false; continue; }
      if (got !== want) return false;
    }
    return true;
  }
  g.__page = function(p) {
    p.findAll = function(q) { return p.nodes.filter(function(n){ return matches(n, q); }); };
    p.find = function(q) {
      var all = p.findAll(q);
      if (all.length === 0) return null;
      if (typeof q === "object" && q.name && !(q.name instanceof RegExp)) {
        var exact = all.filter(function(n){ return n.name.toLowerCase() === String(q.name).toLowerCase(); });
        if (exact.length) return exact[0];
      }
      return all[0];
    };
    return p;
  };
  function bounded(name) {
    var f = String.prototype[name];
    String.prototype[name] = function() {
      var n = arguments[0];
      var len = name === "repeat" ? this.length * n : n;
      if (len > maxString) throw new RangeError(name + " would make a string of " + len + " characters; the limit is " + maxString);
      return f.apply(this, arguments);
    };
  }
  bounded("repeat"); bounded("padStart"); bounded("padEnd");
  ["ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
   "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "WeakRef", "FinalizationRegistry"]
    .forEach(function(k){ delete g[k]; });
})`

func (e *engine) run(code string, tools []Tool) (*Result, *Error) {
	prog, err := goja.Compile("script.js", "(async function(){\n"+code+"\n})()", true)
	if err != nil {
		return nil, syntaxError(err)
	}
	vm := e.vm
	vm.SetMaxCallStackSize(maxStack)
	if err := e.install(tools); err != nil {
		return nil, &Error{Code: CodeThrown, Message: err.Error()}
	}
	for k, v := range e.env.Globals {
		if err := vm.Set(k, v); err != nil {
			return nil, &Error{Code: CodeThrown, Message: err.Error()}
		}
	}
	if e.env.Prelude != "" {
		if _, err := vm.RunScript("host.js", e.env.Prelude); err != nil {
			return nil, &Error{Code: CodeThrown, Message: "the host's prelude: " + err.Error()}
		}
	}
	stopCtx := context.AfterFunc(e.ctx, func() {
		vm.Interrupt(stop{&Error{Code: CodeTimeout, Message: "the script ran out of time and was stopped: " + context.Cause(e.ctx).Error(), err: e.ctx.Err()}})
	})
	defer stopCtx()
	stopMem := watchMemory(e.lim.MaxMemory, func(grew uint64) {
		vm.Interrupt(stop{&Error{Code: CodeMemory, Message: fmt.Sprintf("the script's memory grew by %d MiB, past its limit of %d MiB, and it was stopped", grew>>20, e.lim.MaxMemory>>20)}})
	})
	defer stopMem()
	v, err := vm.RunProgram(prog)
	if err != nil {
		return nil, e.failure(err)
	}
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		return nil, &Error{Code: CodeThrown, Message: "the script did not run as a function body"}
	}
	switch p.State() {
	case goja.PromiseStateRejected:
		return nil, thrown(p.Result())
	case goja.PromiseStatePending:
		return nil, &Error{Code: CodeThrown, Message: "the script waited on a promise that nothing resolves; page functions answer at once, without await"}
	}
	return e.result(p.Result())
}

// failure turns the error RunProgram returned into the run's.
func (e *engine) failure(err error) *Error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if s, ok := ie.Value().(stop); ok {
			s.err.Line, s.err.Column = position(ie.Stack())
			return s.err
		}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		line, col := position(so.Stack())
		return &Error{Code: CodeThrown, Message: "the script's calls nested too deep (endless recursion?)", Line: line, Column: col}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return thrown(ex.Value())
	}
	return &Error{Code: CodeThrown, Message: err.Error()}
}

// result bounds and encodes the returned value.
func (e *engine) result(v goja.Value) (*Result, *Error) {
	res := &Result{Value: json.RawMessage("null"), Logs: e.logs.lines, Calls: e.calls}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return res, nil
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v.Export())
	b := []byte(strings.TrimSpace(buf.String()))
	if err != nil {
		return nil, &Error{Code: CodeThrown, Message: "the returned value cannot be written as JSON: " + err.Error()}
	}
	if len(b) > e.lim.MaxResultBytes {
		return nil, &Error{Code: CodeOutput, Message: fmt.Sprintf("the returned value is %d bytes as JSON, past the limit of %d: return less (the items you need, not whole pages)", len(b), e.lim.MaxResultBytes)}
	}
	res.Value = b
	return res, nil
}

// thrown is an uncaught exception: its message and where it was thrown.
func thrown(v goja.Value) *Error {
	e := &Error{Code: CodeThrown, Message: "the script threw a value"}
	if v == nil {
		return e
	}
	e.Message = "uncaught " + v.String()
	if o, ok := v.(*goja.Object); ok {
		if c := o.Get("code"); c != nil && !goja.IsUndefined(c) {
			e.Message = "uncaught " + c.String() + ": " + o.Get("message").String()
		}
		if st := o.Get("stack"); st != nil && !goja.IsUndefined(st) {
			e.Line, e.Column = stackPosition(st.String())
		}
	}
	return e
}

// syntaxError reads where the compiler stopped.
func syntaxError(err error) *Error {
	msg := err.Error()
	e := &Error{Code: CodeSyntax, Message: strings.TrimPrefix(strings.TrimPrefix(msg, "SyntaxError: "), "SyntaxError: ")}
	// "script.js: Line 3:9 Unexpected token ..."
	if i := strings.Index(msg, "Line "); i >= 0 {
		var line, col int
		if n, _ := fmt.Sscanf(msg[i:], "Line %d:%d", &line, &col); n == 2 {
			e.Line, e.Column = max(line-1, 1), col
		}
		e.Message = strings.TrimSpace(msg[i:])
		if j := strings.Index(e.Message, " "); j >= 0 {
			if k := strings.Index(e.Message[j+1:], " "); k >= 0 {
				e.Message = strings.TrimSpace(e.Message[j+1+k:])
			}
		}
	}
	return e
}

// position is the program's line and column at the top of a stack.
func position(st []goja.StackFrame) (int, int) {
	for _, f := range st {
		if f.SrcName() != "script.js" {
			continue
		}
		p := f.Position()
		return max(p.Line-1, 0), p.Column
	}
	return 0, 0
}

// stackPosition reads `at ... (script.js:4:7(12))` from an Error's stack.
func stackPosition(stack string) (int, int) {
	i := strings.Index(stack, "script.js:")
	if i < 0 {
		return 0, 0
	}
	var line, col int
	if n, _ := fmt.Sscanf(stack[i+len("script.js:"):], "%d:%d", &line, &col); n < 1 {
		return 0, 0
	}
	return max(line-1, 0), col
}

// logBuf keeps the lines log wrote, within a byte bound.
type logBuf struct {
	lines   []string
	size    int
	dropped int
}

func (l *logBuf) add(s string, limit int) {
	if l.dropped > 0 || l.size+len(s) > limit {
		l.dropped++
		msg := fmt.Sprintf("(%d more lines not kept: the log's limit is %d bytes)", l.dropped, limit)
		if l.dropped == 1 {
			l.lines = append(l.lines, msg)
		} else {
			l.lines[len(l.lines)-1] = msg
		}
		return
	}
	l.size += len(s)
	l.lines = append(l.lines, s)
}
