// Package agent runs a web task to its end: observe the page, ask the model,
// act, repeat, until the model calls done or fail, or a bound ends the task.
//
// The loop depends on two small interfaces, [Browser] and [Model], defined
// in package contract with the types they speak and kept here as aliases
// (agent.Model is [contract.Model]); package browser (Chromium over CDP)
// and package llm (any OpenAI-compatible endpoint) implement them, and an
// embedder can supply either.
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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	// AnswerSchema, a JSON Schema, makes the answer structured: done's
	// answer must match it, and [Result.Object] holds it.
	AnswerSchema json.RawMessage
}

// Agent runs tasks with one browser and one model. An Agent is not meant to
// run two tasks at once on the same browser.
type Agent struct {
	browser Browser
	model   Model
	cfg     config
}

// New returns an Agent, or an error when an option is out of range.
// Settings that are valid but probably not meant are logged as warnings.
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
	if _, ok := b.(Screenshotter); cfg.vision && !ok {
		return nil, errors.New("agent: vision needs a browser that can take screenshots (agent.Screenshotter)")
	}
	for _, w := range cfg.warnings() {
		cfg.logger.Warn(w)
	}
	return &Agent{browser: b, model: m, cfg: cfg}, nil
}

var errTaskTimeout = errors.New("task timeout")

// recoverTimeout bounds one page recovery after a timeout.
const recoverTimeout = 30 * time.Second

// run is the state of one task. Only the goroutine running Agent.Run reads
// or writes it, except asks, which is safe for concurrent use.
type run struct {
	a       *Agent
	task    Task
	sec     *secrets
	fence   fence // marks page text as data
	tools   *toolset
	asks    *asks
	msgs    []Message
	obsIdx  []int // indexes of observation messages, to trim old ones
	imgIdx  []int // indexes of messages with screenshots, shown once
	notes   []string
	res     *Result
	started time.Time
	ctx     context.Context // the caller's, for the tracer

	nudged      bool   // the model was reminded to call a tool
	consecutive int    // failed tool calls in a row
	errors      int    // failed tool calls in all
	timeouts    int    // iterations that timed out (recover policy)
	phase       string // where the last timed-out iteration was
	repeats     map[string]repeat
	answer      *answerSchema // Task.AnswerSchema, compiled
	refused     int           // answers refused by the schema
}

// repeat tracks one action on one page state.
type repeat struct {
	count   int
	outcome string
}

// Run performs the task and returns how it ended. It never returns nil and
// never blocks past its bounds.
func (a *Agent) Run(ctx context.Context, task Task) *Result {
	r := a.newRun(ctx, task)
	a.cfg.logger.Debug("task started", "url", task.URL, "max_iterations", a.cfg.maxIterations, "iteration_timeout", a.cfg.iterationTimeout)

	taskCtx, cancelTask := a.taskContext(ctx)
	defer cancelTask()
	if a.cfg.human != nil {
		r.asks = newAsks(taskCtx, a.cfg.human)
		// Questions still queued end with the task; wait for their
		// goroutines so none outlives Run.
		defer r.asks.wg.Wait()
		defer cancelTask()
	}
	if code, err := r.start(taskCtx); err != nil {
		return r.finish(ctx, taskCtx, code, err)
	}
	for i := 1; i <= a.cfg.maxIterations; i++ {
		if code, end, err := r.runIteration(ctx, taskCtx, i); end {
			return r.finish(ctx, taskCtx, code, err)
		}
	}
	return r.finish(ctx, taskCtx, CodeMaxIterations,
		fmt.Errorf("the task was not finished within %d iterations", a.cfg.maxIterations))
}

// newRun returns the state of one Run of task: its secrets, tools and
// first messages (the system prompt and the task).
func (a *Agent) newRun(ctx context.Context, task Task) *run {
	r := &run{
		a: a, task: task, sec: newSecrets(task.Secrets, task.URL), fence: newFence(),
		tools:   newToolset(a.cfg.human != nil, a.cfg.humanTimeout, a.cfg.vision),
		res:     &Result{Steps: []Step{}},
		started: time.Now(),
		repeats: map[string]repeat{},
		ctx:     ctx,
	}
	r.tools.addCustom(a.cfg.customTools)
	r.msgs = []Message{
		{Role: RoleSystem, Content: systemPrompt(r.sec.names(), a.cfg.human != nil, r.fence) + operatorSection(a.cfg.extraPrompt)},
		{Role: RoleUser, Content: "Task: " + r.sec.mask(task.Instruction)},
	}
	return r
}

