package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/watchdog"
)

// The user's action policy (package policy): before a page action runs,
// the loop asks the browser what it aims at, decides it under the policy,
// and, for a rule that says confirm, asks a person. A refused action never
// reaches the page; the model is told, and the decision recorded.

// RefusedByPolicy is the error code of the tool result the model receives
// for an action the user's policy refused, or that a person did not allow.
const RefusedByPolicy = "REFUSED_BY_POLICY"

// describeBudget bounds the question to the browser of what an action aims
// at.
const describeBudget = 10 * time.Second

// WithPolicy checks every page action against p before it runs: the first
// rule that matches decides (allow, deny, or confirm: ask a person, see
// WithConfirmer). A nil p allows everything, as without the option. Rules on
// the element or the form need a browser that implements TargetDescriber
// (package browser does).
func WithPolicy(p *policy.Policy) Option { return func(c *config) { c.policy = p } }

// WithConfirmer sets who answers the policy's confirm rules. Without one,
// the Human of WithHuman is asked (an answer yes, y, allow or ok is a yes);
// without either, the answer is no. Each wait is bounded by the human
// timeout (WithHuman, WithHumanTimeout): no answer by then is a no.
func WithConfirmer(c Confirmer) Option { return func(cfg *config) { cfg.confirmer = c } }

// Confirmer answers whether an action the policy wants confirmed may run.
// Confirm must return once ctx is done; the loop bounds the wait.
type Confirmer interface {
	Confirm(ctx context.Context, c Confirmation) (bool, error)
}

// ConfirmerFunc adapts a function to the Confirmer interface.
type ConfirmerFunc func(ctx context.Context, c Confirmation) (bool, error)

// Confirm calls f(ctx, c).
func (f ConfirmerFunc) Confirm(ctx context.Context, c Confirmation) (bool, error) { return f(ctx, c) }

// Confirmation is an action waiting for a person's yes.
type Confirmation struct {
	Tool string // the model's tool: click, type, press, ...
	// Target is the element as the snapshot names it (button "Place
	// order"); empty when the action aims at none.
	Target string
	URL    string         // the page's URL
	Form   *contract.Form // the form it would submit, if any
	// Rule is the rule that asks (policy.yaml:4, --confirm purchases),
	// Reason its reason.
	Rule, Reason string
	// Question is all of it in one line, for a person:
	// click button "Place order" on shop.example (form POST
	// https://shop.example/order) — allow? yes/no
	Question string
}

// IsYes reports whether a person's answer is a yes: yes, y, allow or ok,
// in any case. Anything else is a no.
func IsYes(answer string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(answer), ".!")) {
	case "yes", "y", "allow", "ok", "okay":
		return true
	}
	return false
}

// PolicyDecision records an action a rule of the user's policy decided:
// in Result.Policy, and in the action's record (ActionRecord.Policy).
type PolicyDecision struct {
	Iteration int            `json:"iteration,omitempty"`
	Tool      string         `json:"tool"`
	Target    string         `json:"target,omitempty"` // button "Place order"
	Site      string         `json:"site,omitempty"`   // the page's host
	Form      *contract.Form `json:"form,omitempty"`
	Rule      string         `json:"rule"`     // policy.yaml:4, --confirm purchases
	Decision  string         `json:"decision"` // allow, deny, confirm
	Reason    string         `json:"reason,omitempty"`
	// Answer is, for confirm, what came back: yes, no, or why there was
	// none (no one to ask, no answer within the human timeout).
	Answer string `json:"answer,omitempty"`
	// Allowed says whether the action ran.
	Allowed bool `json:"allowed"`
}

// checkPolicy decides a page call under the user's policy. It returns the
// decision to record (nil when no rule matched) and, when the call must
// not run, the outcome the model gets instead. Its error, like execute's,
// ends the iteration.
func (r *run) checkPolicy(ctx context.Context, c call, out *iterOut) (*PolicyDecision, *outcome, error) {
	p := r.policy
	act := policy.Action{Tool: c.action.Name, URL: out.url}
	if c.action.Name == contract.ActPageTool {
		// A page tool is judged as its page offers it: its name, the
		// site of the document that offers it, its read-only hint.
		act.Role, act.Name = "page tool", c.action.Tool
		if i := slices.IndexFunc(out.tools, func(t contract.PageTool) bool { return t.Name == c.action.Tool }); i >= 0 {
			act.URL, act.ReadOnly = out.tools[i].Origin+"/", out.tools[i].ReadOnly
		}
	} else if d, ok := r.a.browser.(contract.TargetDescriber); ok && (p.Needs(act.Tool) || c.action.At != nil && p.NeedsSite(act.Tool)) {
		t, refused, err := r.describeTarget(ctx, d, c)
		if refused != nil || err != nil {
			return nil, refused, err
		}
		if t.URL != "" {
			act.URL = t.URL
		}
		act.Role, act.Name = t.Role, t.Name
		if t.Form != nil {
			act.Form = &policy.Form{Method: t.Form.Method, Action: t.Form.Action}
		}
	}
	v := p.Decide(act)
	if v.Rule == "" {
		return nil, nil, nil
	}
	pd := &PolicyDecision{Tool: act.Tool, Site: r.sec.Mask(policy.Host(act.URL)), Rule: v.Rule, Decision: string(v.Decision), Reason: v.Reason}
	if act.Role != "" {
		pd.Target = r.sec.Mask(strings.TrimSpace(act.Role + " " + quoteName(act.Name)))
	}
	if c.action.Name == contract.ActPageTool && len(c.action.Arguments) > 0 {
		pd.Target = r.sec.Mask(pd.Target + " with " + string(c.action.Arguments))
	}
	if act.Form != nil {
		pd.Form = &contract.Form{Method: act.Form.Method, Action: r.sec.Mask(act.Form.Action)}
	}
	switch v.Decision {
	case policy.Allow:
		pd.Allowed = true
		return pd, nil, nil
	case policy.Confirm:
		pd.Allowed, pd.Answer = r.confirm(ctx, pd, act.URL)
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if pd.Allowed {
			return pd, nil, nil
		}
	}
	return pd, refusal(pd), nil
}

