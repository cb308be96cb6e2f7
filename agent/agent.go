// Package agent runs a web task to its end: observe the page, ask the model,
// act, repeat, until the model calls done or fail, or a bound ends the task.
//
// The loop depends on two small interfaces, [contract.Browser] and
// [contract.Model], defined in package contract with the types they speak
// (as database/sql's driver is its own package); package browser (Chromium
// over CDP) and package llm (any OpenAI-compatible endpoint) implement
// them, and an embedder can supply either.
//
// # Bounds
//
// A run's bounds are one value, [Limits] ([WithLimits]). They nest,
// outermost first:
//
//   - the caller's context (cancel → CANCELED, its deadline → TASK_TIMEOUT);
//   - the task timeout, Limits.TaskTimeout (→ TASK_TIMEOUT);
//   - the start timeout for the first navigation, Limits.StartTimeout
//     (→ BROWSER_ERROR);
//   - the iteration timeout, Limits.IterationTimeout, around each
//     snapshot, model call and action batch (→ ITERATION_TIMEOUT).
//
// Each bound is enforced by racing the work against a timer
// (package watchdog), so work that ignores its context cannot hold the loop;
// the work's context is cancelled and its late result dropped.
//
// # Recordings
//
// With [WithRecording], a [Recording] of an earlier run of the task (package
// cache) gives the replies of the iterations whose page is as recorded, in
// place of the model; each replayed call runs only on the element it was
// recorded on, and [Result.Replay] says what came from where.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/secret"
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
	// observers or results. A value totp:BASE32KEY or otpauth://totp/…
	// is a sign-in code generator (see [secret.ParseOTP]): type enters the
	// code valid when it types. Package secret says how a key binds a
	// secret to an origin (NAME@ORIGIN) and what is masked.
	Secrets map[string]string
	// AnswerSchema, a JSON Schema, makes the answer structured: done's
	// answer must match it, and [Result.Object] holds it.
	AnswerSchema json.RawMessage
}

// Agent runs tasks with one browser and one model. An Agent is not meant to
// run two tasks at once on the same browser.
type Agent struct {
	browser contract.Browser
	model   contract.Model
	cfg     config
}

// New returns an Agent, or an error when an option is out of range.
// Settings that are valid but probably not meant are logged as warnings.
func New(b contract.Browser, m contract.Model, opts ...Option) (*Agent, error) {
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
	if _, ok := b.(contract.Screenshotter); cfg.vision && !ok {
		return nil, errors.New("agent: vision needs a browser that can take screenshots (agent.Screenshotter)")
	}
	if _, ok := b.(contract.MarkedScreenshotter); cfg.visionMarks && !ok {
		return nil, errors.New("agent: vision marks need a browser that can draw refs on a screenshot (contract.MarkedScreenshotter)")
	}
	if _, ok := b.(NativeBrowser); cfg.native != "" && !ok {
		return nil, errors.New("agent: native tools need a browser that gives its viewport's size and screenshots in CSS pixels (agent.NativeBrowser)")
	}
	if _, ok := b.(contract.TargetDescriber); cfg.recording != nil && !ok {
		return nil, errors.New("agent: a recording needs a browser that can tell what an action aims at (agent.TargetDescriber), to replay no call on another element than recorded")
	}
	if _, ok := b.(contract.TargetDescriber); cfg.policy != nil && !ok {
		cfg.logger.Warn("the browser cannot tell what an action aims at (agent.TargetDescriber): policy rules on role, name or form never match")
	}
	for _, w := range cfg.warnings() {
		cfg.logger.Warn(w)
	}
	return &Agent{browser: b, model: m, cfg: cfg}, nil
}

var errTaskTimeout = errors.New("task timeout")

// run is the state of one task. Only the goroutine running Agent.Run reads
// or writes it, except asks, which is safe for concurrent use.
type run struct {
	a        *Agent
	task     Task
	policy   *policy.Policy // the user's, with the one drawn from the task
	sec      *secret.Set
	fence    fence // marks page text as data
	tools    *toolset
	asks     *asks
	msgs     []contract.Message
	view     view   // the page as the model read it (observe.go)
	wantFull bool   // the next observation is the whole page
	prompt   string // the latest request to the model (promptText)
	cacheKey string // contract.Request.CacheKey
	cut      string // how the conversation was cut before this iteration, if it was
	shown    int    // how many of msgs the model was shown: a screenshot among them is dropped
	notes    []string
	res      *Result
	started  time.Time
	ctx      context.Context // the caller's, for the tracer

	nudged      bool   // the model was reminded to call a tool
	checkSeen   bool   // the last snapshot showed a human check standing in front of the page
	consecutive int    // failed tool calls in a row
	errors      int    // failed tool calls in all
	timeouts    int    // iterations that timed out (recover policy)
	phase       string // where the last timed-out iteration was
	repeats     map[string]repeat
	answer      *answerSchema // Task.AnswerSchema, compiled
	refused     int           // answers refused by the schema

	lostSignIn     string // the host whose saved sign-in showed a sign-in page (signinlost.go)
	lostSignInStep int

	cursor atomic.Pointer[contract.Point] // where native calls left the pointer (native.go)

	lastCheck  string          // the human check the last snapshot showed
	handedOver map[string]bool // the URLs whose human check was handed to a person (WithControl)
	typed      int             // values a person typed, masked (control.go)
}

