package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/script"
)

// A script command (agent.ToolScript) runs a program of many page calls in
// one command: the session's turn is taken once, and each call of the
// program runs as a command of its own would (the action policy, the
// budgets, the backstop, the recovery of a page left timed out). A call the
// policy wants confirmed is refused inside a script (CONFIRM_NEEDED, which
// the program sees): a person's yes is for one command, not a program.

// scriptCaller runs a script's calls on the agent's tab; the caller holds
// the session's turn.
type scriptCaller struct {
	s    *server
	name string
}

// Call runs one page call (script.Caller).
func (c *scriptCaller) Call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return "", &script.CallError{Code: "INVALID", Msg: err.Error()}
	}
	if tool == agent.ToolScript {
		return "", &script.CallError{Code: "INVALID", Msg: "a script cannot run a script"}
	}
	a, budget, err := agent.ParseAction(tool, string(args))
	if err != nil {
		return "", &script.CallError{Code: "INVALID", Msg: err.Error()}
	}
	if a, err = c.s.mask.Fill(a); err != nil {
		return "", &script.CallError{Code: "ACTION_FAILED", Msg: err.Error()}
	}
	return c.reply(ctx, Request{Command: tool, Args: m}, a, budget)
}

// Snapshot takes a snapshot of the agent's tab (script.Caller).
func (c *scriptCaller) Snapshot(ctx context.Context) (script.Page, error) {
	txt, err := c.reply(ctx, Request{Command: cmdSnapshot}, contract.Action{}, SnapshotBudget)
	if err != nil {
		return script.Page{}, err
	}
	return script.Page{Text: txt}, nil
}

// reply runs one command and turns its reply into the program's: text, a
// failure it may catch, or the end of the program when the browser broke.
func (c *scriptCaller) reply(ctx context.Context, req Request, a contract.Action, budget time.Duration) (string, error) {
	r, b := c.s.run(ctx, c.name, req, a, budget)
	if b != nil { // timed out: recovered before the program goes on
		rctx, cancel := context.WithTimeout(ctx, RecoverBudget)
		if _, err := b.Recover(rctx); err != nil {
			c.s.log.Warn("recovering the page after a script's call timed out", "error", err)
		}
		cancel()
	}
	text := c.s.mask.Mask(r.Text)
	switch {
	case r.Status == OK:
		return text, nil
	case r.Code == "BROWSER_FAILED" || r.Code == "CANCELED":
		return "", errors.New(text)
	}
	return "", &script.CallError{Code: r.Code, Msg: text}
}

// script runs a script command, the caller holding the turn.
func (s *server) script(ctx context.Context, name string, req Request) Reply {
	code, _ := req.Args["code"].(string)
	if code == "" {
		return invalid(`script needs the argument "code": the program, the body of a JavaScript function`)
	}
	if _, err := s.browser(ctx); err != nil {
		return Reply{Status: Failed, Code: "BROWSER_FAILED", Text: err.Error()}
	}
	sctx, cancel := context.WithTimeout(ctx, agent.ScriptBudget)
	defer cancel()
	res, err := script.Run(sctx, code, agent.ScriptTools(), &scriptCaller{s: s, name: name}, script.Limits{})
	var se *script.Error
	switch {
	case err == nil:
		b, _ := json.Marshal(map[string]any{"result": res.Value, "log": res.Logs, "calls": res.Calls})
		return Reply{Status: OK, Text: s.mask.Mask(string(b))}
	case ctx.Err() != nil:
		return Reply{Status: Failed, Code: "CANCELED", Text: "canceled: the client went away or the session is ending"}
	case errors.As(err, &se):
		msg := se.Error()
		if se.Calls > 0 {
			msg += fmt.Sprintf(" (after %d page calls: take a snapshot to see the page now)", se.Calls)
		}
		return Reply{Status: Failed, Code: se.Code, Text: s.mask.Mask(msg)}
	default:
		return Reply{Status: Failed, Code: "SCRIPT_ERROR", Text: s.mask.Mask(err.Error())}
	}
}
