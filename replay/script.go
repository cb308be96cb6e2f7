package replay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/trace"
)

// script replays a script's page calls one by one, as recorded (the
// program is not run again): each call that aimed at an element aims at
// the element of the same role and name in the page now.
func (r *replayer) script(ctx context.Context, st trace.StepEvent, rec agent.ActionRecord) error {
	for k, c := range rec.Calls {
		if c.Tool == "snapshot" || c.Error || c.Skipped {
			continue
		}
		tool := fmt.Sprintf("%s (call %d of the script)", c.Tool, k+1)
		fail := func(looked string, err error) error {
			return &StepError{Iteration: st.Iteration, Tool: tool, Looked: looked, Err: err}
		}
		a, _, err := agent.ParseRecordedAction(c.Tool, argsText(c.Args))
		if err != nil {
			return fail(string(c.Args), fmt.Errorf("the recorded arguments do not read: %w", err))
		}
		if a.URL != "" {
			a.URL = r.rb.url(a.URL)
		}
		looked := describe(&a)
		var snap *contract.Snapshot
		if a.Ref != "" || r.opts.Tracer != nil {
			if snap, err = observe(ctx, r.b, r.opts.ActionTimeout); err != nil {
				return fail(looked, err)
			}
		}
		if a.Ref != "" {
			if c.Element == nil {
				return fail(a.Ref, errors.New("the trace does not say which element it aimed at"))
			}
			want := outline.Target{Role: c.Element.Role, Name: c.Element.Name}
			looked = want.String()
			ref, err := outline.Resolve(outline.Parse(snap.Text), want)
			if err != nil {
				return fail(looked, err)
			}
			a.Ref = ref
		}
		call := contract.ToolCall{Name: c.Tool, Arguments: withTargets(argsText(c.Args), a)}
		if err := fillSecrets(&a, r.secrets, r.origins); err != nil {
			return fail(looked, err)
		}
		t0 := time.Now()
		if err := do(ctx, r.b, r.opts.ActionTimeout, a); err != nil {
			return fail(looked, err)
		}
		r.res.Actions++
		r.say("step %d  script call %d: %s %s", st.Iteration, k+1, c.Tool, looked)
		r.record(ctx, snap, call, false, t0)
	}
	return nil
}