// describeTarget asks the browser what the call aims at, under its own
// bound. A call the browser could not describe is not run: the model gets
// the browser's answer (an unknown ref, as the action would say) or is told
// to try again.
func (r *run) describeTarget(ctx context.Context, d contract.TargetDescriber, c call) (contract.Target, *outcome, error) {
	t, err := watchdog.Run(ctx, "describing the target of "+c.tool.name, describeBudget, func(ctx context.Context) (contract.Target, error) {
		return d.DescribeTarget(ctx, c.action)
	})
	var te *watchdog.TimeoutError
	var ae *contract.ActionError
	switch {
	case err == nil:
		return t, nil, nil
	case ctx.Err() != nil:
		return contract.Target{}, nil, err
	case errors.As(err, &ae):
		return contract.Target{}, &outcome{text: "error: " + ae.Msg, failed: true, stale: errors.Is(err, contract.ErrStaleRef)}, nil
	case errors.As(err, &te):
		return contract.Target{}, &outcome{failed: true, text: fmt.Sprintf("error: %s was not run: the user's policy needs to know what it aims at, "+
			"and the page did not tell within %d ms; take a new snapshot and try again", c.tool.name, te.Budget.Milliseconds())}, nil
	default:
		return contract.Target{}, nil, &browserError{fmt.Errorf("%s: describing its target: %w", c.tool.name, err)}
	}
}

// confirm asks whether the call may run, within the human timeout; it
// returns the answer and how it is recorded.
func (r *run) confirm(ctx context.Context, pd *PolicyDecision, url string) (bool, string) {
	cf := r.confirmer()
	if cf == nil {
		return false, "no: no one to ask (the user's policy wants a person's yes)"
	}
	q := Confirmation{Tool: pd.Tool, Target: pd.Target, URL: r.sec.Mask(url), Form: pd.Form, Rule: pd.Rule, Reason: pd.Reason}
	q.Question = confirmQuestion(pd)
	bound := r.a.cfg.lim.HumanTimeout
	yes, err := watchdog.Run(ctx, "waiting for the person's yes", bound, func(ctx context.Context) (bool, error) { return cf.Confirm(ctx, q) })
	var te *watchdog.TimeoutError
	switch {
	case errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return false, fmt.Sprintf("no: no answer within %s", bound)
	case err != nil:
		return false, fmt.Sprintf("no: the person could not answer: %v", err)
	case yes:
		return true, "yes"
	}
	return false, "no"
}

// confirmer is who answers a confirmation: the Confirmer, else the Human
// (a yes is IsYes), else nil: no one.
func (r *run) confirmer() Confirmer {
	if cf := r.a.cfg.confirmer; cf != nil {
		return cf
	}
	h := r.a.cfg.human
	if h == nil {
		return nil
	}
	return ConfirmerFunc(func(ctx context.Context, c Confirmation) (bool, error) {
		ans, err := h.Ask(ctx, c.Question)
		return IsYes(ans), err
	})
}

// confirmQuestion is the one line a person is asked.
func confirmQuestion(pd *PolicyDecision) string {
	var b strings.Builder
	b.WriteString(pd.Tool)
	if pd.Target != "" {
		b.WriteString(" " + pd.Target)
	}
	if pd.Site != "" {
		b.WriteString(" on " + pd.Site)
	}
	if pd.Form != nil {
		fmt.Fprintf(&b, " (form %s %s)", strings.ToUpper(pd.Form.Method), pd.Form.Action)
	}
	if pd.Reason != "" {
		fmt.Fprintf(&b, " [%s: %s]", pd.Rule, pd.Reason)
	} else {
		fmt.Fprintf(&b, " [%s]", pd.Rule)
	}
	b.WriteString(" — allow? yes/no")
	return b.String()
}

// refusal is the tool result of a refused call: why, and not to get around
// it.
func refusal(pd *PolicyDecision) *outcome {
	what := pd.Tool
	if pd.Target != "" {
		what += " " + pd.Target
	}
	why := pd.Reason
	switch {
	case pd.Decision == string(policy.Confirm) && why != "":
		why = fmt.Sprintf("%s needs the user's yes (%s) and got %s", what, why, pd.Answer)
	case pd.Decision == string(policy.Confirm):
		why = fmt.Sprintf("%s needs the user's yes and got %s", what, pd.Answer)
	case why == "":
		why = what + " is not allowed"
	}
	msg := fmt.Sprintf("refused by the user's policy (%s): %s. It was not done. Do not try to get around it "+
		"(another element, another tool, another way to the same effect); go on without it, or call fail if the task cannot be done without it.", pd.Rule, why)
	b, _ := json.Marshal(map[string]any{"error": RefusedByPolicy, "tool": pd.Tool, "rule": pd.Rule, "retryable": false, "message": msg})
	return &outcome{text: string(b), failed: true, json: true}
}

// quoteName quotes a name as the snapshot does.
func quoteName(name string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(name)
	return strings.TrimSuffix(b.String(), "\n")
}
