// Package agent runs a web task to its end: observe the page, ask the model,
// act, repeat, until the model calls done or fail, or a bound ends the task.
//
// The loop depends on two small interfaces it defines itself, Browser and
// Model; package browser (Chromium over CDP) and package llm (any
// OpenAI-compatible endpoint) implement them, and an embedder can supply
// either.
//
// # Bounds
//
// Bounds nest, outermost first:
//
//   - the caller's context (cancel → CANCELED, its deadline → TASK_TIMEOUT);
//   - the task timeout, WithTaskTimeout (→ TASK_TIMEOUT);
//   - the start timeout for the first navigation, WithStartTimeout
//     (→ BROWSER_ERROR);
//   - the iteration timeout, WithIterationTimeout, around each snapshot,
//     model call and action batch (→ ITERATION_TIMEOUT).
//
// Each bound is enforced by racing the work against a timer
// (package watchdog), so work that ignores its context cannot hold the loop;
// the work's context is cancelled and its late result dropped.
package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/watchdog"
)

// Task is what the user asks for.
type Task struct {
	// URL is opened before the first iteration; empty starts on a blank page.
	URL string
	// Instruction is the task in plain words.
	Instruction string
	// Secrets are credentials the task may use. The model refers to them as
	// <secret>NAME</secret> and never sees the values; neither do logs,
	// observers or results.
	Secrets map[string]string
}

// Agent runs tasks with one browser and one model. An Agent is not meant to
// run two tasks at once on the same browser.
type Agent struct {
	browser Browser
	model   Model
	cfg     config
}

// New returns an Agent, or an error when an option is out of range.
func New(b Browser, m Model, opts ...Option) (*Agent, error) {
	if b == nil || m == nil {
		return nil, errors.New("agent: a browser and a model are required")
	}
	cfg := defaults()
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Agent{browser: b, model: m, cfg: cfg}, nil
}

var errTaskTimeout = errors.New("task timeout")

// run is the state of one task.
type run struct {
	a       *Agent
	task    Task
	sec     *secrets
	msgs    []Message
	obsIdx  []int // indexes of observation messages, to trim old ones
	res     *Result
	nudged  bool // the model was reminded to call a tool
	started time.Time
}

// Run performs the task and returns how it ended. It never returns nil and
// never blocks past its bounds.
func (a *Agent) Run(ctx context.Context, task Task) *Result {
	r := &run{a: a, task: task, sec: newSecrets(task.Secrets), res: &Result{Steps: []Step{}}, started: time.Now()}
	log := a.cfg.logger
	log.Debug().Str("url", task.URL).Int("max_iterations", a.cfg.maxIterations).
		Dur("iteration_timeout", a.cfg.iterationTimeout).Msg("task started")

	taskCtx := ctx
	if a.cfg.taskTimeout > 0 {
		var cancel context.CancelFunc
		taskCtx, cancel = context.WithTimeoutCause(ctx, a.cfg.taskTimeout, errTaskTimeout)
		defer cancel()
	}
	r.msgs = []Message{
		{Role: RoleSystem, Content: systemPrompt(r.sec.names())},
		{Role: RoleUser, Content: "Task: " + r.sec.mask(task.Instruction)},
	}

	if task.URL != "" {
		err := watchdog.Do(taskCtx, "opening the start URL", a.cfg.startTimeout, func(ctx context.Context) error {
			_, err := a.browser.Do(ctx, Action{Name: ActGoto, URL: task.URL})
			return err
		})
		if err != nil {
			return r.finish(ctx, taskCtx, CodeBrowserError, fmt.Errorf("could not open %s: %w", task.URL, err))
		}
	}

	for i := 1; i <= a.cfg.maxIterations; i++ {
		r.res.Iterations = i
		prog := &progress{step: Step{Iteration: i, Actions: []ActionRecord{}}}
		msgs := append([]Message(nil), r.msgs...)
		out, err := watchdog.Run(taskCtx, fmt.Sprintf("iteration %d", i), a.cfg.iterationTimeout,
			func(ictx context.Context) (*iterOut, error) { return r.iterate(ictx, i, msgs, prog) })
		if err != nil {
			sa := prog.snapshot()
			step := sa.Step
			var te *watchdog.TimeoutError
			if errors.As(err, &te) {
				step.Error = fmt.Sprintf("timed out after %s while %s", te.Budget, sa.phase())
				err = fmt.Errorf("%w while %s", err, sa.phase())
			} else {
				step.Error = r.sec.mask(err.Error())
			}
			r.record(step)
			return r.finish(ctx, taskCtx, codeFor(err), err)
		}
		r.apply(out)
		r.record(out.step)
		switch {
		case out.done != nil:
			r.res.Answer = r.sec.mask(*out.done)
			return r.finish(ctx, taskCtx, CodeSuccess, nil)
		case out.fail != nil:
			return r.finish(ctx, taskCtx, CodeAgentFailed, fmt.Errorf("the agent gave up: %s", r.sec.mask(*out.fail)))
		case out.noTool:
			if r.nudged {
				return r.finish(ctx, taskCtx, CodeAgentFailed, errors.New("the model answered twice without calling a tool"))
			}
			r.nudged = true
		default:
			r.nudged = false
		}
	}
	return r.finish(ctx, taskCtx, CodeMaxIterations,
		fmt.Errorf("the task was not finished within %d iterations", a.cfg.maxIterations))
}

