package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/autopolicy"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/liveview"
)

var runTaskTool = &mcp.Tool{
	Name: "run_task",
	Description: "Give a whole task to webagent's own agent: it opens url in the session's browser and works on the task in plain words " +
		"(observe, decide with the server's model, act) until it is done or fails with a code, within its bounds. " +
		"Each step is reported as progress; the result has status, code, answer and the steps.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{` +
		`"url":{"type":"string","description":"the start URL (http or https)"},` +
		`"task":{"type":"string","description":"the task, in plain words"},` +
		`"max_iterations":{"type":"integer","minimum":1,"description":"at most this many observe-decide-act steps"},` +
		`"vars":{"type":"object","additionalProperties":{"type":"string"},"description":"values of the task's {{name}} placeholders; with the server's run cache, a cached run types them where the recorded run typed its own"}` +
		`},"required":["url","task"],"additionalProperties":false}`),
}

type taskArgs struct {
	URL           string            `json:"url"`
	Task          string            `json:"task"`
	MaxIterations int               `json:"max_iterations"`
	Vars          map[string]string `json:"vars"`
}

// prepared is a run_task call whose arguments passed their checks.
type prepared struct {
	in   taskArgs
	task agent.Task
}

// prepare checks a run_task call; refused is the tool error when its
// arguments, its task or the server's configuration do not allow it.
func (s *Server) prepare(req *mcp.CallToolRequest) (p *prepared, refused *mcp.CallToolResult) {
	var in taskArgs
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return nil, failed("the arguments are not valid: " + err.Error() + `; send e.g. {"url":"https://example.org","task":"find the price of the blue mug"}`)
	}
	if strings.TrimSpace(in.URL) == "" || strings.TrimSpace(in.Task) == "" {
		return nil, failed(`run_task needs a url and a task, e.g. {"url":"https://example.org","task":"find the price of the blue mug"}`)
	}
	texts, err := cache.Expand(in.Vars, in.Task, in.URL)
	if err != nil {
		return nil, failed(err.Error())
	}
	task := agent.Task{URL: texts[1], Instruction: texts[0], Secrets: s.cfg.Secrets}
	if err := agent.CheckTask(task); err != nil {
		return nil, failed(err.Error())
	}
	if s.cfg.Model == nil && s.cfg.Fleet == nil {
		return nil, failed("no model is configured on this server: start it with --model NAME and --base-url URL (or WEBAGENT_MODEL and OPENAI_BASE_URL); the browser_ tools work without one")
	}
	return &prepared{in: in, task: task}, nil
}

// runTask runs the agent loop on the session's browser with the server's
// model, within the call (for a client that does not take tasks). The
// client's cancellation ends it (CANCELED); each step is a progress
// notification when the client asked for progress.
//
// From protocol 2026-07-28 the run's questions go to the client as input
// requests of the call's result (roundtrip.go): the run goes on in the
// server between the rounds, and the client's retry, carrying the request
// state and the answers, continues it.
func (s *Server) runTask(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params.RequestState != "" {
		return s.rounds.resume(ctx, req)
	}
	p, refused := s.prepare(req)
	if refused != nil {
		return refused, nil
	}
	if s.cfg.Fleet != nil {
		return s.runOnFleet(ctx, req, p), nil
	}
	if usesRounds(req) {
		return s.runInRounds(ctx, req, p)
	}
	st, b, refused, err := s.open(ctx, req.Session)
	if refused != nil || err != nil {
		return refused, err
	}
	rv := s.openRunView(newRunID(), p)
	defer rv.close()
	h := hooks{confirm: questions{elicitAsker{req.Session}}, view: rv.view()}
	if token := req.Params.GetProgressToken(); token != nil {
		notify := func(progress float64, msg string) {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: progress, Message: msg, Meta: rv.meta()})
		}
		if rv != nil {
			notify(0, "starting; a person may watch it in the live view")
		}
		h.observe = func(step agent.Step) { notify(float64(step.Iteration), describe(step)) }
	}
	out, _ := s.execute(ctx, p, b, h)
	// The task trusted its start URL's host; the browser tools do not.
	if err := b.Confine(s.cfg.Policy); err != nil {
		st.drop(b)
	}
	return withMeta(out, rv.meta()), nil
}

