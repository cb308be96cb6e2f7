package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/trace"
)

// native replays an action of a vendor's computer or browser tool (a
// record under its call's, Native) as the webagent action it ran as
// (agent.ActionRecord.Calls). A click at a
// point is a click on the element that was under the pointer, found again
// by its role and name wherever it is now: a point replayed as a point
// would land on whatever moved there. The text typed where the focus is
// goes where the click before it put the focus.
func (r *replayer) native(ctx context.Context, st trace.StepEvent, rec agent.ActionRecord) error {
	if len(rec.Calls) == 0 || rec.Error || rec.Skipped {
		r.res.Skipped++ // a screenshot, a zoom, a failed action: nothing done on the page
		return nil
	}
	for _, c := range rec.Calls {
		tool := fmt.Sprintf("%s (as %s)", rec.Tool, c.Tool)
		fail := func(looked string, err error) error {
			return &StepError{Iteration: st.Iteration, Tool: tool, Looked: looked, Err: err}
		}
		var a contract.Action
		if err := json.Unmarshal(c.Args, &a); err != nil {
			return fail(string(c.Args), fmt.Errorf("the recorded action does not read: %w", err))
		}
		a.Name = c.Tool
		if a.URL != "" {
			a.URL = r.rb.url(a.URL)
		}
		looked, snap, err := r.pointed(ctx, st, c.Element, &a)
		if err != nil {
			return fail(looked, err)
		}
		if snap == nil && r.opts.Tracer != nil {
			if snap, err = observe(ctx, r.b, r.opts.ActionTimeout); err != nil {
				return fail(looked, err)
			}
		}
		call := contract.ToolCall{Name: c.Tool, Arguments: toolArgs(a)}
		if err := fillSecrets(&a, r.secrets, r.origins); err != nil {
			return fail(looked, err)
		}
		t0 := time.Now()
		if err := do(ctx, r.b, r.opts.ActionTimeout, a); err != nil {
			return fail(looked, err)
		}
		r.res.Actions++
		r.say("step %d  %s as %s %s", st.Iteration, rec.Tool, c.Tool, looked)
		r.record(ctx, snap, call, false, t0)
	}
	return nil
}

// pointed turns a click at a point into a click on the element that was
// under it: by its ref in the step's recorded snapshot, found again by
// what it was and where it stood (as any recorded ref is), else by its
// role and name. It returns what it looked for and the page it read.
func (r *replayer) pointed(ctx context.Context, st trace.StepEvent, el *agent.Element, a *contract.Action) (string, *contract.Snapshot, error) {
	if el == nil || a.At == nil {
		return describe(a), nil, nil
	}
	at := a.At
	a.At = nil
	if el.Ref != "" {
		a.Ref = el.Ref
		looked, snap, err := retarget(ctx, r.b, r.t, st.Iteration, a, r.rb, r.opts.ActionTimeout)
		if err == nil {
			return looked, snap, nil
		}
	}
	snap, err := observe(ctx, r.b, r.opts.ActionTimeout)
	if err != nil {
		a.At = at
		return describe(a), nil, err
	}
	want := outline.Target{Role: el.Role, Name: el.Name}
	ref, err := outline.Resolve(outline.Parse(snap.Text), want)
	a.Ref = ref
	return want.String(), snap, err
}

// toolArgs writes an action as its tool's arguments: points as x, y and
// to_x, to_y, the name left out.
func toolArgs(a contract.Action) string {
	raw, _ := json.Marshal(a)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	delete(m, "name")
	for k, xy := range map[string][2]string{"at": {"x", "y"}, "to": {"to_x", "to_y"}} {
		if p, ok := m[k].(map[string]any); ok {
			m[xy[0]], m[xy[1]] = p["X"], p["Y"]
			delete(m, k)
		}
	}
	out, _ := json.Marshal(m)
	return string(out)
}
