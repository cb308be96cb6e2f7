package fleet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/eval/suite"
)

// signalTimeout bounds one signal from a run to its workflow.
const signalTimeout = 10 * time.Second

// runContext is the context of one run: the activity's, also ended by the
// worker stopping or a stop delivered to it, heartbeating until it ends.
func (w *Worker) runContext(ctx context.Context, s Settings, progress func() any) (context.Context, context.CancelCauseFunc) {
	rctx, stop := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-activity.GetWorkerStopChannel(ctx):
			stop(fmt.Errorf("fleet: worker %s stopped", w.identity))
		case <-rctx.Done():
		}
	}()
	go heartbeat(rctx, s.heartbeat()/4, progress)
	return rctx, stop
}

// runTask is the activity that runs a submitted task with a browser of the
// worker's.
func (w *Worker) runTask(ctx context.Context, t Task) (*Outcome, error) {
	info := activity.GetInfo(ctx)
	wid, attempt := info.WorkflowExecution.ID, int(info.Attempt)
	if w.cfg.Model == nil {
		return nil, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("worker %s has no model of its own, which a submitted task needs: start workers with --model and --base-url (or $WEBAGENT_MODEL and $OPENAI_BASE_URL)", w.identity),
			ErrTypeNoModel, nil)
	}
	if err := agent.CheckTask(agent.Task{URL: t.URL, Instruction: t.Instruction}, t.SecretNames...); err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeBadTask, nil)
	}
	secrets, err := w.resolveSecrets(t.SecretNames)
	if err != nil {
		return nil, err
	}
	opts, err := taskOptions(t)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeBadTask, nil)
	}
	var iteration atomic.Int64
	rctx, stop := w.runContext(ctx, t.Fleet, func() any { return map[string]int64{"iteration": iteration.Load()} })
	defer stop(nil)
	live := &liveRun{answers: make(chan string, 1), stop: stop}
	defer w.register(runKey{wid, attempt}, live)()
	view := w.openView(wid, attempt, t, secrets)
	var res *agent.Result
	defer func() { view.close(res) }()
	if err := w.signal(rctx, wid, signalStarted, started{Attempt: attempt, Worker: w.identity, Queue: w.queue, Live: view.sealedURLs()}); err != nil {
		return nil, err
	}
	w.log.Info("task started", "workflow", wid, "attempt", attempt)

	url, release, err := w.browsers.take(rctx)
	if err != nil {
		return nil, err // the worker's Chromium: retried, maybe elsewhere
	}
	defer release()
	bopts := w.cfg.Browser
	bopts.CDPURL, bopts.Isolated = url, true
	lctx, cancel := context.WithTimeout(rctx, startTimeout)
	b, err := browser.Launch(lctx, bopts)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("opening a tab in the worker's Chromium: %w", err)
	}
	defer func() {
		view.detach()
		_ = b.Close()
	}()
	view.attach(b)

	ask := func(q string) map[string]any {
		return map[string]any{"attempt": attempt, "iteration": iteration.Load(), "question": q}
	}
	human := agent.HumanFunc(func(ctx context.Context, q string) (string, error) {
		_ = w.signal(ctx, wid, signalQuestion, ask(q))
		select {
		case a := <-live.answers:
			return a, nil
		case <-ctx.Done():
			return "", context.Cause(ctx)
		}
	})
	// A question answered in the live view's page leaves status.
	answered := func() { _ = w.signal(rctx, wid, signalQuestion, ask("")) }
	opts = append(append(append([]agent.Option{agent.WithLogger(w.log)}, w.cfg.Options...), opts...),
		agent.WithHuman(view.human(human, answered), t.Limits.Effective().HumanTimeout),
		agent.WithObserver(agent.ObserverFunc(func(s agent.Step) {
			iteration.Store(int64(s.Iteration))
			activity.RecordHeartbeat(ctx, map[string]int64{"iteration": int64(s.Iteration)})
		})))
	opts = append(opts, view.options()...)
	a, err := agent.New(b, w.cfg.Model, opts...)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeBadTask, nil)
	}
	res = a.Run(rctx, agent.Task{URL: t.URL, Instruction: t.Instruction, Secrets: secrets, AnswerSchema: t.AnswerSchema})
	w.log.Info("task ended", "workflow", wid, "attempt", attempt, "code", res.Code)
	if res.Code == agent.CodeCanceled && rctx.Err() != nil && !errors.Is(context.Cause(rctx), errStopped) {
		// The worker is stopping, or Temporal gave up on this attempt:
		// not the task's end.
		return nil, fmt.Errorf("the run ended with its worker: %w", context.Cause(rctx))
	}
	return &Outcome{Result: res, Attempts: attempt, Worker: w.identity}, nil
}

