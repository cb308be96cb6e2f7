package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/fleet"
	"github.com/webagent/webagent/mcpserver"
)

// mcpFleet is mcpserver's RemoteTasks on the Temporal fleet (mcp
// --temporal). It lives with the command so that mcpserver, which defines
// what it needs, never links Temporal: an embedder of the MCP server pays
// for the fleet only when it brings one.
type mcpFleet struct{ c *fleet.Client }

var _ mcpserver.RemoteTasks = mcpFleet{}

func (f mcpFleet) Submit(ctx context.Context, id string, t mcpserver.RemoteTask) (string, error) {
	return f.c.Submit(ctx, id, fleet.Task{
		URL: t.URL, Instruction: t.Instruction, SecretNames: t.SecretNames,
		Navigation: t.Navigation, Limits: t.Limits,
	})
}

func (f mcpFleet) Wait(ctx context.Context, id string) (*agent.Result, error) {
	out, err := f.c.Wait(ctx, id)
	if r := fleet.Refusal(err); r != nil {
		return nil, &mcpserver.Refused{Reason: r}
	}
	if err != nil {
		return nil, err
	}
	return out.Result, nil
}

func (f mcpFleet) Status(ctx context.Context, id string) (*mcpserver.RemoteStatus, error) {
	st, err := f.c.Status(ctx, id)
	if err != nil {
		return nil, remoteErr(err)
	}
	rs := &mcpserver.RemoteStatus{
		Workflow: st.Workflow, Phase: st.Phase, Attempt: st.Attempt, Worker: st.Worker, Iteration: st.Iteration,
		Question: st.Question, AskedAt: st.AskedAt, CancelRequested: st.CancelRequested,
		Error: st.Error, Started: st.Started, Closed: st.Closed,
	}
	if st.Outcome != nil {
		rs.Result = st.Outcome.Result
	}
	return rs, nil
}

func (f mcpFleet) Answer(ctx context.Context, id, text string) error {
	return remoteErr(f.c.Answer(ctx, id, text))
}

func (f mcpFleet) Cancel(ctx context.Context, id string) error {
	return f.c.Cancel(ctx, id)
}

// remoteErr names the fleet's errors that mcpserver tells apart with its
// own, keeping the fleet's in the chain.
func remoteErr(err error) error {
	switch {
	case errors.Is(err, fleet.ErrNotFound):
		return fmt.Errorf("%w: %w", mcpserver.ErrUnknownTask, err)
	case errors.Is(err, fleet.ErrNoQuestion):
		return fmt.Errorf("%w: %w", mcpserver.ErrNoQuestion, err)
	}
	return err
}
