package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/session"
)

// Named browser sessions. A browser tool call with a "session" argument
// acts in the webagent browser session of that name (package session), not
// in a browser of the MCP session: a stateless client, which has no MCP
// session, keeps its browser across calls, and a coding agent shares one
// browser between its MCP tools and the webagent browser CLI ("agent"
// names its tabs there, "default" as the CLI's). A session that no process
// serves is started in this server, with its browser settings, and ends by
// its idle timeout, or with the server; one the CLI started is used as it
// is. A call naming a session this server served that has ended since says
// so; the call after starts a new one.

// sessionArgs are the properties every browser tool takes for it.
var sessionArgs = map[string]any{
	"session": map[string]any{"type": "string", "description": "act in the named browser session (shared with the webagent browser CLI, kept across calls; started if none runs) instead of this connection's own browser"},
	"agent":   map[string]any{"type": "string", "description": "with session: the agent whose tabs to act on (default: default)"},
}

// withSessionArgs adds the session properties to a tool's input schema.
func withSessionArgs(schema json.RawMessage) json.RawMessage {
	var m map[string]any
	if err := json.Unmarshal(schema, &m); err != nil {
		return schema
	}
	props, _ := m["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	for k, v := range sessionArgs {
		props[k] = v
	}
	m["properties"] = props
	out, err := json.Marshal(m)
	if err != nil {
		return schema
	}
	return out
}

// named holds the sessions this server serves.
type named struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	served map[string]chan struct{} // serving now: closed when it ends
	ended  map[string]bool          // served and ended since the last call naming it
	live   map[string]string        // the control link last told (OnLive), by session
}

func (n *named) init() {
	n.once.Do(func() {
		n.ctx, n.cancel = context.WithCancel(context.Background())
		n.served, n.ended = map[string]chan struct{}{}, map[string]bool{}
	})
}

// close ends the sessions this server serves and waits for them.
func (n *named) close() {
	n.init()
	n.cancel()
	n.wg.Wait()
}

// sessionCall splits the session arguments off a call's arguments: name
// is "" when the call names no session.
func sessionCall(raw json.RawMessage) (name, agentName string, rest json.RawMessage, err error) {
	var m map[string]json.RawMessage
	if len(raw) == 0 || string(raw) == "null" {
		return "", "", raw, nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", "", raw, nil // the tool's own decoding says what is wrong
	}
	if v, ok := m["session"]; ok {
		if err := json.Unmarshal(v, &name); err != nil || name == "" {
			return "", "", nil, errors.New(`session must be a session's name, e.g. {"session":"work"}`)
		}
		delete(m, "session")
	}
	if v, ok := m["agent"]; ok {
		if err := json.Unmarshal(v, &agentName); err != nil {
			return "", "", nil, errors.New(`agent must be an agent's name, e.g. {"agent":"reviewer"}`)
		}
		delete(m, "agent")
	}
	rest, err = json.Marshal(m)
	return name, agentName, rest, err
}

// inSession runs a browser tool call in the named session; with live
// views, its result's _meta has the session's.
func (s *Server) inSession(ctx context.Context, t browserTool, name, agentName string, args json.RawMessage) (*mcp.CallToolResult, error) {
	res, err := s.inSessionCall(ctx, t, name, agentName, args)
	if err != nil || res == nil || s.cfg.Live == nil || session.CheckName("session", name) != nil {
		return res, err
	}
	return withMeta(res, s.sessionLive(ctx, name)), nil
}

