// Package replay runs the actions of a trace (package trace) again against
// the live site, with no model: a successful run becomes a regression test.
//
// Each recorded action names elements by the refs of the snapshot the model
// saw then. Replay reads that snapshot to learn what each element was (its
// role, its name, the text it stood near, which of several equal ones it
// was) and finds that element again in a fresh snapshot of the page, so it
// does not depend on refs, which change from one page load to the next.
// Secrets, recorded as <secret>NAME</secret> placeholders, are supplied
// again by the caller. A step that cannot be replayed stops the replay with
// a *StepError naming the step and what it looked for.
package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/trace"
)

// DefaultActionTimeout bounds one replayed action (and its snapshot).
const DefaultActionTimeout = 30 * time.Second

// Options configure a replay.
type Options struct {
	// BaseURL, when set, replaces the origin of every recorded URL on the
	// recorded start URL's origin (a staging site).
	BaseURL string
	// Secrets are the values of the trace's secrets, by name (NAME or
	// NAME@ORIGIN, as agent.Task.Secrets).
	Secrets map[string]string
	// Progress, if set, receives one line per replayed action.
	Progress io.Writer
	// ActionTimeout bounds one action (DefaultActionTimeout if 0).
	ActionTimeout time.Duration
	// Healer, when set, is asked about a step whose element cannot be
	// found (a button renamed, a field moved): given the step's recorded
	// intent and the page now, it names the element that plays the
	// recorded one's part, and the replay goes on (see heal.go). Any
	// agent.Model will do; one call per healed step, bounded by
	// HealTimeout.
	Healer contract.Model
	// HealTimeout bounds one question to the Healer (DefaultHealTimeout
	// if 0).
	HealTimeout time.Duration
	// Tracer, when set, records the replay as a trace of its own
	// (package trace's Writer): one iteration per replayed action, with
	// the page it acted on and its arguments as run, so that a healed
	// replay is a recording that replays. The caller ends it.
	Tracer agent.Tracer
	// Control, when set, lets a person take the browser between two
	// replayed actions (a live view's lease): each action waits while a
	// person holds control, and runs only once they hand back.
	Control agent.Control
}

// Result is a replay that reached the end of the trace.
type Result struct {
	Actions int    // actions replayed
	Skipped int    // recorded actions not replayed (failed or skipped then, or not browser actions)
	Answer  string // the recorded answer
	Code    agent.Code
	// Healed lists the steps the Healer repaired, in order; ModelCalls
	// counts the questions asked to it.
	Healed     []Heal
	ModelCalls int
}

// Heal is a step that could not find its element and what the Healer made
// of it.
type Heal struct {
	Iteration int    // the recorded step
	Tool      string // its tool
	Looked    string // the element it looked for: button "Sign in"
	Why       string // why it was not found
	Became    string // what ran instead: click button "Log in"
}

func (h Heal) String() string {
	return fmt.Sprintf("step %d (%s %s) healed: %s", h.Iteration, h.Tool, h.Looked, h.Became)
}

// StepError is a step that could not be replayed.
type StepError struct {
	Iteration int
	Tool      string
	// Looked is what replay looked for: the element (`button "Sign in"`)
	// or the action.
	Looked string
	Err    error
}

func (e *StepError) Error() string {
	return fmt.Sprintf("step %d (%s %s) cannot be replayed: %v", e.Iteration, e.Tool, e.Looked, e.Err)
}

func (e *StepError) Unwrap() error { return e.Err }

var secretRef = regexp.MustCompile(`<secret>([A-Za-z0-9_.-]+)</secret>`)

// replayer is one Run.
type replayer struct {
	b       contract.Browser
	t       *trace.Trace
	opts    Options
	rb      rebase
	secrets map[string]string
	origins map[string][]string
	mask    *secret.Masker
	res     *Result
	iter    int // iterations recorded on opts.Tracer
}