// taskContext returns the context of a task: ctx, bounded by the task
// timeout when there is one, and the function that cancels it.
func (a *Agent) taskContext(ctx context.Context) (context.Context, context.CancelFunc) {
	taskCtx, cancelTask := context.WithCancel(ctx)
	if a.cfg.taskTimeout <= 0 {
		return taskCtx, cancelTask
	}
	timed, cancelTimeout := context.WithTimeoutCause(taskCtx, a.cfg.taskTimeout, errTaskTimeout)
	return timed, func() {
		cancelTimeout()
		cancelTask()
	}
}

// start prepares the task before its first iteration: the answer schema,
// the navigation policy and the start URL. An error ends the task with the
// code returned.
func (r *run) start(taskCtx context.Context) (Code, error) {
	if len(r.task.AnswerSchema) > 0 {
		var err error
		if r.answer, err = compileAnswerSchema(r.task.AnswerSchema); err != nil {
			return CodeAgentFailed, err
		}
		r.tools.useAnswerSchema(r.answer)
		r.msgs[0].Content += "\n- The answer of done is JSON matching the schema of done's answer parameter."
	}
	if err := r.confine(); err != nil {
		return CodeBrowserError, err
	}
	if r.task.URL == "" {
		return "", nil
	}
	err := watchdog.Do(taskCtx, "opening the start URL", r.a.cfg.startTimeout, func(ctx context.Context) error {
		_, err := r.a.browser.Do(ctx, Action{Name: ActGoto, URL: r.task.URL})
		return err
	})
	if err != nil {
		return CodeBrowserError, fmt.Errorf("could not open %s: %w", r.task.URL, err)
	}
	return "", nil
}

// runIteration runs iteration i: it brings the messages up to date, asks
// the model and performs its calls within the iteration timeout, and
// applies the outcome. end reports whether the task ends, with code and
// err.
func (r *run) runIteration(ctx, taskCtx context.Context, i int) (code Code, end bool, err error) {
	r.res.Iterations = i
	r.prepareMessages()
	prog := &progress{step: Step{Iteration: i, Actions: []ActionRecord{}}}
	msgs := append([]Message(nil), r.msgs...)
	out, err := watchdog.Run(taskCtx, fmt.Sprintf("iteration %d", i), r.a.cfg.iterationTimeout,
		func(ictx context.Context) (*iterOut, error) { return r.iterate(ictx, i, msgs, prog) })
	if err != nil {
		code, end = r.iterationFailed(ctx, taskCtx, prog, err)
		return code, end, err
	}
	code, err = r.apply(out)
	r.record(out.step)
	if err != nil {
		return code, true, err
	}
	return r.ending(out)
}

// prepareMessages adds the notes gathered since the last iteration (the
// human's answers among them) and trims the older observations: the
// iteration brings a fresh snapshot, and older ones keep only their header,
// so tokens do not grow with every iteration.
func (r *run) prepareMessages() {
	if r.asks != nil {
		r.notes = append(r.notes, r.asks.delivered()...)
	}
	for _, n := range r.notes {
		r.msgs = append(r.msgs, Message{Role: RoleUser, Content: n})
	}
	r.notes = nil
	for _, j := range r.obsIdx {
		r.msgs[j].Content = trimmedObservation(r.msgs[j].Content)
	}
}

// ending decides from an applied iteration whether the task ends, and how:
// the model called done or fail, the environment ended the episode, or the
// model answered twice in a row without calling a tool.
func (r *run) ending(out *iterOut) (code Code, end bool, err error) {
	switch {
	case out.done != nil:
		r.res.Answer = r.sec.mask(*out.done)
		if r.answer != nil && json.Valid([]byte(r.res.Answer)) {
			r.res.Object = json.RawMessage(r.res.Answer)
		}
		return CodeSuccess, true, nil
	case out.fail != nil:
		return CodeAgentFailed, true, fmt.Errorf("the agent gave up: %s", r.sec.mask(*out.fail))
	case out.over != nil && out.over.Success:
		return CodeSuccess, true, nil
	case out.over != nil:
		return CodeAgentFailed, true, fmt.Errorf("the environment ended the task: %s", r.sec.mask(out.over.Message))
	case out.noTool:
		if r.nudged {
			return CodeAgentFailed, true, errors.New("the model answered twice without calling a tool")
		}
		r.nudged = true
	default:
		r.nudged = false
	}
	return "", false, nil
}