// runInRounds runs p across the call's rounds, asking its questions
// (ask_human, a CAPTCHA hand-over, the action policy's) as input requests.
// A client with an MCP session runs it in the session's browser; a
// stateless one, whose call's session ends with each round, in a browser
// of the run's own, closed when the run ends.
func (s *Server) runInRounds(ctx context.Context, req *mcp.CallToolRequest, p *prepared) (*mcp.CallToolResult, error) {
	stateless := req.Extra != nil && statelessVersion(req.Extra.Header)
	var st *connState
	var b *browser.Browser
	if !stateless {
		var refused *mcp.CallToolResult
		var err error
		if st, b, refused, err = s.open(ctx, req.Session); refused != nil || err != nil {
			return refused, err
		}
	}
	return s.rounds.start(ctx, req, func(ctx context.Context, r *roundRun) *mcp.CallToolResult {
		if stateless {
			st = &connState{srv: s}
			defer func() { _ = st.close(s.abandoning.Load()) }()
			var err error
			if b, err = st.browser(ctx); err != nil {
				return failed("the browser could not start: " + err.Error())
			}
		}
		rv := s.openRunView(newRunID(), p)
		defer rv.close()
		r.showLive(rv)
		q := questions{r}
		out, _ := s.execute(ctx, p, b, hooks{human: q, confirm: q, observe: r.progress, view: rv.view()})
		if !stateless {
			if err := b.Confine(s.cfg.Policy); err != nil {
				st.drop(b)
			}
		}
		return withMeta(out, rv.meta())
	})
}

// hooks are how a run reaches its client, and its person.
type hooks struct {
	human   agent.Human     // ask_human, and CAPTCHA hand-over; nil: none
	confirm agent.Confirmer // the action policy's questions
	observe func(agent.Step)
	view    *liveview.View // the run's live view; nil: none
}

// execute runs the prepared task on b and returns the tool's result.
func (s *Server) execute(ctx context.Context, p *prepared, b *browser.Browser, h hooks) (*mcp.CallToolResult, *agent.Result) {
	live, h := liveOptions(h.view, h)
	opts := append([]agent.Option{agent.WithLimits(s.cfg.Limits)}, s.cfg.AgentOptions...)
	opts = append(opts, live...)
	opts = append(opts, agent.WithNavigation(s.cfg.Policy), agent.WithLogger(s.cfg.Logger))
	if s.cfg.Actions != nil || s.cfg.DerivePolicy {
		opts = append(opts, agent.WithPolicy(s.cfg.Actions), agent.WithConfirmer(h.confirm))
	}
	if s.cfg.DerivePolicy {
		opts = append(opts, agent.WithPolicyDeriver(autopolicy.Deriver{Model: s.cfg.Model}))
	}
	if lim := s.cfg.Limits.Effective(); h.human != nil && lim.HumanTimeout < lim.OperationTimeout && lim.HumanTimeout < lim.IterationTimeout {
		// ask_human is a tool: its wait must fit under the backstop and
		// the iteration; limits that leave it no room leave it out.
		opts = append(opts, agent.WithHuman(h.human, lim.HumanTimeout))
	}
	if p.in.MaxIterations > 0 {
		opts = append(opts, agent.WithMaxIterations(p.in.MaxIterations))
	}
	if h.observe != nil {
		opts = append(opts, agent.WithObserver(agent.ObserverFunc(h.observe)))
	}
	cr, err := s.beginCache(p.in, p.task)
	if err != nil {
		return failed(err.Error()), nil
	}
	opts = append(opts, cr.options()...)
	a, err := agent.New(b, s.cfg.Model, opts...)
	if err != nil {
		cr.finish(ctx, nil, s.log)
		return failed(err.Error()), nil
	}
	if h.view != nil {
		h.view.Attach(b)
		defer h.view.Detach()
	}
	res := a.Run(ctx, p.task)
	if h.view != nil {
		h.view.Finish(res)
	}
	cr.finish(ctx, res, s.log)
	return toolResult(res), res
}

// toolResult is run_task's result for a run's: its summary and JSON, and
// the JSON as structured content.
func toolResult(res *agent.Result) *mcp.CallToolResult {
	body, err := json.Marshal(res)
	if err != nil {
		return failed("the result could not be encoded: " + err.Error())
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: summary(res) + "\n" + string(body)}},
		StructuredContent: json.RawMessage(body),
		IsError:           res.Code != agent.CodeSuccess,
	}
}

// describe is a step as one progress line.
func describe(s agent.Step) string {
	var acts []string
	for _, a := range s.Actions {
		acts = append(acts, a.Tool+": "+a.Outcome)
	}
	line := fmt.Sprintf("step %d at %s", s.Iteration, s.URL)
	if len(acts) > 0 {
		line += ": " + strings.Join(acts, "; ")
	}
	if s.Error != "" {
		line += " (" + s.Error + ")"
	}
	return line
}

func summary(r *agent.Result) string {
	if r.Code == agent.CodeSuccess {
		return fmt.Sprintf("%s after %d steps: %s", r.Code, r.Iterations, r.Answer)
	}
	return fmt.Sprintf("%s after %d steps: %s", r.Code, r.Iterations, r.Message)
}