// Run performs the task and returns how it ended. It never returns nil and
// never blocks past its bounds.
func (a *Agent) Run(ctx context.Context, task Task) *Result {
	ctx, span := startTask(ctx, task)
	res := a.runTask(ctx, task)
	endTask(span, res, secret.New(task.Secrets, task.URL))
	return res
}

// runTask is Run under the task's span.
func (a *Agent) runTask(ctx context.Context, task Task) *Result {
	r := a.newRun(ctx, task)
	a.cfg.logger.Debug("task started", "url", task.URL, "max_iterations", a.cfg.lim.MaxIterations, "iteration_timeout", a.cfg.lim.IterationTimeout)

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
	for i := 1; i <= a.cfg.lim.MaxIterations; i++ {
		if code, end, err := r.runIteration(ctx, taskCtx, i); end {
			return r.finish(ctx, taskCtx, code, err)
		}
	}
	return r.finish(ctx, taskCtx, CodeMaxIterations,
		fmt.Errorf("the task was not finished within %d iterations", a.cfg.lim.MaxIterations))
}

// newRun returns the state of one Run of task: its secrets, tools and
// first messages (the system prompt and the task).
func (a *Agent) newRun(ctx context.Context, task Task) *run {
	r := &run{
		a: a, task: task, sec: secret.New(task.Secrets, task.URL), fence: newFence(),
		tools:      a.cfg.toolset(),
		res:        &Result{Steps: []Step{}},
		started:    time.Now(),
		repeats:    map[string]repeat{},
		ctx:        ctx,
		handedOver: map[string]bool{},
		policy:     a.cfg.policy,
	}
	r.tools.addCustom(a.cfg.customTools)
	native := ""
	if a.cfg.native != "" {
		r.tools.useNative(a.browser.(NativeBrowser), a.cfg.native)
		native = nativeNote(r.tools.native)
	}
	if a.cfg.recording != nil {
		r.res.Replay = &ReplaySummary{}
	}
	r.msgs = []contract.Message{
		{Role: contract.RoleSystem, Content: systemPrompt(r.sec.PromptNames(a.cfg.human != nil), a.cfg.human != nil, r.fence) + scriptRule(!a.cfg.noScripts && a.cfg.native == "") + native + operatorSection(a.cfg.extraPrompt)},
		{Role: contract.RoleUser, Content: "Task: " + r.sec.Mask(task.Instruction)},
	}
	return r
}

// taskContext returns the context of a task: ctx, bounded by the task
// timeout when there is one, and the function that cancels it.
func (a *Agent) taskContext(ctx context.Context) (context.Context, context.CancelFunc) {
	taskCtx, cancelTask := context.WithCancel(ctx)
	if a.cfg.lim.TaskTimeout <= 0 {
		return taskCtx, cancelTask
	}
	timed, cancelTimeout := context.WithTimeoutCause(taskCtx, a.cfg.lim.TaskTimeout, errTaskTimeout)
	return timed, func() {
		cancelTimeout()
		cancelTask()
	}
}