// taskOptions are the agent options of a task's own settings.
func taskOptions(t Task) ([]agent.Option, error) {
	if err := t.Limits.Validate(); err != nil {
		return nil, err
	}
	return []agent.Option{agent.WithLimits(t.Limits), agent.WithNavigation(t.Navigation)}, nil
}

// resolveSecrets finds the named secrets in the worker's configuration.
func (w *Worker) resolveSecrets(names []string) (map[string]string, error) {
	out := map[string]string{}
	var missing []string
	for _, n := range names {
		v, ok := w.cfg.Secrets[n]
		if !ok {
			missing = append(missing, n)
			continue
		}
		out[n] = v
	}
	if len(missing) > 0 {
		return nil, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("worker %s has no secret named %s: give workers the task's secrets with --secret NAME=VALUE", w.identity, strings.Join(missing, ", ")),
			ErrTypeNoSecret, nil)
	}
	return out, nil
}

// signal signals the run's workflow, bounded.
func (w *Worker) signal(ctx context.Context, wid, name string, arg any) error {
	sctx, cancel := context.WithTimeout(ctx, signalTimeout)
	defer cancel()
	if err := w.c.SignalWorkflow(sctx, wid, "", name, arg); err != nil {
		return fmt.Errorf("telling the workflow %s: %w", name, err)
	}
	return nil
}

// runEpisode is the activity that runs one eval episode: a built-in task,
// its site and checks on this worker, with the reference model or the
// worker's.
func (w *Worker) runEpisode(ctx context.Context, e Episode) (*EpisodeResult, error) {
	var task *suite.Task
	for _, t := range w.tasks {
		if t.Suite == e.Suite && t.ID == e.ID {
			task = t
		}
	}
	if task == nil {
		return nil, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("worker %s has no built-in task %s/%s: are the fleet's workers the same version as the eval?", w.identity, e.Suite, e.ID),
			ErrTypeBadTask, nil)
	}
	if e.WorkerModel && w.cfg.Model == nil {
		return nil, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("worker %s has no model of its own, which this eval measures: start workers with --model and --base-url", w.identity),
			ErrTypeNoModel, nil)
	}
	attempt := int(activity.GetInfo(ctx).Attempt)
	rctx, stop := w.runContext(ctx, e.Fleet, func() any { return nil })
	defer stop(nil)
	url, release, err := w.browsers.take(rctx)
	if err != nil {
		return nil, err
	}
	defer release()
	cfg := eval.Config{
		Workers: 1, CDPURLs: []string{url}, Browser: w.cfg.Browser,
		Options: append(append([]agent.Option{}, w.cfg.Options...), agent.WithLimits(e.Limits)),
		Logger:  w.log,
	}
	if e.WorkerModel {
		cfg.Model, cfg.ModelName = w.cfg.Model, w.cfg.ModelName
	}
	w.log.Info("episode started", "task", e.Suite+"/"+e.ID, "attempt", attempt)
	rep := eval.NewRunner(cfg).Run(rctx, eval.TaskJobs([]*suite.Task{task}))
	if rctx.Err() != nil || len(rep.Runs) == 0 {
		return nil, fmt.Errorf("the episode ended with its worker: %w", context.Cause(rctx))
	}
	run := rep.Runs[0]
	run.Attempts = attempt
	w.log.Info("episode ended", "task", e.Suite+"/"+e.ID, "attempt", attempt, "success", run.Success)
	return &EpisodeResult{Run: run, Worker: w.identity}, nil
}
