package mcpserver

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/routine"
	"github.com/webagent/webagent/watchdog"
)

// Routines (Config.Routines): each routine of the folder is a tool,
// routine_NAME, whose arguments are its parameters. A call runs the
// routine's current version on the connection's browser, each page call
// as browser_script's are (its arguments checked, secrets filled on their
// origin, its budget, the navigation policy in the browser), under the
// script's bound. The server's model, when it has one, heals a step that
// no longer fits into a draft; a step that changes data is not healed
// here (no person is asked through MCP for it).

// addRoutines offers the routines of the folder; a routine that does not
// check is left out with a warning.
func (s *Server) addRoutines() {
	st := s.cfg.Routines
	names, err := st.Names()
	if err != nil {
		s.log.Warn("routines", "err", err)
		return
	}
	for _, n := range names {
		r, err := st.Load(n)
		if err == nil {
			err = routine.Validate(r.Manifest, r.Program)
		}
		if err != nil {
			s.log.Warn("a routine is not offered: it does not check (webagent routine check "+n+")", "err", err)
			continue
		}
		s.mcp.AddTool(&mcp.Tool{Name: r.ToolName(), Description: "Routine: " + r.Description + " It runs saved steps in the browser, with the values given.",
			InputSchema: r.Parameters}, s.routine(n))
	}
}

// routine runs a call of the routine name.
func (s *Server) routine(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r, err := s.cfg.Routines.Load(name) // the version current now
		if err != nil {
			return failed(err.Error()), nil
		}
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		if err := routine.CheckParams(r, args); err != nil {
			return failed(err.Error()), nil
		}
		st, b, refused, err := s.open(ctx, req.Session)
		if refused != nil || err != nil {
			return refused, err
		}
		o := routine.RunOptions{Store: s.cfg.Routines}
		if s.cfg.Model != nil {
			o.Healer = routine.ModelHealer(s.cfg.Model, 0)
		}
		res, err := watchdog.Run(ctx, r.ToolName(), agent.ScriptBudget, func(ctx context.Context) (*routine.Result, error) {
			return routine.Run(ctx, &scriptCaller{s: s, st: st, b: b}, r, args, o)
		})
		var re *routine.Error
		var te *watchdog.TimeoutError
		switch {
		case err == nil:
			return text(s.mask.Mask(routine.Outcome(r, res))), nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &re), errors.As(err, &te):
			return failed(s.mask.Mask(err.Error())), nil
		}
		st.drop(b)
		return failed(s.mask.Mask("the browser failed (" + err.Error() + "); the next call starts a new one")), nil
	}
}