// start prepares the task before its first iteration: the answer schema,
// the navigation policy and the start URL. An error ends the task with the
// code returned.
func (r *run) start(taskCtx context.Context) (Code, error) {
	if err := r.sec.Err(); err != nil {
		return CodeAgentFailed, err
	}
	if len(r.task.AnswerSchema) > 0 {
		var err error
		if r.answer, err = compileAnswerSchema(r.task.AnswerSchema); err != nil {
			return CodeAgentFailed, err
		}
		r.tools.useAnswerSchema(r.answer)
		r.msgs[0].Content += "\n- The answer of done is JSON matching the schema of done's answer parameter."
	}
	if err := r.derivePolicy(taskCtx); err != nil {
		if taskCtx.Err() != nil {
			return "", err
		}
		return CodeAgentFailed, err
	}
	if err := r.confine(); err != nil {
		return CodeBrowserError, err
	}
	if r.task.URL == "" {
		return "", nil
	}
	// A person who took over before the run began has the browser first.
	release, err := r.boundary(taskCtx, 1)
	if err != nil {
		return "", err
	}
	defer release()
	err = watchdog.Do(taskCtx, "opening the start URL", r.a.cfg.lim.StartTimeout, func(ctx context.Context) error {
		_, err := r.a.browser.Do(ctx, contract.Action{Name: contract.ActGoto, URL: r.task.URL})
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
	release, err := r.boundary(taskCtx, i)
	if err != nil {
		return CodeCanceled, true, err
	}
	defer release()
	r.res.Iterations = i
	r.prepareMessages()
	prog := &progress{step: Step{Iteration: i, StartMS: ms(time.Since(r.started)), Actions: []ActionRecord{}, Context: r.cut}}
	msgs := append([]contract.Message(nil), r.msgs...)
	in := iterIn{checkSeen: r.checkSeen, spent: r.res.Usage, rec: r.recordingIn(), signInLost: r.lostSignIn != "",
		view: r.view, wantFull: r.wantFull, prompt: r.prompt,
		person: r.a.cfg.control != nil && !r.handedOver[r.view.url]}
	r.iterationStarts(i)
	sctx, span := tracer.Start(taskCtx, "iteration", trace.WithAttributes(attribute.Int("webagent.iteration", i)))
	defer span.End()
	out, err := watchdog.Run(sctx, fmt.Sprintf("iteration %d", i), r.a.cfg.lim.IterationTimeout,
		func(ictx context.Context) (*iterOut, error) { return r.iterate(ictx, i, msgs, in, prog) })
	if err != nil {
		code, end = r.iterationFailed(ctx, taskCtx, prog, err)
		span.SetStatus(codes.Error, string(code)+": "+r.sec.Mask(err.Error()))
		return code, end, err
	}
	code, err = r.apply(out)
	r.countReplay(out)
	r.checkSeen, r.lastCheck = out.checkBlocks, out.check
	if out.signInPage != "" && r.lostSignIn == "" {
		r.lostSignIn, r.lostSignInStep = out.signInPage, i
	}
	r.record(out.step)
	if err != nil {
		return code, true, err
	}
	return r.ending(out)
}

// prepareMessages adds the notes gathered since the last iteration (the
// human's answers among them), and cuts the conversation when it is past
// its limit (cutContext).
func (r *run) prepareMessages() {
	if r.asks != nil {
		r.notes = append(r.notes, r.asks.delivered()...)
	}
	for _, n := range r.notes {
		r.msgs = append(r.msgs, contract.Message{Role: contract.RoleUser, Content: n})
	}
	r.notes = nil
	dropScreenshots(r.msgs[:r.shown])
	r.cut = r.cutContext()
	if r.cacheKey == "" {
		r.cacheKey = cacheKeyOf(r.msgs[0].Content, r.tools.defs)
	}
}

// ending decides from an applied iteration whether the task ends, and how:
// the model called done or fail, the environment ended the episode, or the
// model answered twice in a row without calling a tool.
func (r *run) ending(out *iterOut) (code Code, end bool, err error) {
	switch {
	case out.done != nil:
		r.res.Answer = r.sec.Mask(*out.done)
		if r.answer != nil && json.Valid([]byte(r.res.Answer)) {
			r.res.Object = json.RawMessage(r.res.Answer)
		}
		return CodeSuccess, true, nil
	case out.fail != nil && out.check != "":
		return CodeBlocked, true, fmt.Errorf("the agent gave up on a page that shows %s, which only a person may pass: %s", out.check, r.sec.Mask(*out.fail))
	case out.fail != nil:
		return CodeAgentFailed, true, fmt.Errorf("the agent gave up: %s", r.sec.Mask(*out.fail))
	case out.over != nil && out.over.Success:
		return CodeSuccess, true, nil
	case out.over != nil:
		return CodeAgentFailed, true, fmt.Errorf("the environment ended the task: %s", r.sec.Mask(out.over.Message))
	case out.blocked != "":
		return CodeBlocked, true, errors.New(out.blocked)
	case out.overCost != "":
		return CodeCostLimit, true, errors.New(out.overCost)
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

// finish fills in the result. Context endings override code: a cancel or a
// deadline is reported as such, whatever error it caused downstream.
func (r *run) finish(ctx, taskCtx context.Context, code Code, err error) *Result {
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled):
		code, err = CodeCanceled, fmt.Errorf("canceled: %w", context.Cause(ctx))
	case ctx.Err() != nil:
		code, err = CodeTaskTimeout, fmt.Errorf("the caller's deadline passed: %w", ctx.Err())
	case errors.Is(context.Cause(taskCtx), errTaskTimeout):
		code, err = CodeTaskTimeout, fmt.Errorf("the task timeout of %s passed: %w", r.a.cfg.lim.TaskTimeout, context.DeadlineExceeded)
	}
	code, err = r.signInLost(code, err)
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
		res.Message = r.sec.Mask(err.Error())
	}
	res.StartedAt = r.started
	res.DurationMS = time.Since(r.started).Milliseconds()
	r.a.cfg.logger.Info(res.Message, "code", string(code), "iterations", res.Iterations, "duration_ms", res.DurationMS)
	return res
}

func (r *run) record(s Step) {
	r.res.Steps = append(r.res.Steps, s)
	var decided func(acts []ActionRecord)
	decided = func(acts []ActionRecord) {
		for _, a := range acts {
			if a.Policy != nil {
				d := *a.Policy
				d.Iteration = s.Iteration
				r.res.Policy = append(r.res.Policy, d)
			}
			decided(a.Calls) // a script's calls
		}
	}
	decided(s.Actions)
	r.res.Usage = r.res.Usage.Add(s.Usage)
	for _, o := range r.a.cfg.observers {
		o.OnStep(s)
	}
	r.traceStep(s)
}
