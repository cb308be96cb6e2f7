package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/script"
	"github.com/webagent/webagent/watchdog"
)

// A custom tool with RunPage (CustomTool) acts on the page through a
// PageCaller: every call it makes is a call of the run, as a script's are
// (the user's policy and its confirmations, the secrets' origins, each
// tool's budget, the trace, a span), recorded under the tool's call.

// PageCaller is what a CustomTool's RunPage acts through.
type PageCaller interface {
	// Call performs one page call (a page tool by name, its arguments as
	// JSON) and returns its outcome. A call refused or failed on the page
	// is a *script.CallError; any other error means the run cannot go on
	// (the browser broke, the iteration's time ran out).
	Call(ctx context.Context, tool string, args json.RawMessage) (string, error)
	// Snapshot returns the page as the model would read it, secrets
	// masked.
	Snapshot(ctx context.Context) (script.Page, error)
	// ChangesData says whether a page call would change data as the
	// presets of --confirm (submits, purchases, deletes) class it, and
	// why; "" when it would not.
	ChangesData(ctx context.Context, tool string, args json.RawMessage) (string, error)
	// AskPerson asks a person a yes or no question, as the policy's
	// confirmations are asked and within the same bound (the human
	// timeout). ErrNoPerson when the run has no one to ask.
	AskPerson(ctx context.Context, question string) (bool, error)
}

// ErrNoPerson is AskPerson's error in a run that has no one to ask (no
// Confirmer, no Human).
var ErrNoPerson = errors.New("no person to ask: the run has no confirmer and no human")

// dataPresets class the calls that change data (PageCaller.ChangesData).
var dataPresets = func() *policy.Policy {
	p, err := policy.Presets("submits", "purchases", "deletes")
	if err != nil {
		panic(err)
	}
	return p
}()

// pageToolRun is the do of a custom tool with RunPage: its calls run as a
// script's, under the script's bound.
func pageToolRun(fn func(context.Context, json.RawMessage, PageCaller) (string, error)) func(context.Context, *run, call, *iterOut) (contract.Outcome, error) {
	return func(ctx context.Context, r *run, c call, out *iterOut) (contract.Outcome, error) {
		h := &scriptHost{r: r, out: out, log: out.scriptLog(), parent: c.id, seen: out.seen, repeats: map[string]repeat{}}
		sctx, cancel := scriptContext(ctx)
		defer cancel()
		text, err := fn(sctx, c.raw, h)
		var be *browserError
		switch {
		case err == nil:
			return contract.Outcome{Text: text, Navigated: h.navigated}, nil
		case ctx.Err() != nil:
			return contract.Outcome{}, context.Cause(ctx)
		case errors.As(err, &be):
			return contract.Outcome{}, be // the browser broke under a call
		}
		return contract.Outcome{}, &contract.ActionError{Msg: err.Error(), Err: err}
	}
}

// ChangesData classes a call by what it aims at on the page now (the
// browser's answer: the element, the form it would submit).
func (h *scriptHost) ChangesData(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	a, _, err := ParseAction(tool, string(args))
	if err != nil {
		return "", err
	}
	act := policy.Action{Tool: a.Name}
	if d, ok := h.r.a.browser.(contract.TargetDescriber); ok && a.Ref != "" {
		t, err := watchdog.Run(ctx, "describing the target of "+tool, describeBudget, func(ctx context.Context) (contract.Target, error) {
			return d.DescribeTarget(ctx, a)
		})
		if err != nil {
			return "", fmt.Errorf("what %s aims at: %w", tool, err)
		}
		act.URL, act.Role, act.Name = t.URL, t.Role, t.Name
		if t.Form != nil {
			act.Form = &policy.Form{Method: t.Form.Method, Action: t.Form.Action}
		}
	}
	if v := dataPresets.Decide(act); v.Decision == policy.Confirm {
		return v.Reason, nil
	}
	return "", nil
}

// AskPerson asks the run's confirmer (or its human) a question.
func (h *scriptHost) AskPerson(ctx context.Context, question string) (bool, error) {
	r := h.r
	cf := r.confirmer()
	if cf == nil {
		return false, ErrNoPerson
	}
	q := Confirmation{Question: r.sec.Mask(question), Reason: "a routine's step no longer fits the page"}
	return watchdog.Run(ctx, "waiting for the person's yes", r.a.cfg.lim.HumanTimeout, func(ctx context.Context) (bool, error) {
		return cf.Confirm(ctx, q)
	})
}
