package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/session"
	"github.com/webagent/webagent/watchdog"
)

// browserTool is one browser tool: its MCP definition, its budget, and
// what a call does with the session's browser.
type browserTool struct {
	tool   *mcp.Tool
	budget time.Duration
	// action is the agent's page tool it runs; "" for snapshot and
	// screenshot, which run do.
	action string
	do     func(ctx context.Context, st *connState, b *browser.Browser) (*mcp.CallToolResult, error)
}

// browserTools are the agent's page tools, named browser_NAME (goto is
// browser_navigate), with browser_snapshot and browser_screenshot.
func browserTools() []browserTool {
	out := []browserTool{
		{tool: &mcp.Tool{Name: "browser_snapshot", Description: "The current page as an outline: its text, and every element you can act on with its ref (e12). " +
			"With diff, only what changed since your last snapshot of the same page (lines added, removed and changed, in the page's order, after the unchanged line they follow); a new page is always whole.",
			InputSchema: withSessionArgs(diffSchema)}, budget: session.SnapshotBudget,
			do: func(ctx context.Context, st *connState, b *browser.Browser) (*mcp.CallToolResult, error) {
				return snapshotOnly(ctx, st, b, false)
			}},
		{tool: &mcp.Tool{Name: "browser_screenshot", Description: "The visible part of the page as a PNG image; with annotate, each element's ref (e12) drawn on its box, to point at what you see.",
			InputSchema: withSessionArgs(screenshotSchema)}, budget: session.ScreenshotBudget, do: screenshot},
	}
	for _, pt := range agent.PageTools() {
		name := "browser_" + pt.Def.Name
		if pt.Def.Name == contract.ActGoto {
			name = "browser_navigate"
		}
		out = append(out, browserTool{
			tool:   &mcp.Tool{Name: name, Description: pt.Def.Description, InputSchema: withSessionArgs(pt.Def.Parameters)},
			budget: pt.Budget, action: pt.Def.Name,
		})
	}
	return out
}

var diffSchema = json.RawMessage(`{"type":"object","properties":{"diff":{"type":"boolean","description":"only what changed since your last snapshot of the same page"}},"additionalProperties":false}`)

// screenshotSchema is browser_screenshot's: annotate draws the refs.
var screenshotSchema = json.RawMessage(`{"type":"object","properties":{"annotate":{"type":"boolean",` +
	`"description":"draw each element's ref on its box (set-of-mark)"}},"additionalProperties":false}`)

// handle runs a call of t: its arguments checked as the agent checks them,
// the action under the tool's budget and the backstop, then a new
// snapshot. A call that runs out of time is abandoned, the page recovered,
// and the client told, within the budget; the client's cancellation ends
// the call at once.
func (s *Server) handle(t browserTool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		name, agentName, args, err := sessionCall(req.Params.Arguments)
		if err != nil {
			return failed(err.Error()), nil
		}
		if name == "" && req.Extra != nil && statelessVersion(req.Extra.Header) {
			// No MCP session to keep a browser in: the default named one.
			name = "default"
		}
		t = t.withArgs(args)
		if t.action == agent.ToolScript {
			if name != "" {
				return s.inSession(ctx, t, name, agentName, args)
			}
			var p struct{ Code string }
			if err := json.Unmarshal(args, &p); err != nil || strings.TrimSpace(p.Code) == "" {
				return failed(`browser_script needs "code": the program, the body of a JavaScript function`), nil
			}
			t.action, t.do = "", func(ctx context.Context, st *connState, b *browser.Browser) (*mcp.CallToolResult, error) {
				return s.script(ctx, st, b, p.Code)
			}
		}
		t = withAnnotation(t, args)
		var a contract.Action
		budget := t.budget
		if t.action != "" {
			if a, budget, err = agent.ParseAction(t.action, string(args)); err != nil {
				return failed(err.Error()), nil
			}
			if name != "" {
				return s.inSession(ctx, t, name, agentName, args)
			}
			if a, err = s.mask.Fill(a); err != nil {
				return failed(err.Error()), nil
			}
		}
		if name != "" { // snapshot, screenshot
			return s.inSession(ctx, t, name, agentName, args)
		}
		st, b, refused, err := s.open(ctx, req.Session)
		if refused != nil || err != nil {
			return refused, err
		}
		tname := t.tool.Name
		res, err := watchdog.Run(ctx, "dispatching "+tname, max(s.cfg.Limits.Effective().OperationTimeout, 0), func(ctx context.Context) (*mcp.CallToolResult, error) {
			return watchdog.Run(ctx, tname, budget, func(ctx context.Context) (*mcp.CallToolResult, error) {
				if t.do != nil {
					return t.do(ctx, st, b)
				}
				return act(ctx, st, b, a)
			})
		})
		var te *watchdog.TimeoutError
		var ae *contract.ActionError
		switch {
		case err == nil:
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					tc.Text = s.mask.Mask(tc.Text)
				}
			}
			return res, nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &te):
			msg := fmt.Sprintf("%s did not finish within %d ms and was abandoned; nothing it does later reaches the page. You may retry it.", tname, te.Budget.Milliseconds())
			if what := s.recover(ctx, b); what != "" {
				msg += " " + what
			}
			return failed(msg), nil
		case errors.As(err, &ae):
			return failed(s.mask.Mask(ae.Msg)), nil
		default:
			st.drop(b)
			return failed(s.mask.Mask(fmt.Sprintf("the browser failed (%v); the next call starts a new one", err))), nil
		}
	}
}

