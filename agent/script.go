package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/script"
	"github.com/webagent/webagent/watchdog"
)

// Code mode: the script tool runs a small program (package script) whose
// every page call is a call of the run, made as the model's own are
// (run.execute: the policy and its confirmations, the secrets' origins,
// each tool's budget, the recording's expectations), recorded as an
// ActionRecord under the script's (ActionRecord.Calls), a span under the
// script's span, and checked for repetition on an unchanged page.

// ToolScript is the script tool's name.
const ToolScript = "script"

// ScriptBudget bounds one script call; within an iteration it ends
// scriptReserve before the iteration's own bound, so that a script that
// runs too long is a failed call the model can fix, not the end of the
// task.
const ScriptBudget = 110 * time.Second

// scriptReserve is the part of the iteration a script leaves for the
// iteration to finish in (a quarter of what is left, when that is less).
const scriptReserve = 2 * time.Second

// scriptRepeats is how many times a script may make the same call on an
// unchanged page with the same outcome before it is stopped as stuck.
const scriptRepeats = 3

// WithScripts offers the model the script tool (the default) or not.
func WithScripts(on bool) Option { return func(c *config) { c.noScripts = !on } }

// WithScriptLimits sets the bounds of one script (calls, bytes, memory);
// zero fields take package script's defaults.
func WithScriptLimits(l script.Limits) Option { return func(c *config) { c.scriptLimits = l } }

// scriptHelp is the script tool's description: when it pays, and the
// functions a program has, from the table.
func scriptHelp() string {
	var sigs []string
	for _, t := range scriptFuncs {
		sigs = append(sigs, script.Signature(t))
	}
	return "Run a small JavaScript program (the body of a function; `return` gives the result) that does many page steps in one call: " +
		"worth it for repetition (each result page of a list, each item to check), pagination, filling many fields, collecting a list or a table. " +
		"For one or two steps, call the tools directly. Page functions answer at once (no await needed) and return their outcome text; " +
		"a failed call throws an Error (e.code, e.message) you may catch. snapshot() returns {url, title, text, nodes, find(q), findAll(q)}: " +
		"nodes are {role, name, value, states, ref, box, depth, text}; find({role: \"link\", name: \"Next\"}) gives the first match (name: contains, any case; or a RegExp) or null. " +
		"Take a new snapshot after a navigation: refs are the page's. log(...) keeps notes. Only what you return (JSON, keep it small) and the log come back to you. " +
		"No network, files or timers; every call runs under the same rules, limits and confirmations as your own calls. Functions: " +
		strings.Join(sigs, ", ") + ", snapshot(), log(...), call(tool, {args}). " +
		`Example: var out = []; for (;;) { var s = snapshot(); s.findAll({role: "link", name: /mug/i}).forEach(function (n) { out.push(n.name) }); ` +
		`var next = s.find({role: "link", name: "Next"}); if (!next) break; click(next.ref) } return out;`
}

// scriptRule is the system prompt's line on scripts, when they are offered.
func scriptRule(on bool) string {
	if !on {
		return ""
	}
	return "\n- When a step repeats (every result page, every row or item to check, many form fields, a list or table to collect), " +
		"write one script call that loops and returns only what you need, instead of one call per step; for one or two steps, call the tools directly."
}

// ScriptTools are the page tools a script may call, from the tool table:
// every page tool but the script itself and wait (a program does not sleep;
// it waits for something with waitFor).
func ScriptTools() []script.Tool {
	var out []script.Tool
	for _, pt := range PageTools() {
		if pt.Def.Name == ToolScript || pt.Def.Name == contract.ActWait {
			continue
		}
		t := script.Tool{Name: pt.Def.Name}
		for _, p := range pt.Params {
			t.Params = append(t.Params, script.Param{Name: p.Name, Type: p.Type, Required: p.Required})
		}
		out = append(out, t)
	}
	return out
}

// scriptFuncs are ScriptTools, made once (init: the table holds the
// script tool, whose call needs them).
var scriptFuncs []script.Tool

