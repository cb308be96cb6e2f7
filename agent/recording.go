package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/watchdog"
)

// A recording of an earlier run of the same task (package cache) may give
// an iteration's reply in place of the model: the loop still observes the
// page, runs every call through the same checks (the user's policy, the
// secrets' origins, the budgets) and records the step, but no model is
// asked. Before each replayed call that aims at an element, the loop asks
// the browser what the call aims at now and runs it only when it is the
// element the recording says (its role and name): a ref that now names
// another control never acts.

// WithRecording lets rec give the replies of the iterations whose page is
// as it recorded; the model answers the others, with the whole history
// (the replayed calls and their results among it). It needs a browser that
// implements TargetDescriber. The result says how much came from the
// recording (Result.Replay).
func WithRecording(rec Recording) Option { return func(c *config) { c.recording = rec } }

// Recording gives replies recorded in an earlier run.
type Recording interface {
	// Next gives iteration t's reply, or an error (a *Divergence) that
	// says why the recording does not apply to the page now: the model
	// answers that iteration. Next must return quickly; it is called
	// within the iteration's bound.
	Next(ctx context.Context, t Turn) (Planned, error)
}

// Turn is what a Recording decides on.
type Turn struct {
	Iteration int
	// Observation is the page as the model would see it now, secret
	// values masked (element lines `button "Sign in" [ref=e3]`).
	Observation string
	// Last is the step before, as it ended: its calls' outcomes, and
	// whether its reply was the recording's (Step.Replayed). Nil on the
	// first iteration.
	Last *Step
}

// Planned is a reply a Recording gives.
type Planned struct {
	// Reply is the recorded reply, its refs those of the page now. Its
	// Usage is what the recorded model call cost: counted as saved.
	Reply contract.Reply
	// Expect is, per tool call, the element the call must aim at when it
	// runs; nil where the call aims at none.
	Expect []*contract.Target
	// Inner is, per tool call, for a script call, the element each of its
	// page calls (snapshots not counted) must aim at, in order: nil where
	// a call aims at none. A replayed script whose call aims elsewhere, or
	// that makes a call the recording does not have, stops there.
	Inner [][]*contract.Target
}

// Divergence is a Recording's reason for not giving an iteration's reply.
type Divergence struct {
	// Step is the recorded step that does not apply; 0 when the
	// recording has none left.
	Step int
	// Recorded is what that step did: `click button "Sign in"`.
	Recorded string
	// Why it does not apply: `no element button "Sign in" on the page`.
	Why string
}

func (d *Divergence) Error() string {
	if d.Recorded == "" {
		return d.Why
	}
	return fmt.Sprintf("recorded step %d (%s): %s", d.Step, d.Recorded, d.Why)
}

// ReplaySummary says how much of a run came from a recording.
type ReplaySummary struct {
	// Steps is how many iterations the recording answered.
	Steps int `json:"steps"`
	// ModelCalls is how many the model answered; ModelCallsSaved how many
	// model calls the recording spared (one per replayed iteration), and
	// TokensSaved what those calls had cost when recorded.
	ModelCalls      int `json:"model_calls"`
	ModelCallsSaved int `json:"model_calls_saved"`
	TokensSaved     int `json:"tokens_saved"`
	// Healed lists the recorded steps the model did anew, and what it did.
	Healed []Healed `json:"healed,omitempty"`
}

// Healed is a recorded step the page no longer allowed, and what the model
// did in its place.
type Healed struct {
	Iteration int    `json:"iteration"`
	Step      int    `json:"recorded_step"`
	Recorded  string `json:"recorded"` // click button "Sign in"
	Why       string `json:"why"`
	Became    string `json:"became"` // click button "Log in"
}

// recordingIn is what an iteration needs of the run to consult the
// recording: copies, since an abandoned iteration may still read them.
type recordingIn struct {
	last        *Step
	afterReplay bool // the previous iteration was replayed
}

// recordingIn is what the next iteration needs to consult the recording.
func (r *run) recordingIn() recordingIn {
	if r.a.cfg.recording == nil || len(r.res.Steps) == 0 {
		return recordingIn{}
	}
	last := r.res.Steps[len(r.res.Steps)-1]
	last.Actions = append([]ActionRecord(nil), last.Actions...)
	return recordingIn{last: &last, afterReplay: last.Replayed}
}

// replayed is what an iteration took from the recording.
type replayed struct {
	expect map[string]*contract.Target // by tool call id
	// inner is, by the id of a script call, the elements its page calls
	// must aim at, in order (Planned.Inner).
	inner map[string][]*contract.Target
	saved contract.Usage
	heal  *Healed // the model answered in place of a recorded step
	note  *contract.Message
}

