package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// Recording a replay (Options.Tracer): one iteration per replayed action,
// with the page it acted on as its observation and its call as the reply,
// so that the recording replays, and the run cache can keep it.

// record hands one replayed action to the tracer: snap is the page it
// acted on, call its tool and arguments as run (refs of that page, secret
// placeholders), healed whether the Healer chose it.
func (r *replayer) record(ctx context.Context, snap *contract.Snapshot, call contract.ToolCall, healed bool, t0 time.Time) {
	tr := r.opts.Tracer
	if tr == nil || snap == nil {
		return
	}
	r.iter++
	call.ID = fmt.Sprintf("replay_%d", r.iter)
	obs := r.observation(snap)
	tr.TraceSnapshot(ctx, r.iter)
	tr.TraceModel(agent.ModelCall{Iteration: r.iter, Observation: obs, Started: t0, Replayed: !healed,
		Request: contract.Request{Messages: []contract.Message{{Role: contract.RoleUser, Content: obs}}},
		Reply:   contract.Reply{ToolCalls: []contract.ToolCall{call}}})
	tr.TraceStep(ctx, agent.Step{Iteration: r.iter, URL: r.mask.Mask(snap.URL), ActionMS: time.Since(t0).Milliseconds(),
		Actions: []agent.ActionRecord{{Tool: call.Name, Args: json.RawMessage(call.Arguments), Outcome: "replayed", MS: time.Since(t0).Milliseconds()}}})
}

// recordEnd records the recorded answer as the last iteration, on the
// page the replay ended on.
func (r *replayer) recordEnd(ctx context.Context) error {
	if r.opts.Tracer == nil || r.t.End == nil || r.t.End.Result.Code != agent.CodeSuccess {
		return nil
	}
	snap, err := observe(ctx, r.b, r.opts.ActionTimeout)
	if err != nil {
		return err
	}
	args, _ := json.Marshal(map[string]string{"answer": r.res.Answer})
	r.record(ctx, snap, contract.ToolCall{Name: agent.ToolDone, Arguments: string(args)}, false, time.Now())
	return nil
}

// observation is a snapshot as the loop shows it to a model (without the
// step counter and the fence), secret values masked.
func (r *replayer) observation(s *contract.Snapshot) string {
	return r.mask.Mask(fmt.Sprintf("URL: %s\nTitle: %s\nSnapshot:\n%s", s.URL, s.Title, s.Text))
}

// withTargets puts a's refs and URL into a call's JSON arguments.
func withTargets(args string, a contract.Action) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return args
	}
	for k, v := range map[string]string{"ref": a.Ref, "to_ref": a.ToRef, "url": a.URL} {
		if _, ok := m[k]; ok && v != "" {
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return string(b)
}