// iterationFailed records a failed iteration and decides whether the task
// ends (and with which code) or goes on.
func (r *run) iterationFailed(ctx, taskCtx context.Context, prog *progress, err error) (Code, bool) {
	sa := prog.snapshot()
	step := sa.Step
	var te *watchdog.TimeoutError
	isTimeout := errors.As(err, &te)
	if isTimeout {
		r.phase = sa.phase()
		step.Error = fmt.Sprintf("timed out after %s while %s", te.Budget, sa.phase())
	} else {
		step.Error = r.sec.mask(err.Error())
	}
	r.record(step)
	if ctx.Err() != nil || taskCtx.Err() != nil {
		return codeFor(err), true
	}
	switch {
	case errors.Is(err, ErrMalformedReply):
		r.errors++
		r.consecutive++
		if code, over := r.overBudget(); over {
			return code, true
		}
		r.notes = append(r.notes, fmt.Sprintf("Your last reply could not be read (%s). Reply again, calling a tool.", r.sec.mask(err.Error())))
		return "", false
	case isTimeout && r.a.cfg.timeoutPolicy == PolicyRecover:
		r.timeouts++
		if r.timeouts >= r.a.cfg.maxTimeouts {
			return CodeIterationTimeout, true
		}
		note := fmt.Sprintf("Your last step timed out after %s while %s and was abandoned.", te.Budget, sa.phase())
		if what := r.recoverPage(taskCtx); what != "" {
			note += " " + what
		}
		r.notes = append(r.notes, note+" Look at the new observation and go on.")
		r.a.cfg.logger.Warn(step.Error+"; recovering", "iteration", step.Iteration, "timeouts", r.timeouts)
		return "", false
	}
	return codeFor(err), true
}

// recoverPage asks a Recoverer browser to bring the page back, within its
// own bound, and says what happened.
func (r *run) recoverPage(ctx context.Context) string {
	rec, ok := r.a.browser.(Recoverer)
	if !ok {
		return ""
	}
	what, err := watchdog.Run(ctx, "recovering the page", recoverTimeout, rec.Recover)
	if err != nil {
		return "Recovering the page failed: " + r.sec.mask(err.Error()) + "."
	}
	return r.sec.mask(what)
}

func (r *run) overBudget() (Code, bool) {
	if r.consecutive > r.a.cfg.maxConsecutive || r.errors > r.a.cfg.maxErrors {
		return CodeMaxErrors, true
	}
	return "", false
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
		if r.phase != "" && errors.Is(err, watchdog.ErrTimeout) {
			err = fmt.Errorf("%w while %s", err, r.phase)
		}
		res.Err = err
		res.Message = r.sec.mask(err.Error())
	}
	res.DurationMS = time.Since(r.started).Milliseconds()
	r.a.cfg.logger.Info(res.Message, "code", string(code), "iterations", res.Iterations, "duration_ms", res.DurationMS)
	return res
}

func (r *run) record(s Step) {
	r.res.Steps = append(r.res.Steps, s)
	r.res.Usage = r.res.Usage.Add(s.Usage)
	if r.a.cfg.observer != nil {
		r.a.cfg.observer.OnStep(s)
	}
	r.traceStep(s)
}

// iterOut is what one iteration produced; the loop applies it only if the
// iteration finished within its bound.
type iterOut struct {
	obs       Message
	page      string   // fingerprint of the page the actions were taken on
	pages     []string // per tool call, the page state it was taken on ("": page)
	assistant Message
	results   []Message // one per tool call, aligned with step.Actions
	images    [][]byte  // screenshots taken, shown to the model next
	step      Step
	done      *string
	fail      *string
	over      *TaskOver // the environment ended the task
	seen      string    // the snapshot's text, for wait_for
	noTool    bool
}

