package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/session"
)

// Live views (Config.Live, package liveview). Each run_task run in this
// server has a view of its own, and so has each named browser session
// (the session's, which its live command opens). A person watches the run
// there, answers its questions beside the client's user (the first answer
// wins) and may take the browser over between its steps.
//
// A view's URLs are for the person, never for the model: they go to the
// client in _meta ("webagent/live": {"view", "control"}), which a client
// shows its user and gives no model, and to Config.OnLive (the command
// prints them on stderr); never into a tool's content, a task's status
// message, a progress message or a log line. Where they reach the client
// before the run ends: a task's state (tasks/get) from its first report,
// each progress notification of a call that asked for progress, each
// round of a multi round-trip call; and the result.

// liveKey is the _meta key of a view's URLs.
const liveKey = "webagent/live"

// liveBudget bounds asking a named session for its view.
const liveBudget = 10 * time.Second

// runView is a run_task run's live view.
type runView struct{ v *liveview.View }

// openRunView opens the view of a run, named id; nil without Config.Live.
func (s *Server) openRunView(id string, p *prepared) *runView {
	if s.cfg.Live == nil {
		return nil
	}
	title := "task " + id
	v := s.cfg.Live.Open(liveview.Options{Title: title, Task: s.mask.Mask(p.task.Instruction), Idle: s.cfg.Limits.Effective().HumanTimeout})
	view, control := v.URLs()
	s.tellLive(title, view, control)
	return &runView{v: v}
}

// tellLive hands a view's URLs to Config.OnLive.
func (s *Server) tellLive(title, view, control string) {
	if s.cfg.OnLive != nil {
		s.cfg.OnLive(title, view, control)
	}
}

// newRunID is a run's id in its view's title, for a run that is no task.
func newRunID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// meta is the view's URLs as _meta; nil without a view.
func (rv *runView) meta() mcp.Meta {
	if rv == nil {
		return nil
	}
	view, control := rv.v.URLs()
	return liveMeta(view, control)
}

func liveMeta(view, control string) mcp.Meta {
	return mcp.Meta{liveKey: map[string]any{"view": view, "control": control}}
}

// close ends the view.
func (rv *runView) close() {
	if rv != nil {
		rv.v.Close()
	}
}

// view is the View, nil without one.
func (rv *runView) view() *liveview.View {
	if rv == nil {
		return nil
	}
	return rv.v
}

// withMeta adds the view's URLs to a result's _meta.
func withMeta(res *mcp.CallToolResult, meta mcp.Meta) *mcp.CallToolResult {
	if res == nil || len(meta) == 0 {
		return res
	}
	if res.Meta == nil {
		res.Meta = mcp.Meta{}
	}
	for k, v := range meta {
		res.Meta[k] = v
	}
	return res
}

// liveOptions are the loop's options of a view: it watches, may take
// over, and asks its questions beside the client (the first answer wins).
func liveOptions(v *liveview.View, h hooks) ([]agent.Option, hooks) {
	if v == nil {
		return nil, h
	}
	h.human = agent.EitherHuman(h.human, v)
	switch q := h.confirm.(type) {
	case nil:
		h.confirm = v
	case agent.Human:
		h.confirm = agent.EitherHuman(q, v).(agent.Confirmer)
	}
	return []agent.Option{agent.WithObserver(v), agent.WithControl(v.Lease())}, h
}

// sessionLive asks the named session for its view (opened at its first
// live command) and returns its URLs as _meta; the URLs go to OnLive when
// they are new. Nil when the server has no live views or the session
// cannot say.
func (s *Server) sessionLive(ctx context.Context, name string) mcp.Meta {
	if s.cfg.Live == nil {
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, liveBudget)
	defer cancel()
	r, err := (&session.Client{Name: name, Dir: s.cfg.SessionDir}).Do(lctx, session.Request{Command: session.CmdLive})
	if err != nil || r.Status != session.OK {
		s.log.Debug("a named session gave no live view", "session", name, "status", r.Status, "error", err)
		return nil
	}
	view, control, ok := session.LiveURLs(r.Text)
	if !ok {
		return nil
	}
	n := &s.named
	n.mu.Lock()
	told := n.live[name] == control
	if n.live == nil {
		n.live = map[string]string{}
	}
	n.live[name] = control
	n.mu.Unlock()
	if !told {
		s.tellLive("session "+name, view, control)
	}
	return liveMeta(view, control)
}