// Run replays t in b. It returns a *StepError at the first action that
// cannot be replayed; any other error means the browser failed.
func Run(ctx context.Context, b contract.Browser, t *trace.Trace, opts Options) (*Result, error) {
	if opts.ActionTimeout <= 0 {
		opts.ActionTimeout = DefaultActionTimeout
	}
	if opts.HealTimeout <= 0 {
		opts.HealTimeout = DefaultHealTimeout
	}
	rb, err := newRebase(t.Header.URL, opts.BaseURL)
	if err != nil {
		return nil, err
	}
	secrets, origins, err := secretValues(opts.Secrets, rb.url(t.Header.URL))
	if err != nil {
		return nil, err
	}
	r := &replayer{b: b, t: t, opts: opts, rb: rb, secrets: secrets, origins: origins,
		mask: secret.NewMasker(opts.Secrets), res: &Result{Code: agent.CodeSuccess}}
	if t.End != nil {
		r.res.Answer, r.res.Code = t.End.Result.Answer, t.End.Result.Code
	}
	if start := rb.url(t.Header.URL); start != "" {
		if err := do(ctx, b, opts.ActionTimeout, contract.Action{Name: contract.ActGoto, URL: start}); err != nil {
			return nil, &StepError{Iteration: 0, Tool: "goto", Looked: start, Err: err}
		}
		r.say("start  goto %s", start)
	}
	for _, st := range t.Steps {
		for _, rec := range st.Step.Actions {
			release, err := r.act(ctx)
			if err != nil {
				return r.res, err
			}
			err = r.action(ctx, st, rec)
			release()
			if err != nil {
				return r.res, err
			}
		}
	}
	return r.res, r.recordEnd(ctx)
}

// act waits, with Options.Control, until no person holds the browser, and
// returns the release of the action that follows.
func (r *replayer) act(ctx context.Context) (func(), error) {
	if r.opts.Control == nil {
		return func() {}, nil
	}
	release, hb, err := r.opts.Control.Act(ctx)
	if err != nil {
		return nil, err
	}
	if hb != nil {
		r.say("a person had the browser for %s; the replay goes on", hb.Held.Round(time.Second))
	}
	return release, nil
}

func (r *replayer) say(format string, args ...any) {
	if r.opts.Progress != nil {
		fmt.Fprintf(r.opts.Progress, format+"\n", args...)
	}
}

// action replays one recorded action of step st.
func (r *replayer) action(ctx context.Context, st trace.StepEvent, rec agent.ActionRecord) error {
	if rec.Tool == agent.ToolDone {
		var a struct{ Answer string }
		_ = json.Unmarshal(rec.Args, &a)
		if r.res.Answer == "" {
			r.res.Answer = a.Answer
		}
	}
	if rec.Skipped || rec.Error {
		r.res.Skipped++
		return nil
	}
	switch rec.Tool {
	case agent.ToolDone, agent.ToolFail, agent.ToolAskHuman, agent.ToolScreenshot:
		r.res.Skipped++ // not page actions
		return nil
	case agent.ToolScript:
		return r.script(ctx, st, rec)
	}
	if slices.ContainsFunc(rec.Calls, func(c agent.ActionRecord) bool { return c.Native }) {
		for _, n := range rec.Calls { // a vendor's call: its actions
			if err := r.native(ctx, st, n); err != nil {
				return err
			}
		}
		return nil
	}
	a, _, err := agent.ParseRecordedAction(rec.Tool, argsText(rec.Args))
	if err != nil {
		return &StepError{Iteration: st.Iteration, Tool: rec.Tool, Looked: string(rec.Args), Err: fmt.Errorf("the recorded arguments do not read: %w", err)}
	}
	looked, snap, err := retarget(ctx, r.b, r.t, st.Iteration, &a, r.rb, r.opts.ActionTimeout)
	call := contract.ToolCall{Name: rec.Tool, Arguments: argsText(rec.Args)}
	var nf *notFound
	healed := false
	if errors.As(err, &nf) && r.opts.Healer != nil {
		looked, err = r.heal(ctx, st, &a, &call, looked, nf, snap)
		healed = err == nil
	}
	if err == nil && snap == nil && r.opts.Tracer != nil {
		snap, err = observe(ctx, r.b, r.opts.ActionTimeout) // the page it acts on, for the recording
	}
	if err != nil {
		return &StepError{Iteration: st.Iteration, Tool: rec.Tool, Looked: looked, Err: err}
	}
	call.Arguments = withTargets(call.Arguments, a)
	if err := fillSecrets(&a, r.secrets, r.origins); err != nil {
		return &StepError{Iteration: st.Iteration, Tool: rec.Tool, Looked: looked, Err: err}
	}
	t0 := time.Now()
	if err := do(ctx, r.b, r.opts.ActionTimeout, a); err != nil {
		return &StepError{Iteration: st.Iteration, Tool: rec.Tool, Looked: looked, Err: err}
	}
	r.res.Actions++
	r.say("step %d  %s %s", st.Iteration, rec.Tool, looked)
	r.record(ctx, snap, call, healed, t0)
	return nil
}