// apply appends an iteration's messages and keeps the error budget and the
// repetition count. It returns a code when the task
// must end.
func (r *run) apply(out *iterOut) (Code, error) {
	var code Code
	var endErr error
	for i, rec := range out.step.Actions {
		if rec.Tool == ToolDone && rec.Error && r.answer != nil {
			r.refused++
			if r.refused > MaxAnswerRetries && code == "" {
				code, endErr = CodeAgentFailed, fmt.Errorf("the answer did not match the schema %d times: %s", r.refused, strings.TrimPrefix(rec.Outcome, "error: "))
			}
		}
		if rec.Skipped || rec.Tool == ToolDone || rec.Tool == ToolFail {
			continue
		}
		if rec.Error {
			r.errors++
			r.consecutive++
		} else {
			r.consecutive = 0
		}
		page := out.page
		if i < len(out.pages) && out.pages[i] != "" {
			page = out.pages[i]
		}
		key := page + "\x00" + rec.Tool + "\x00" + string(rec.Args)
		rp := r.repeats[key]
		if rp.count > 0 && rp.outcome == rec.Outcome {
			rp.count++
		} else {
			rp = repeat{count: 1, outcome: rec.Outcome}
		}
		r.repeats[key] = rp
		switch {
		case rp.count == 2:
			out.results[i].Content += "\nwarning: you did exactly this on this same, unchanged page before, with the same result. " +
				"Repeating it will not make progress; try something else."
		case rp.count > 2 && code == "":
			code, endErr = CodeAgentStuck, fmt.Errorf("the agent repeated %s %s %d times on an unchanged page", rec.Tool, rec.Args, rp.count)
		}
	}
	if c, over := r.overBudget(); over && code == "" {
		code, endErr = c, fmt.Errorf("too many failed tool calls: %d in a row, %d in all (budget %d in a row, %d in all)",
			r.consecutive, r.errors, r.a.cfg.maxConsecutive, r.a.cfg.maxErrors)
	}

	r.obsIdx = append(r.obsIdx[:0], len(r.msgs))
	r.msgs = append(r.msgs, out.obs, out.assistant)
	r.msgs = append(r.msgs, out.results...)
	// A screenshot is shown once: the model has seen the previous ones.
	for _, i := range r.imgIdx {
		r.msgs[i].Images = nil
		r.msgs[i].Content = "(screenshot omitted: an older view of the page)"
	}
	r.imgIdx = r.imgIdx[:0]
	if len(out.images) > 0 {
		r.imgIdx = append(r.imgIdx, len(r.msgs))
		r.msgs = append(r.msgs, Message{Role: RoleUser, Content: "The screenshot you asked for:", Images: out.images})
	}
	if out.noTool {
		r.msgs = append(r.msgs, Message{Role: RoleUser, Content: reminder})
	}
	return code, endErr
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
	obs := observation(snap, r.sec, r.fence, iter, r.a.cfg.maxIterations)
	r.traceSnapshot(ctx, iter)
	out.obs = Message{Role: RoleUser, Content: obs}
	out.page = fingerprint(snap)
	out.seen = snap.Text
	p.set(func(s *Step) { s.URL = r.sec.mask(snap.URL); s.SnapshotMS = ms(time.Since(t0)) }, "waiting for the model")

	t1 := time.Now()
	req := Request{Messages: append(msgs, out.obs), Tools: r.tools.defs}
	reply, err := r.a.model.Complete(ctx, req)
	r.traceModel(iter, obs, req, reply, err, t1)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	out.assistant = Message{Role: RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls}
	p.set(func(s *Step) {
		s.LLMMS = ms(time.Since(t1))
		s.Usage = reply.Usage
		s.Thought = r.sec.mask(strings.TrimSpace(reply.Content))
		s.Reasoning = boundReasoning(r.sec.mask(strings.TrimSpace(reply.Reasoning)))
	}, "acting")
	if reply.Reasoning != "" {
		r.a.cfg.logger.Debug("model reasoning", "iteration", iter, "bytes", len(reply.Reasoning),
			"reasoning", boundReasoning(r.sec.mask(reply.Reasoning)))
	}
	if len(reply.ToolCalls) == 0 {
		out.noTool = true
		out.step = p.snapshot().Step
		return out, nil
	}

	t2 := time.Now()
	stop := ""
	done := 0 // calls of this reply that ran
	for _, tc := range reply.ToolCalls {
		rec := ActionRecord{Tool: tc.Name, Args: safeArgs(tc.Arguments, r.sec)}
		ta := time.Now()
		structured := false
		state := ""
		if stop == "" && r.tools.acts(tc.Name) {
			state = r.pageState(ctx)
		}
		out.pages = append(out.pages, state)
		if stop != "" {
			rec.Outcome, rec.Skipped = stop, true
		} else {
			res, err := r.execute(ctx, tc, out)
			if err != nil {
				return nil, err
			}
			rec.Outcome, rec.Error, structured = r.sec.mask(res.text), res.failed, res.json
			switch {
			case res.stale && done > 0:
				// The page changed under a later call of the batch: not
				// the model's error.
				rec.Outcome, rec.Error, rec.Skipped = "not run: "+strings.TrimPrefix(rec.Outcome, "error: "), false, true
				stop = "not run: the page changed; look at the new snapshot"
			case res.failed:
				stop = "not run: an earlier call in this reply failed"
			case res.terminal:
				stop = "not run: the task already ended"
			case res.navigated:
				stop = "not run: the page navigated; look at the new snapshot first"
			}
			done++
		}
		rec.MS = ms(time.Since(ta))
		content := rec.Outcome
		switch {
		case rec.Skipped || !r.tools.acts(tc.Name):
		case structured:
			content = r.fence.escape(content)
		default:
			content = r.fence.wrap(content) // it may quote the page
		}
		out.results = append(out.results, Message{Role: RoleTool, ToolCallID: tc.ID, Content: content})
		p.set(func(s *Step) { s.Actions = append(s.Actions, rec) }, "acting")
	}
	p.set(func(s *Step) { s.ActionMS = ms(time.Since(t2)) }, "acting")
	out.step = p.snapshot().Step
	return out, nil
}