// runScript is the script tool's call.
func runScript(ctx context.Context, r *run, c call, out *iterOut) (contract.Outcome, error) {
	log := out.scriptLog()
	h := &scriptHost{r: r, out: out, log: log, parent: c.id, seen: out.seen, expect: out.rec.inner[c.id], repeats: map[string]repeat{}}
	sctx, cancel := scriptContext(ctx)
	defer cancel()

	res, err := script.Run(sctx, c.args.Code, scriptFuncs, h, r.a.cfg.scriptLimits)
	var se *script.Error
	switch {
	case err == nil:
		return contract.Outcome{Text: scriptResult(res.Value, res.Logs, res.Calls), Navigated: h.navigated}, nil
	case ctx.Err() != nil:
		return contract.Outcome{}, context.Cause(ctx)
	case errors.As(err, &se) && se.Unwrap() != nil && !errors.Is(se.Unwrap(), context.DeadlineExceeded) && !scriptEnd(se.Unwrap()):
		// The browser broke under a call: the iteration ends as for a
		// call of the model's own.
		return contract.Outcome{}, se.Unwrap()
	case errors.As(err, &se):
		return contract.Outcome{}, &contract.ActionError{Msg: scriptFailure(se)}
	default:
		return contract.Outcome{}, err
	}
}

// scriptContext ends a script scriptReserve before its context does, so
// that its end is its own (SCRIPT_TIMEOUT), reported to the model.
func scriptContext(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	reserve := min(scriptReserve, time.Until(dl)/4)
	return context.WithDeadlineCause(ctx, dl.Add(-reserve), errors.New("the script's time (within the iteration's bound) ran out"))
}

// scriptResult is a finished script's result as the model reads it.
func scriptResult(v json.RawMessage, logs []string, calls int) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // <secret>NAME</secret> stays readable
	_ = enc.Encode(map[string]any{"result": v, "log": logs, "calls": calls})
	return strings.TrimSpace(b.String())
}

// scriptFailure is a failed script's message: its code, where, why, and
// what it did before.
func scriptFailure(se *script.Error) string {
	msg := se.Error()
	if se.Calls > 0 {
		msg += fmt.Sprintf(" (after %d page calls, each recorded: take a snapshot to see the page now)", se.Calls)
	}
	if len(se.Logs) > 0 {
		msg += "; its log: " + strings.Join(se.Logs, " | ")
	}
	return msg
}

// scriptLog collects a script's calls for its ActionRecord; an abandoned
// script may still write while the loop reads, hence the lock.
type scriptLog struct {
	mu    sync.Mutex
	calls []ActionRecord
}

func (l *scriptLog) add(a ActionRecord) {
	l.mu.Lock()
	l.calls = append(l.calls, a)
	l.mu.Unlock()
}

func (l *scriptLog) take() []ActionRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.calls
	l.calls = nil
	return c
}

func (out *iterOut) scriptLog() *scriptLog {
	if out.script == nil {
		out.script = &scriptLog{}
	}
	return out.script
}

// scriptHost carries out a script's page calls as calls of the run.
type scriptHost struct {
	r       *run
	out     *iterOut
	log     *scriptLog
	parent  string
	n       int
	seen    string // the latest snapshot's text: the model's, then the script's
	expect  []*contract.Target
	repeats map[string]repeat
	// navigated is set once a call of the script navigated: the page the
	// model saw is gone, and the reply's later calls are not run.
	navigated bool
}

// stuckError ends a script that repeats itself on an unchanged page.
type stuckError struct{ msg string }

func (e *stuckError) Error() string { return e.msg }

// scriptEnd reports whether err ended a script as the loop's own rule (a
// repetition, a replay that no longer fits), not a broken browser.
func scriptEnd(err error) bool {
	var s *stuckError
	var d *divergence
	return errors.As(err, &s) || errors.As(err, &d)
}

// divergence ends a replayed script whose call is not the recorded one.
type divergence struct{ msg string }

func (e *divergence) Error() string { return e.msg }