// codeFor classifies an error that ended an iteration.
func codeFor(err error) Code {
	var be *browserError
	switch {
	case errors.Is(err, watchdog.ErrTimeout):
		return CodeIterationTimeout
	case errors.As(err, &be):
		return CodeBrowserError
	default:
		return CodeLLMError
	}
}

// finish fills in the result. Context endings override code: a cancel or a
// deadline is reported as such, whatever error it caused downstream.
func (r *run) finish(ctx, taskCtx context.Context, code Code, err error) *Result {
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled):
		code, err = CodeCanceled, fmt.Errorf("canceled: %w", context.Cause(ctx))
	case ctx.Err() != nil:
		code, err = CodeTaskTimeout, fmt.Errorf("the caller's deadline passed: %w", ctx.Err())
	case errors.Is(context.Cause(taskCtx), errTaskTimeout):
		code, err = CodeTaskTimeout, fmt.Errorf("the task timeout of %s passed: %w", r.a.cfg.taskTimeout, context.DeadlineExceeded)
	}
	res := r.res
	res.Code = code
	res.Status = StatusFailure
	if code == CodeSuccess {
		res.Status = StatusSuccess
		res.Message = "task completed"
	} else {
		res.Err = err
		res.Message = r.sec.mask(err.Error())
	}
	res.DurationMS = time.Since(r.started).Milliseconds()
	ev := r.a.cfg.logger.Info()
	if code != CodeSuccess {
		ev = r.a.cfg.logger.Warn()
	}
	ev.Str("code", string(code)).Int("iterations", res.Iterations).Int64("duration_ms", res.DurationMS).
		Msg(res.Message)
	return res
}

func (r *run) record(s Step) {
	r.res.Steps = append(r.res.Steps, s)
	r.res.Usage = r.res.Usage.Add(s.Usage)
	if r.a.cfg.observer != nil {
		r.a.cfg.observer.OnStep(s)
	}
}

// iterOut is what one iteration produced; the loop applies it only if the
// iteration finished within its bound.
type iterOut struct {
	obs       Message
	assistant Message
	results   []Message
	step      Step
	done      *string
	fail      *string
	noTool    bool
}

// apply appends an iteration's messages and trims older observations so the
// conversation does not grow by a snapshot every iteration.
func (r *run) apply(out *iterOut) {
	for _, i := range r.obsIdx {
		r.msgs[i].Content = trimmedObservation(r.msgs[i].Content)
	}
	r.obsIdx = append(r.obsIdx[:0], len(r.msgs))
	r.msgs = append(r.msgs, out.obs, out.assistant)
	r.msgs = append(r.msgs, out.results...)
	if out.noTool {
		r.msgs = append(r.msgs, Message{Role: RoleUser, Content: reminder})
	}
}

// browserError marks a browser failure that is not the model's to correct.
type browserError struct{ err error }

func (e *browserError) Error() string { return "browser: " + e.err.Error() }
func (e *browserError) Unwrap() error { return e.err }