// inSessionCall runs a browser tool call in the named session: the
// action, then a snapshot, as the tools answer in a browser of their own.
func (s *Server) inSessionCall(ctx context.Context, t browserTool, name, agentName string, args json.RawMessage) (*mcp.CallToolResult, error) {
	if err := session.CheckName("session", name); err != nil {
		return failed(err.Error()), nil
	}
	if agentName != "" {
		if err := session.CheckName("agent", agentName); err != nil {
			return failed(err.Error()), nil
		}
	}
	req := session.Request{Agent: agentName}
	switch {
	case t.action != "":
		var m map[string]any
		_ = json.Unmarshal(args, &m)
		req.Command, req.Args = t.action, m
	case t.tool.Name == "browser_screenshot":
		req.Command = "screenshot"
		if annotated(args) {
			req.Args = map[string]any{"annotate": true}
		}
	default:
		req.Command = "snapshot"
		var p struct{ Diff bool }
		_ = json.Unmarshal(args, &p)
		if p.Diff {
			req.Args = map[string]any{"diff": true}
		}
	}
	r, err := s.sessionDo(ctx, name, req)
	if errors.Is(err, errEnded) {
		return failed(fmt.Sprintf("the browser session %s has ended (closed, or idle for its idle timeout); call again to start a new session of that name, with a new browser", name)), nil
	}
	if err != nil {
		return nil, err
	}
	if r.Status != session.OK {
		return failed(r.Text), nil
	}
	switch req.Command {
	case "screenshot":
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: r.PNG, MIMEType: "image/png"}}}, nil
	case "snapshot":
		return text(r.Text), nil
	}
	snap, err := s.sessionDo(ctx, name, session.Request{Agent: agentName, Command: "snapshot"})
	if err != nil {
		return nil, err
	}
	return text(r.Text + "\n\n" + snap.Text), nil
}

// errEnded: the named session this server served has ended.
var errEnded = errors.New("the session has ended")

// sessionDo sends a request to the named session, starting it in this
// server when no process serves it.
func (s *Server) sessionDo(ctx context.Context, name string, req session.Request) (session.Reply, error) {
	n := &s.named
	n.init()
	c := &session.Client{Name: name, Dir: s.cfg.SessionDir}
	r, err := c.Do(ctx, req)
	if !errors.Is(err, session.ErrNoSession) {
		return r, err
	}
	// One this server served that is gone, or going: it ended.
	n.mu.Lock()
	done, ended := n.served[name], n.ended[name]
	delete(n.ended, name)
	n.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			return session.Reply{}, ctx.Err()
		}
		n.mu.Lock()
		delete(n.ended, name)
		n.mu.Unlock()
		ended = true
	}
	if ended {
		return session.Reply{}, errEnded
	}
	if err := s.serveSession(ctx, name); err != nil {
		return session.Reply{Status: session.Failed, Text: "the browser session could not start: " + err.Error()}, nil
	}
	return c.Do(ctx, req)
}

// serveSession starts the named session in this server and waits for it
// to listen.
func (s *Server) serveSession(ctx context.Context, name string) error {
	n := &s.named
	n.init()
	ready := make(chan error, 1)
	done := make(chan struct{})
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer close(done)
		err := session.Serve(n.ctx, session.Config{
			Name: name, Dir: s.cfg.SessionDir, Browser: s.cfg.Browser, Policy: s.cfg.Policy, Secrets: s.cfg.Secrets,
			OperationTimeout: s.cfg.Limits.Effective().OperationTimeout, IdleTimeout: s.cfg.SessionIdleTimeout,
			LaunchTimeout: s.cfg.LaunchTimeout, Logger: s.cfg.Logger,
			Live: s.cfg.Live, HumanTimeout: s.cfg.Limits.Effective().HumanTimeout,
			Ready: func(err error) {
				if err == nil {
					n.mu.Lock()
					n.served[name] = done
					n.mu.Unlock()
				}
				ready <- err
			},
		})
		n.mu.Lock()
		if n.served[name] == done {
			delete(n.served, name)
			n.ended[name] = n.ctx.Err() == nil
		}
		n.mu.Unlock()
		if err != nil && !errors.Is(err, session.ErrRunning) {
			s.log.Warn("a browser session ended", "session", name, "error", err)
		}
	}()
	wait := time.NewTimer(s.cfg.LaunchTimeout + 30*time.Second)
	defer wait.Stop()
	select {
	case err := <-ready:
		if errors.Is(err, session.ErrRunning) {
			return nil // another process serves it now
		}
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-wait.C:
		return errors.New("it did not start in time")
	}
}