// act performs a on the page and answers with its outcome and the new
// snapshot.
func act(ctx context.Context, st *connState, b *browser.Browser, a contract.Action) (*mcp.CallToolResult, error) {
	if a.Name == contract.ActWaitFor {
		st.mu.Lock()
		a.Seen = st.lastTxt
		st.mu.Unlock()
	}
	out, err := b.Do(ctx, a)
	if err != nil {
		return nil, err
	}
	snap, err := snapshotText(ctx, st, b)
	if err != nil {
		return nil, err
	}
	return text(out.Text + "\n\n" + snap), nil
}

// withArgs returns t with the arguments of a call bound into its do, for
// browser_snapshot (diff); other tools read theirs elsewhere.
func (t browserTool) withArgs(args json.RawMessage) browserTool {
	if t.tool.Name != "browser_snapshot" {
		return t
	}
	var p struct{ Diff bool }
	_ = json.Unmarshal(args, &p)
	t.do = func(ctx context.Context, st *connState, b *browser.Browser) (*mcp.CallToolResult, error) {
		return snapshotOnly(ctx, st, b, p.Diff)
	}
	return t
}

// snapshotOnly answers browser_snapshot: the page, or with diff what
// changed since the connection's latest snapshot of it (session.Viewed).
func snapshotOnly(ctx context.Context, st *connState, b *browser.Browser, diff bool) (*mcp.CallToolResult, error) {
	s, err := b.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.lastTxt = s.Text
	var out string
	out, st.viewed = st.viewed.Render(s, diff, st.srv.mask.Mask)
	return text(out), nil
}

// snapshotText is the page as session.PageText writes it; the outline is
// kept as the connection's latest.
func snapshotText(ctx context.Context, st *connState, b *browser.Browser) (string, error) {
	s, err := b.Snapshot(ctx)
	if err != nil {
		return "", err
	}
	st.mu.Lock()
	st.lastTxt = s.Text
	_, st.viewed = st.viewed.Render(s, false, st.srv.mask.Mask)
	st.mu.Unlock()
	return session.PageText(s), nil
}

func screenshot(ctx context.Context, _ *connState, b *browser.Browser) (*mcp.CallToolResult, error) {
	png, err := b.Screenshot(ctx)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/png"}}}, nil
}

// annotated reports whether a browser_screenshot call asks for the refs
// drawn.
func annotated(args json.RawMessage) bool {
	var p struct{ Annotate bool }
	_ = json.Unmarshal(args, &p)
	return p.Annotate
}

// withAnnotation makes a browser_screenshot call that asks for the refs
// drawn take the marked screenshot.
func withAnnotation(t browserTool, args json.RawMessage) browserTool {
	if t.tool.Name == "browser_screenshot" && annotated(args) {
		t.do = markedScreenshot
	}
	return t
}

func markedScreenshot(ctx context.Context, _ *connState, b *browser.Browser) (*mcp.CallToolResult, error) {
	png, err := b.ScreenshotMarked(ctx)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/png"}}}, nil
}

// recover brings the page back after an abandoned call, within its own
// bound, and says what it did.
func (s *Server) recover(ctx context.Context, b *browser.Browser) string {
	rctx, cancel := context.WithTimeout(ctx, session.RecoverBudget)
	defer cancel()
	what, err := b.Recover(rctx)
	if err != nil {
		return "Recovering the page failed: " + err.Error() + "."
	}
	return what
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func failed(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "error: " + msg}}, IsError: true}
}