// progress lets the loop report where a timed-out iteration was stuck.
type progress struct {
	mu   sync.Mutex
	step Step
	at   string
}

func (p *progress) set(f func(s *Step), phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if f != nil {
		f(&p.step)
	}
	p.at = phase
}

func (p *progress) snapshot() stepAt {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.step
	s.Actions = append([]ActionRecord(nil), s.Actions...)
	return stepAt{Step: s, at: p.at}
}

type stepAt struct {
	Step
	at string
}

func (s stepAt) phase() string {
	if s.at == "" {
		return "starting"
	}
	return s.at
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// iterate runs one observe-decide-act iteration. It must not touch r's
// mutable state: it works on its own copy of the messages and returns what
// to append.
func (r *run) iterate(ctx context.Context, iter int, msgs []Message, p *progress) (*iterOut, error) {
	out := &iterOut{}
	p.set(nil, "taking a snapshot of the page")
	t0 := time.Now()
	snap, err := r.a.browser.Snapshot(ctx)
	if err != nil {
		return nil, &browserError{fmt.Errorf("snapshot: %w", err)}
	}
	obs := observation(snap, r.sec, iter, r.a.cfg.maxIterations)
	out.obs = Message{Role: RoleUser, Content: obs}
	p.set(func(s *Step) { s.URL = snap.URL; s.SnapshotMS = ms(time.Since(t0)) }, "waiting for the model")

	t1 := time.Now()
	reply, err := r.a.model.Complete(ctx, Request{Messages: append(msgs, out.obs), Tools: toolDefs()})
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	out.assistant = Message{Role: RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls}
	p.set(func(s *Step) {
		s.LLMMS = ms(time.Since(t1))
		s.Usage = reply.Usage
		s.Thought = r.sec.mask(strings.TrimSpace(reply.Content))
	}, "acting")
	if len(reply.ToolCalls) == 0 {
		out.noTool = true
		out.step = p.snapshot().Step
		return out, nil
	}

	t2 := time.Now()
	stopped := ""
	for _, tc := range reply.ToolCalls {
		rec := ActionRecord{Tool: tc.Name, Args: safeArgs(tc.Arguments, r.sec)}
		ta := time.Now()
		text, terminal, err := r.execute(ctx, tc, out, stopped)
		if err != nil {
			return nil, err
		}
		rec.Outcome = r.sec.mask(text)
		rec.MS = ms(time.Since(ta))
		if strings.HasPrefix(text, "error: ") {
			rec.Error = true
			if stopped == "" {
				stopped = "not run: an earlier call in this reply failed"
			}
		}
		if terminal && stopped == "" {
			stopped = "not run: the task already ended"
		}
		out.results = append(out.results, Message{Role: RoleTool, ToolCallID: tc.ID, Content: rec.Outcome})
		p.set(func(s *Step) { s.Actions = append(s.Actions, rec) }, "acting")
	}
	p.set(func(s *Step) { s.ActionMS = ms(time.Since(t2)) }, "acting")
	out.step = p.snapshot().Step
	return out, nil
}

// execute runs one tool call. It returns the text for the model, whether
// the call ended the task, and an error only for failures that end the
// iteration.
func (r *run) execute(ctx context.Context, tc ToolCall, out *iterOut, skip string) (string, bool, error) {
	if skip != "" {
		return skip, false, nil
	}
	c, err := parseCall(tc)
	if err != nil {
		return "error: " + err.Error(), false, nil
	}
	switch tc.Name {
	case ToolDone:
		out.done = &c.answer
		return "task finished", true, nil
	case ToolFail:
		out.fail = &c.reason
		return "task abandoned", true, nil
	}
	// An iteration abandoned by its watchdog must not act any more.
	if err := ctx.Err(); err != nil {
		return "", false, err
	}
	text, err := r.a.browser.Do(ctx, r.sec.fillAction(c.action))
	var ae *ActionError
	switch {
	case err == nil:
		return text, false, nil
	case errors.As(err, &ae) && ctx.Err() == nil:
		return "error: " + ae.Msg, false, nil
	case ctx.Err() != nil:
		return "", false, err
	default:
		return "", false, &browserError{fmt.Errorf("%s: %w", tc.Name, err)}
	}
}
