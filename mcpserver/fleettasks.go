package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/mcptask"
)

// run_task on the fleet (Config.Fleet, RemoteTasks; mcp --temporal): each
// run is a task on the fleet's workers (a Temporal workflow), and a
// run_task task is that remote task, its id the task's. The task's state
// lives on the fleet, not in this server: a server started again, or another one on the same fleet, finds
// it by its id. The run's ask_human question (the fleet's one kind of
// question) is the task's input request; its answer goes to the run as
// the answer command's does.

// fleetTaskPrefix begins the workflow id of every task this server
// submits: tasks/get reaches only those, never another workflow of the
// namespace.
const fleetTaskPrefix = "webagent-mcp-"

// fleetTasks is the mcptask.Tasks of a server with a fleet.
type fleetTasks struct{ s *Server }

// fleetTask is the fleet task of a prepared run_task call.
func (s *Server) fleetTask(p *prepared) RemoteTask {
	names := make([]string, 0, len(s.cfg.Secrets))
	for k := range s.cfg.Secrets {
		names = append(names, k)
	}
	slices.Sort(names)
	lim := s.cfg.Limits
	if p.in.MaxIterations > 0 {
		lim.MaxIterations = p.in.MaxIterations
	}
	return RemoteTask{URL: p.task.URL, Instruction: p.task.Instruction, SecretNames: names, Navigation: s.cfg.Policy, Limits: lim}
}

// submit starts p on the fleet and returns its id; refused is the tool's
// error when the fleet did not take it.
func (s *Server) submit(ctx context.Context, p *prepared) (id string, refused *mcp.CallToolResult) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", failed("a task id: " + err.Error())
	}
	id, err := s.cfg.Fleet.Submit(ctx, fleetTaskPrefix+hex.EncodeToString(b[:]), s.fleetTask(p))
	if err != nil {
		return "", failed("the fleet did not take the task: " + err.Error())
	}
	return id, nil
}

// start is run_task's mcptask.Starter on the fleet.
func (f fleetTasks) start(ctx context.Context, req *mcp.CallToolRequest) (*mcptask.Task, *mcp.CallToolResult, error) {
	p, refused := f.s.prepare(req)
	if refused != nil {
		return nil, refused, nil
	}
	id, refused := f.s.submit(ctx, p)
	if refused != nil {
		return nil, refused, nil
	}
	t, err := f.Get(ctx, id)
	return t, nil, err
}

// runOnFleet is run_task on the fleet for a client that does not take
// tasks: the call waits for the outcome; the client's cancellation
// cancels the workflow.
func (s *Server) runOnFleet(ctx context.Context, req *mcp.CallToolRequest, p *prepared) *mcp.CallToolResult {
	id, refused := s.submit(ctx, p)
	if refused != nil {
		return refused
	}
	out, err := s.cfg.Fleet.Wait(ctx, id)
	if ctx.Err() != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := s.cfg.Fleet.Cancel(cctx, id); err != nil {
			s.log.Warn("cancelling a fleet task", "task", id, "error", err)
		}
		return failed("cancelled: the task " + id + " was cancelled on the fleet")
	}
	if r := (*Refused)(nil); errors.As(err, &r) {
		return failed("the fleet refused the task: " + r.Reason.Error())
	}
	if err != nil {
		return failed("the fleet task " + id + ": " + err.Error())
	}
	return toolResult(out)
}

// Get is the fleet task's state as a task's.
func (f fleetTasks) Get(ctx context.Context, id string) (*mcptask.Task, error) {
	st, err := f.status(ctx, id)
	if err != nil {
		return nil, err
	}
	t := &mcptask.Task{
		TaskID: id, Status: mcptask.Working,
		CreatedAt: stamp(st.Started), LastUpdatedAt: stamp(time.Now()),
		PollIntervalMs: mcptask.DefaultPollInterval.Milliseconds(),
	}
	t.Meta = map[string]any{progressKey: map[string]any{"phase": st.Phase, "iteration": st.Iteration, "attempt": st.Attempt, "worker": st.Worker}}
	switch {
	case st.Workflow == "RUNNING" && st.Question != "":
		t.Status, t.StatusMessage = mcptask.InputRequired, "waiting for the answer to: "+st.Question
		t.InputRequests = mcp.InputRequestMap{questionKey(st): &mcp.ElicitParams{Message: "webagent's agent asks: " + st.Question, RequestedSchema: answerSchema}}
	case st.Workflow == "RUNNING":
		t.StatusMessage = fmt.Sprintf("%s, iteration %d", st.Phase, st.Iteration)
		if st.CancelRequested {
			t.StatusMessage = "cancelling"
		}
	default:
		t.LastUpdatedAt = stamp(st.Closed)
		switch {
		case st.Result != nil && st.CancelRequested && st.Result.Code == agent.CodeCanceled:
			t.Status, t.StatusMessage = mcptask.Cancelled, summary(st.Result)
		case st.Result != nil:
			t.Status, t.StatusMessage, t.Result = mcptask.Completed, summary(st.Result), toolResult(st.Result)
		case st.Error != "":
			t.Status, t.StatusMessage, t.Result = mcptask.Completed, "refused", failed("the fleet refused the task: "+st.Error)
		default:
			t.Status, t.StatusMessage = mcptask.Cancelled, "the workflow ended "+strings.ToLower(st.Workflow)
		}
	}
	return t, nil
}

// Update sends the answer to the run's question, if the key is the one of
// the question it asks now.
func (f fleetTasks) Update(ctx context.Context, id string, answers mcp.InputResponseMap) error {
	st, err := f.status(ctx, id)
	if err != nil {
		return err
	}
	resp, ok := answers[questionKey(st)]
	if !ok || st.Question == "" {
		return nil // not outstanding: ignored
	}
	text := "(the person declined to answer)"
	if res, ok := resp.(*mcp.ElicitResult); ok && res.Action == "accept" {
		text, _ = res.Content["answer"].(string)
	}
	if err := f.s.cfg.Fleet.Answer(ctx, id, text); err != nil && !errors.Is(err, ErrNoQuestion) {
		return err
	}
	return nil
}

// Cancel cancels the workflow: its run ends CANCELED within its iteration
// bound.
func (f fleetTasks) Cancel(ctx context.Context, id string) error {
	if _, err := f.status(ctx, id); err != nil {
		return err
	}
	return f.s.cfg.Fleet.Cancel(ctx, id)
}

// status is the fleet's status of one of this server's tasks; another id
// is unknown.
func (f fleetTasks) status(ctx context.Context, id string) (*RemoteStatus, error) {
	unknown := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no task %q on the fleet", id)}
	if !strings.HasPrefix(id, fleetTaskPrefix) {
		return nil, unknown
	}
	st, err := f.s.cfg.Fleet.Status(ctx, id)
	if errors.Is(err, ErrUnknownTask) {
		return nil, unknown
	}
	return st, err
}

// questionKey names the run's question among the task's input requests:
// the same while it is asked, another for another question (or the same
// one asked again by a later iteration, or by another attempt).
func questionKey(st *RemoteStatus) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%d\x00%s", st.Attempt, st.AskedAt, st.Question)
	return fmt.Sprintf("ask-%x", h.Sum64())
}

// stamp is mcptask.Stamp of t, or of now for a time the workflow does not
// know yet.
func stamp(t time.Time) string {
	if t.IsZero() {
		t = time.Now()
	}
	return mcptask.Stamp(t)
}
