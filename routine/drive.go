package routine

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// Drive is a recording (agent.WithRecording) that makes a run of the loop
// call the routine r once with params and end with its result: a routine
// run as a task, with every bound, check and record of one (the policy,
// confirmations, the trace, a live view), and no model unless a step needs
// healing. Offer r's tool too (Tool); its outcome is the run's answer, its
// failure the run's reason.
func Drive(r *Routine, params json.RawMessage) agent.Recording {
	if len(strings.TrimSpace(string(params))) == 0 {
		params = json.RawMessage("{}")
	}
	return &drive{r: r, params: params}
}

type drive struct {
	r      *Routine
	params json.RawMessage
}

// Next calls the routine on the first iteration, then ends with what it
// gave.
func (d *drive) Next(_ context.Context, t agent.Turn) (agent.Planned, error) {
	reply := func(name string, args any) agent.Planned {
		b, _ := json.Marshal(args)
		return agent.Planned{Reply: contract.Reply{ToolCalls: []contract.ToolCall{{ID: "routine", Name: name, Arguments: string(b)}}}, Expect: []*contract.Target{nil}}
	}
	if t.Last == nil {
		return agent.Planned{Reply: contract.Reply{ToolCalls: []contract.ToolCall{{ID: "routine", Name: d.r.ToolName(), Arguments: string(d.params)}}}, Expect: []*contract.Target{nil}}, nil
	}
	i := slices.IndexFunc(t.Last.Actions, func(a agent.ActionRecord) bool { return a.Tool == d.r.ToolName() })
	if i < 0 {
		why := "the routine did not run"
		if t.Last.Error != "" {
			why += ": " + t.Last.Error
		}
		return reply(agent.ToolFail, map[string]string{"reason": why}), nil
	}
	a := t.Last.Actions[i]
	if a.Error || a.Skipped {
		return reply(agent.ToolFail, map[string]string{"reason": strings.TrimPrefix(a.Outcome, "error: ")}), nil
	}
	answer := a.Outcome
	var o struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal([]byte(a.Outcome), &o) == nil && len(o.Result) > 0 {
		answer = string(o.Result) // what the routine returned
	}
	return reply(agent.ToolDone, map[string]string{"answer": answer}), nil
}
