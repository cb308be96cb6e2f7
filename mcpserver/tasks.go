package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/mcptask"
)

// run_task as a task (the MCP Tasks extension, package mcptask). A client
// that declares the extension gets a task at once; the run goes on in the
// server, in a browser of its own, whatever becomes of the call's
// connection or MCP session, until it ends or is cancelled. Its client
// follows it with tasks/get: the phase, the iteration and the last step
// while it runs (the status message, and _meta "webagent/progress"), the
// tool's result at the end. The questions of ask_human (a CAPTCHA hand-over
// among them) and of the action policy wait as input requests
// (elicitations) until the client answers them with tasks/update, each
// within the human timeout as a person's answer is anywhere else.

// progressKey is the _meta key of a task's progress.
const progressKey = "webagent/progress"

// startTask is run_task's mcptask.Starter.
func (s *Server) startTask(_ context.Context, req *mcp.CallToolRequest) (mcptask.Work, *mcp.CallToolResult, error) {
	p, refused := s.prepare(req)
	if refused != nil {
		return nil, refused, nil
	}
	return func(ctx context.Context, r *mcptask.Run) (*mcp.CallToolResult, error) {
		return s.runAsTask(ctx, p, r), nil
	}, nil, nil
}

// runAsTask runs p in a browser of the task's own, closed before it
// returns (before the task shows as ended).
func (s *Server) runAsTask(ctx context.Context, p *prepared, r *mcptask.Run) *mcp.CallToolResult {
	rv := s.openRunView(r.ID()[:min(8, len(r.ID()))], p)
	defer rv.close()
	report := func(phase string, iteration int, msg string) {
		meta := map[string]any{progressKey: map[string]any{"phase": phase, "iteration": iteration, "last_step": msg}}
		for k, v := range rv.meta() {
			meta[k] = v // the live view's URLs, for the client's user
		}
		r.Report(msg, meta)
	}
	report("starting", 0, "starting the browser")
	st := &connState{srv: s}
	defer func() { _ = st.close(s.abandoning.Load()) }()
	b, err := st.browser(ctx)
	if err != nil {
		report("ended", 0, "the browser could not start")
		return failed("the browser could not start: " + err.Error())
	}
	q := questions{taskAsker{r}}
	h := hooks{
		human:   q,
		confirm: q,
		observe: func(step agent.Step) { report("running", step.Iteration, describe(step)) },
		view:    rv.view(),
	}
	out, res := s.execute(ctx, p, b, h)
	if res != nil {
		report("ended", res.Iterations, summary(res))
	}
	return withMeta(out, rv.meta())
}