// do runs one action under its bound. A browser failure (not an
// *contract.ActionError) is returned as it is.
func do(ctx context.Context, b contract.Browser, d time.Duration, a contract.Action) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	_, err := b.Do(ctx, a)
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("no answer within %s: %w", d, err)
	}
	return err
}

// argsText is the recorded arguments as the JSON text the tool parser reads.
func argsText(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s // arguments that were not JSON, recorded as a string
	}
	return string(raw)
}

// retarget replaces the action's refs by the refs of the same elements in
// the page now, and rebases its URL. It returns what it looked for, and
// the snapshot it read (nil when the action names no element). An element
// not on the page is a *notFound.
func retarget(ctx context.Context, b contract.Browser, t *trace.Trace, iter int, a *contract.Action, rb rebase, d time.Duration) (string, *contract.Snapshot, error) {
	if a.URL != "" {
		a.URL = rb.url(a.URL)
	}
	if a.Ref == "" && a.ToRef == "" {
		return describe(a), nil, nil
	}
	m := t.Model(iter)
	if m == nil {
		return describe(a), nil, fmt.Errorf("the trace has no snapshot for step %d", iter)
	}
	old := outline.Parse(m.Whole())
	snap, err := observe(ctx, b, d)
	if err != nil {
		return describe(a), nil, err
	}
	now := outline.Parse(snap.Text)
	var looked []string
	for _, ref := range []*string{&a.Ref, &a.ToRef} {
		if *ref == "" {
			continue
		}
		want, err := outline.Recall(old, *ref)
		if err != nil {
			return *ref, snap, err
		}
		looked = append(looked, want.String())
		got, err := want.Find(now, old)
		if err != nil {
			return strings.Join(looked, " → "), snap, &notFound{want: want, err: err}
		}
		*ref = got
	}
	return strings.Join(looked, " → "), snap, nil
}

// notFound is a recorded element the page now does not have.
type notFound struct {
	want outline.Recorded
	err  error
}

func (e *notFound) Error() string { return e.err.Error() }
func (e *notFound) Unwrap() error { return e.err }

// observe takes a snapshot under its bound.
func observe(ctx context.Context, b contract.Browser, d time.Duration) (*contract.Snapshot, error) {
	sctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	snap, err := b.Snapshot(sctx)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return &snap, nil
}

// describe is an action without refs, for messages.
func describe(a *contract.Action) string {
	switch {
	case a.URL != "":
		return a.URL
	case a.Key != "":
		return a.Key
	case a.Direction != "":
		return a.Direction
	case a.Text != "":
		return fmt.Sprintf("%q", a.Text)
	}
	return a.Name
}

// rebase moves recorded URLs on the recorded start origin to another base.
type rebase struct{ from, to *url.URL }