// Call runs one of the script's page calls (script.Caller).
func (h *scriptHost) Call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	r := h.r
	h.n++
	tc := contract.ToolCall{ID: fmt.Sprintf("%s.%d", h.parent, h.n), Name: tool, Arguments: string(args)}
	rec := ActionRecord{Tool: tool, Args: safeArgs(tc.Arguments, r.sec)}
	if el := h.element(args); el != nil {
		rec.Element = el
	}
	var expect *contract.Target
	if h.expect != nil {
		k := h.n - 1
		if k >= len(h.expect) {
			return "", &divergence{fmt.Sprintf("the replayed script's call %d (%s) was not in the recording", h.n, tool)}
		}
		expect = h.expect[k]
	}
	t0 := time.Now()
	state := r.pageState(ctx)
	h.out.seen = h.seen
	res, err := r.traced(ctx, tc, h.out, expect)
	rec.MS = ms(time.Since(t0))
	if err != nil {
		return "", err
	}
	rec.Outcome, rec.Error, rec.Policy = r.sec.Mask(res.text), res.failed, res.policy
	h.log.add(rec)
	if res.navigated {
		h.seen, h.navigated = "", true
	}
	switch {
	case res.terminal:
		return "", &stuckError{"the task ended during the script: " + res.text}
	case expect != nil && res.failed && strings.HasPrefix(res.text, "not run: the replayed"):
		return "", &divergence{rec.Outcome}
	case res.failed:
		return "", &script.CallError{Code: failCode(res), Msg: strings.TrimPrefix(rec.Outcome, "error: ")}
	}
	key := state + "\x00" + tool + "\x00" + string(rec.Args)
	rp := h.repeats[key]
	if state != "" && rp.count > 0 && rp.outcome == rec.Outcome {
		rp.count++
	} else {
		rp = repeat{count: 1, outcome: rec.Outcome}
	}
	h.repeats[key] = rp
	if rp.count >= scriptRepeats {
		return "", &stuckError{fmt.Sprintf("stuck: the script made %s %s %d times on an unchanged page with the same outcome", tool, rec.Args, rp.count)}
	}
	return rec.Outcome, nil
}

// failCode is the code a failed call throws with in a script.
func failCode(o outcome) string {
	switch {
	case o.stale:
		return "STALE_REF"
	case o.policy != nil && !o.policy.Allowed:
		return "REFUSED"
	case strings.Contains(o.text, `"error":"`+OperationTimeout+`"`):
		return OperationTimeout
	}
	return "ACTION_FAILED"
}

// element is what a call's ref names in the latest snapshot the script or
// the model saw: its role and name, which a replay looks for.
func (h *scriptHost) element(args json.RawMessage) *Element {
	var a struct{ Ref string }
	if json.Unmarshal(args, &a) != nil || a.Ref == "" || h.seen == "" {
		return nil
	}
	for _, l := range outline.Parse(h.seen) {
		if l.Ref == a.Ref && l.Role != "" {
			return &Element{Role: l.Role, Name: h.r.sec.Mask(l.Name)} // it goes to the trace
		}
	}
	return nil
}

// Snapshot is snapshot() in a script: the page as the model would read it,
// secret values masked.
func (h *scriptHost) Snapshot(ctx context.Context) (script.Page, error) {
	r := h.r
	snap, err := watchdog.Run(ctx, "snapshot", scriptSnapshotBudget, r.a.browser.Snapshot)
	var te *watchdog.TimeoutError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return script.Page{}, err
	case errors.As(err, &te):
		return script.Page{}, &script.CallError{Code: OperationTimeout, Msg: r.operationTimeout(ctx, "snapshot", te.Budget)}
	default:
		return script.Page{}, &browserError{fmt.Errorf("snapshot: %w", err)}
	}
	text := r.sec.Mask(snap.Text)
	h.seen = snap.Text
	h.out.url, h.out.tools = snap.URL, snap.PageTools
	h.log.add(ActionRecord{Tool: "snapshot", Outcome: fmt.Sprintf("%s (%d lines)", r.sec.Mask(snap.URL), strings.Count(text, "\n")+1)})
	return script.Page{URL: r.sec.Mask(snap.URL), Title: r.sec.Mask(snap.Title), Text: text}, nil
}

// scriptSnapshotBudget bounds a script's snapshot.
const scriptSnapshotBudget = 10 * time.Second