// outcome is the result of one tool call as the model will see it.
type outcome struct {
	text      string
	failed    bool
	terminal  bool
	stale     bool // the call named an element that is gone
	navigated bool // the page navigated: the reply's other calls are not run
	json      bool // a JSON result: kept valid, the fence's boundary removed only
}

// execute runs one tool call. Its error is only for failures that end the
// iteration (the iteration's context ended, the browser broke).
func (r *run) execute(ctx context.Context, tc ToolCall, out *iterOut) (outcome, error) {
	c, err := r.tools.parse(tc)
	if err != nil {
		return outcome{text: "error: " + err.Error(), failed: true}, nil
	}
	if c.tool.end != nil {
		return outcome{text: c.tool.end(c, out), terminal: true}, nil
	}
	// An iteration abandoned by its watchdog must not act any more.
	if err := ctx.Err(); err != nil {
		return outcome{}, err
	}
	res, err := r.dispatch(ctx, c, out)
	var te *watchdog.TimeoutError
	var ae *ActionError
	if over, ok := taskOver(err); ok && ctx.Err() == nil {
		out.over = over
		return outcome{text: over.Outcome, terminal: true}, nil
	}
	switch {
	case err == nil:
		return outcome{text: res.Text, navigated: res.Navigated}, nil
	case ctx.Err() != nil:
		return outcome{}, err
	case errors.As(err, &te) && c.tool.late != nil && te.Budget == c.budget:
		return c.tool.late(c), nil
	case errors.As(err, &te):
		return outcome{text: r.operationTimeout(ctx, tc.Name, te.Budget), failed: true, json: true}, nil
	case errors.As(err, &ae):
		return outcome{text: "error: " + ae.Msg, failed: true, stale: errors.Is(err, ErrStaleRef)}, nil
	default:
		return outcome{}, &browserError{fmt.Errorf("%s: %w", tc.Name, err)}
	}
}

// dispatch is the one place every tool runs: under its own budget, and
// under the backstop above all budgets. Work that ignores its context is
// abandoned when either fires; its context is cancelled and its late result
// dropped.
func (r *run) dispatch(ctx context.Context, c call, out *iterOut) (Outcome, error) {
	do := c.tool.do
	if do == nil {
		do = browserAction
	}
	name := c.tool.name
	return watchdog.Run(ctx, "dispatching "+name, r.a.cfg.operationTimeout, func(ctx context.Context) (Outcome, error) {
		return watchdog.Run(ctx, name, c.budget, func(ctx context.Context) (Outcome, error) { return do(ctx, r, c, out) })
	})
}

// operationTimeout is the retryable tool result for an abandoned operation.
// The page is recovered first when the browser can.
func (r *run) operationTimeout(ctx context.Context, tool string, budget time.Duration) string {
	msg := fmt.Sprintf("%s did not finish within %d ms and was abandoned; nothing it does later reaches the page. You may retry it.",
		tool, budget.Milliseconds())
	if what := r.recoverPage(ctx); what != "" {
		msg += " " + what
	}
	b, _ := json.Marshal(map[string]any{
		"error": OperationTimeout, "tool": tool, "budget_ms": budget.Milliseconds(), "retryable": true, "message": msg,
	})
	return string(b)
}

// fingerprint identifies a page state for repetition checks.
func fingerprint(s Snapshot) string {
	h := sha256.Sum256([]byte(s.URL + "\x00" + s.Text))
	return hex.EncodeToString(h[:8])
}