func newRebase(start, base string) (rebase, error) {
	if base == "" {
		return rebase{}, nil
	}
	to, err := url.Parse(base)
	if err != nil || (to.Scheme != "http" && to.Scheme != "https") || to.Host == "" {
		return rebase{}, fmt.Errorf("--url %q is not an http or https URL; write e.g. https://staging.example.com", base)
	}
	from, err := url.Parse(start)
	if err != nil || from.Host == "" {
		return rebase{}, fmt.Errorf("the trace's start URL %q cannot be rebased", start)
	}
	return rebase{from: from, to: to}, nil
}

func (r rebase) url(raw string) string {
	if r.to == nil || raw == "" {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != r.from.Scheme || u.Host != r.from.Host {
		return raw
	}
	u.Scheme, u.Host = r.to.Scheme, r.to.Host
	if p := strings.TrimSuffix(r.to.Path, "/"); p != "" {
		u.Path = p + u.Path
	}
	return u.String()
}

// secretValues reads the secrets by name, with the origins each may be
// typed on (the start URL's unless bound).
func secretValues(m map[string]string, start string) (map[string]string, map[string][]string, error) {
	vals, origins := map[string]string{}, map[string][]string{}
	startOrigin := ""
	if u, err := url.Parse(start); err == nil && u.Host != "" {
		startOrigin = u.Scheme + "://" + u.Host
	}
	for k, v := range m {
		name, origin, err := secret.ParseKey(k)
		if err != nil {
			return nil, nil, err
		}
		if origin == "" {
			origin = startOrigin
		}
		vals[name] = v
		if origin != "" {
			origins[name] = append(origins[name], origin)
		}
	}
	return vals, origins, nil
}

// fillSecrets puts the secrets' values in place of their placeholders in a
// type action, bound to their origins as the loop binds them.
func fillSecrets(a *contract.Action, vals map[string]string, origins map[string][]string) error {
	if a.Name == contract.ActPageTool {
		return fillArguments(a, vals, origins)
	}
	refs := secretRef.FindAllStringSubmatch(a.Text, -1)
	if len(refs) == 0 {
		return nil
	}
	if a.Name != contract.ActType {
		return errors.New("a secret placeholder outside a type action")
	}
	for _, r := range refs {
		v, ok := vals[r[1]]
		if !ok {
			return fmt.Errorf("it types the secret %s: pass it again with --secret %s=VALUE", r[1], r[1])
		}
		if secret.IsOTP(v) {
			o, err := secret.ParseOTP(v)
			if err != nil {
				return fmt.Errorf("the secret %s: %w", r[1], err)
			}
			v = o.Now() // the code valid now, not the one the run typed
		}
		a.Text = strings.ReplaceAll(a.Text, r[0], v)
		a.SecretNames = append(a.SecretNames, r[1])
		a.Origins = append(a.Origins, origins[r[1]]...)
	}
	return nil
}

// fillArguments fills the placeholders in a page tool call's string
// arguments, as fillSecrets does a type action's text; the browser gives
// them only to a tool of the secrets' origins.
func fillArguments(a *contract.Action, vals map[string]string, origins map[string][]string) error {
	var v any
	if len(a.Arguments) == 0 || json.Unmarshal(a.Arguments, &v) != nil {
		return nil
	}
	var fill func(v any) (any, error)
	fill = func(v any) (any, error) {
		switch x := v.(type) {
		case string:
			t := contract.Action{Name: contract.ActType, Text: x}
			if err := fillSecrets(&t, vals, origins); err != nil {
				return nil, err
			}
			a.SecretNames = append(a.SecretNames, t.SecretNames...)
			a.Origins = append(a.Origins, t.Origins...)
			return t.Text, nil
		case []any:
			for i := range x {
				var err error
				if x[i], err = fill(x[i]); err != nil {
					return nil, err
				}
			}
		case map[string]any:
			for k := range x {
				var err error
				if x[k], err = fill(x[k]); err != nil {
					return nil, err
				}
			}
		}
		return v, nil
	}
	filled, err := fill(v)
	if err != nil || len(a.SecretNames) == 0 {
		return err
	}
	a.Arguments, err = json.Marshal(filled)
	return err
}
