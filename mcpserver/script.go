package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/script"
	"github.com/webagent/webagent/watchdog"
)

// browser_script runs a program of many page calls in one tool call
// (package script), each call as its own browser_ tool would run it: its
// arguments checked as the agent checks them, secrets filled on their
// origin, its budget, the server's navigation policy in the browser.

// scriptCaller runs a script's calls on the connection's browser.
type scriptCaller struct {
	s  *Server
	st *connState
	b  *browser.Browser
}

// Call runs one page call (script.Caller).
func (c *scriptCaller) Call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
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
	if a.Name == contract.ActWaitFor {
		c.st.mu.Lock()
		a.Seen = c.st.lastTxt
		c.st.mu.Unlock()
	}
	out, err := watchdog.Run(ctx, tool, budget, func(ctx context.Context) (contract.Outcome, error) { return c.b.Do(ctx, a) })
	var te *watchdog.TimeoutError
	var ae *contract.ActionError
	switch {
	case err == nil:
		return c.s.mask.Mask(out.Text), nil
	case ctx.Err() != nil:
		return "", err
	case errors.As(err, &te):
		msg := fmt.Sprintf("%s did not finish within %d ms and was abandoned.", tool, te.Budget.Milliseconds())
		if what := c.s.recover(ctx, c.b); what != "" {
			msg += " " + what
		}
		return "", &script.CallError{Code: agent.OperationTimeout, Msg: msg}
	case errors.As(err, &ae):
		code := "ACTION_FAILED"
		if errors.Is(err, contract.ErrStaleRef) {
			code = "STALE_REF"
		}
		return "", &script.CallError{Code: code, Msg: c.s.mask.Mask(ae.Msg)}
	}
	return "", err
}

// Snapshot takes a snapshot for the program (script.Caller).
func (c *scriptCaller) Snapshot(ctx context.Context) (script.Page, error) {
	snap, err := watchdog.Run(ctx, "snapshot", agentSnapshotBudget, c.b.Snapshot)
	if err != nil {
		return script.Page{}, err
	}
	c.st.mu.Lock()
	c.st.lastTxt = snap.Text
	c.st.mu.Unlock()
	return script.Page{URL: c.s.mask.Mask(snap.URL), Title: c.s.mask.Mask(snap.Title), Text: c.s.mask.Mask(snap.Text)}, nil
}

// agentSnapshotBudget bounds a script's snapshot, as the snapshot tool's.
const agentSnapshotBudget = 10 * time.Second

// script runs a browser_script call.
func (s *Server) script(ctx context.Context, st *connState, b *browser.Browser, code string) (*mcp.CallToolResult, error) {
	res, err := script.Run(ctx, code, agent.ScriptTools(), &scriptCaller{s: s, st: st, b: b}, script.Limits{})
	var se *script.Error
	switch {
	case err == nil:
		out, _ := json.Marshal(map[string]any{"result": res.Value, "log": res.Logs, "calls": res.Calls})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
	case errors.As(err, &se) && (se.Unwrap() == nil || errors.Is(se.Unwrap(), context.DeadlineExceeded)):
		msg := se.Error()
		if se.Calls > 0 {
			msg += fmt.Sprintf(" (after %d page calls: take a snapshot to see the page now)", se.Calls)
		}
		return failed(s.mask.Mask(msg)), nil
	case errors.As(err, &se):
		return nil, se.Unwrap() // the browser broke
	}
	return nil, err
}