// plan asks the recording for the iteration's reply. ok is false when the
// model must answer; then out.rec says why, for the result and the model.
func (r *run) plan(ctx context.Context, iter int, obs string, in recordingIn, out *iterOut) (contract.Reply, bool) {
	rec := r.a.cfg.recording
	if rec == nil {
		return contract.Reply{}, false
	}
	pl, err := rec.Next(ctx, Turn{Iteration: iter, Observation: obs, Last: in.last})
	if err == nil && len(pl.Reply.ToolCalls) > 0 {
		out.rec.expect = map[string]*contract.Target{}
		out.rec.inner = map[string][]*contract.Target{}
		for i, tc := range pl.Reply.ToolCalls {
			if i < len(pl.Expect) && pl.Expect[i] != nil {
				out.rec.expect[tc.ID] = pl.Expect[i]
			}
			if i < len(pl.Inner) && pl.Inner[i] != nil {
				out.rec.inner[tc.ID] = pl.Inner[i]
			}
		}
		out.rec.saved = pl.Reply.Usage
		pl.Reply.Usage = contract.Usage{}
		return pl.Reply, true
	}
	var d *Divergence
	if err != nil && errors.As(err, &d) && d.Step > 0 {
		out.rec.heal = &Healed{Iteration: iter, Step: d.Step, Recorded: r.sec.Mask(d.Recorded), Why: r.sec.Mask(d.Why)}
	}
	if in.afterReplay && err != nil {
		n := contract.Message{Role: contract.RoleUser, Content: "Note: the steps so far were replayed from a recorded run of this task. " +
			"The recording does not fit the page now (" + r.sec.Mask(err.Error()) + "), so you decide this step."}
		out.rec.note = &n
	}
	return contract.Reply{}, false
}

// checkExpect runs before a replayed call that must aim at a given
// element: it asks the browser what the call aims at now, and returns the
// outcome of a call not run when it is another element.
func (r *run) checkExpect(ctx context.Context, c call, want *contract.Target) (*outcome, error) {
	d, ok := r.a.browser.(contract.TargetDescriber)
	if !ok || c.action.Ref == "" {
		return nil, nil // New refuses a recording without a describer
	}
	// Hover aims at its ref's element whatever the element is: what the
	// ref names now, whichever tool the call is.
	probe := contract.Action{Name: contract.ActHover, Ref: c.action.Ref}
	got, err := watchdog.Run(ctx, "describing the target of "+c.tool.name, describeBudget, func(ctx context.Context) (contract.Target, error) {
		return d.DescribeTarget(ctx, probe)
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return &outcome{text: fmt.Sprintf("not run: the replayed %s was not run: what it aims at could not be told (%v)", c.tool.name, err), failed: true}, nil
	}
	if sameTarget(got, *want) {
		return nil, nil
	}
	now := strings.TrimSpace(got.Role + " " + quoteName(got.Name))
	if got.Role == "" {
		now = "no element"
	}
	return &outcome{text: fmt.Sprintf("not run: the replayed %s was recorded on %s %s, and aims at %s now",
		c.tool.name, want.Role, quoteName(want.Name), r.sec.Mask(now)), failed: true}, nil
}

// sameTarget compares elements as the snapshot names them: the role, and
// the name with white space collapsed, in any case.
func sameTarget(a, b contract.Target) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	return a.Role == b.Role && norm(a.Name) == norm(b.Name)
}

// countReplay adds an applied iteration to the run's ReplaySummary.
func (r *run) countReplay(out *iterOut) {
	if r.a.cfg.recording == nil {
		return
	}
	s := r.res.Replay
	if out.step.Replayed {
		s.Steps++
		s.ModelCallsSaved++
		s.TokensSaved += out.rec.saved.TotalTokens
		return
	}
	if out.assistant.Role == "" {
		return // the iteration asked no one (a human check blocked it)
	}
	s.ModelCalls++
	if h := out.rec.heal; h != nil {
		h.Became = r.sec.Mask(describeCalls(out.assistant.ToolCalls, out.obs.Content))
		s.Healed = append(s.Healed, *h)
	}
}

// describeCalls names a reply's calls for people, each element by its
// role and name in the observation: `click button "Log in"`.
func describeCalls(calls []contract.ToolCall, obs string) string {
	if len(calls) == 0 {
		return "(no tool call)"
	}
	lines := outline.Parse(obs)
	var parts []string
	for _, tc := range calls {
		var args map[string]any
		_ = json.Unmarshal([]byte(tc.Arguments), &args)
		s := tc.Name
		if ref, _ := args["ref"].(string); ref != "" {
			s += " " + outline.ElementOf(lines, ref)
		}
		if to, _ := args["to_ref"].(string); to != "" {
			s += " to " + outline.ElementOf(lines, to)
		}
		if txt, _ := args["text"].(string); txt != "" && tc.Name == contract.ActType {
			s += fmt.Sprintf(" %q", txt)
		}
		if u, _ := args["url"].(string); u != "" {
			s += " " + u
		}
		if k, _ := args["key"].(string); k != "" {
			s += " " + k
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
