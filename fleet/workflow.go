package fleet

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/eval/report"
)

// Workflows run on Temporal's replay: they only decide, and everything
// that touches the world (a browser, a model, a clock) is an activity.

// deliverTimeout bounds one delivery to a run's worker: a worker that is
// gone does not hold the workflow.
const deliverTimeout = 30 * time.Second

// cancelGrace is how long a cancelled task's workflow waits, past the
// iteration bound, for its run to return its CANCELED result.
const cancelGrace = 30 * time.Second

// runOptions are the activity options of one task's or episode's run: on
// the shared queue, start-to-close from the task bound, heartbeats, and
// Temporal's retries standing for the restarts.
func runOptions(queue string, l agent.Limits, s Settings) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		TaskQueue:           queue,
		StartToCloseTimeout: runBound(l),
		HeartbeatTimeout:    s.heartbeat(),
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        time.Second,
			BackoffCoefficient:     1,
			MaximumAttempts:        int32(max(s.Restarts, 0) + 1),
			NonRetryableErrorTypes: []string{ErrTypeNoModel, ErrTypeNoSecret, ErrTypeBadTask},
		},
	}
}

// TaskWorkflow runs one task on the fleet and returns its outcome. Its
// state (phase, attempt, worker, iteration, pending question) answers the
// state query; an answer signal reaches the run's ask_human; a cancel ends
// the run as CANCELED.
func TaskWorkflow(ctx workflow.Context, t Task) (*Outcome, error) {
	st := &State{Phase: "queued"}
	if err := workflow.SetQueryHandler(ctx, queryState, func() (State, error) { return *st, nil }); err != nil {
		return nil, err
	}
	wid := workflow.GetInfo(ctx).WorkflowExecution.ID
	queue := workflow.GetInfo(ctx).TaskQueueName

	// The run does not end with the workflow's context: a cancel is
	// delivered to its worker, which ends it as CANCELED and returns the
	// result.
	detached, _ := workflow.NewDisconnectedContext(ctx)
	runCtx, stopRun := workflow.WithCancel(detached)
	runCtx = workflow.WithActivityOptions(runCtx, runOptions(queue, t.Limits, t.Fleet))
	run := workflow.ExecuteActivity(runCtx, activityRunTask, t)

	deliver := func(d delivery) {
		if st.queue == "" {
			return
		}
		d.WorkflowID, d.Attempt = wid, st.Attempt
		dctx, _ := workflow.NewDisconnectedContext(ctx)
		dctx = workflow.WithActivityOptions(dctx, workflow.ActivityOptions{
			TaskQueue: st.queue, ScheduleToCloseTimeout: deliverTimeout,
			RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
		})
		workflow.ExecuteActivity(dctx, activityDeliver, d)
	}

	var (
		out      Outcome
		runErr   error
		finished bool
	)
	sel := workflow.NewSelector(ctx)
	sel.AddFuture(run, func(f workflow.Future) { runErr = f.Get(ctx, &out); finished = true })
	sel.AddReceive(workflow.GetSignalChannel(ctx, signalStarted), func(c workflow.ReceiveChannel, _ bool) {
		var s started
		c.Receive(ctx, &s)
		st.Phase, st.Attempt, st.Worker, st.queue, st.Question, st.Iteration = "running", s.Attempt, s.Worker, s.Queue, "", 0
		st.live = s.Live
	})
	if err := handleLive(ctx, sel, st); err != nil {
		return nil, err
	}
	sel.AddReceive(workflow.GetSignalChannel(ctx, signalQuestion), func(c workflow.ReceiveChannel, _ bool) {
		var q struct {
			Attempt   int    `json:"attempt"`
			Iteration int    `json:"iteration"`
			Question  string `json:"question"`
		}
		c.Receive(ctx, &q)
		if q.Attempt == st.Attempt {
			st.Iteration = max(st.Iteration, q.Iteration)
			st.Question, st.AskedAt = q.Question, q.Iteration
			if q.Question == "" { // answered in the live view
				st.AskedAt = 0
			}
		}
	})
	sel.AddReceive(workflow.GetSignalChannel(ctx, signalAnswer), func(c workflow.ReceiveChannel, _ bool) {
		var text string
		c.Receive(ctx, &text)
		deliver(delivery{Answer: text})
		st.Question = ""
	})
	canceled := false
	sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) { canceled = true })
	for !finished && !canceled {
		sel.Select(ctx)
	}
	if canceled {
		st.CancelRequested = true
		if st.queue == "" {
			// No worker has it yet: the scheduled run is withdrawn.
			stopRun()
		} else {
			deliver(delivery{Stop: true})
		}
		wctx, _ := workflow.NewDisconnectedContext(ctx)
		timer := workflow.NewTimer(wctx, iterationBound(t.Limits)+cancelGrace)
		wait := workflow.NewSelector(wctx)
		wait.AddFuture(run, func(f workflow.Future) { runErr = f.Get(wctx, &out); finished = true })
		wait.AddFuture(timer, func(workflow.Future) {})
		wait.Select(wctx)
		if !finished || runErr != nil {
			st.Phase = "done"
			return &Outcome{Result: &agent.Result{
				Status: agent.StatusFailure, Code: agent.CodeCanceled, Steps: []agent.Step{},
				Message: "canceled before a worker ran it",
			}, Attempts: st.Attempt, Worker: st.Worker}, nil
		}
	}
	st.Phase, st.Question = "done", ""
	if runErr != nil {
		return lostOutcome(runErr, st)
	}
	return &out, nil
}

// handleLive keeps the sealed URLs of the run's live view for the live
// query, new ones too (after a viewer revoked the old).
func handleLive(ctx workflow.Context, sel workflow.Selector, st *State) error {
	if err := workflow.SetQueryHandler(ctx, queryLive, func() (liveState, error) {
		if st.Phase != "running" {
			return liveState{}, nil
		}
		return liveState{Attempt: st.Attempt, Worker: st.Worker, Sealed: st.live}, nil
	}); err != nil {
		return err
	}
	sel.AddReceive(workflow.GetSignalChannel(ctx, signalLive), func(c workflow.ReceiveChannel, _ bool) {
		var s liveSignal
		c.Receive(ctx, &s)
		if s.Attempt == st.Attempt {
			st.live = s.Sealed
		}
	})
	return nil
}

// lostOutcome is the outcome of a task whose run failed as an activity:
// a refusal (no model, an unknown secret) is the workflow's error; a
// worker that died on every attempt is WORKER_LOST.
func lostOutcome(err error, st *State) (*Outcome, error) {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) && (appErr.Type() == ErrTypeNoModel || appErr.Type() == ErrTypeNoSecret || appErr.Type() == ErrTypeBadTask) {
		return nil, err
	}
	return &Outcome{Result: &agent.Result{
		Status: agent.StatusFailure, Code: CodeWorkerLost, Steps: []agent.Step{},
		Message: fmt.Sprintf("the task's worker was lost on each of its %d attempts: %v", max(st.Attempt, 1), err),
	}, Attempts: st.Attempt, Worker: st.Worker}, nil
}

// EpisodeWorkflow runs one eval episode on the fleet and returns its
// report run.
func EpisodeWorkflow(ctx workflow.Context, e Episode) (*EpisodeResult, error) {
	queue := workflow.GetInfo(ctx).TaskQueueName
	actx := workflow.WithActivityOptions(ctx, runOptions(queue, e.Limits, e.Fleet))
	var res EpisodeResult
	err := workflow.ExecuteActivity(actx, activityRunEpisode, e).Get(ctx, &res)
	if err == nil {
		return &res, nil
	}
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) && appErr.Type() == ErrTypeBadTask {
		return nil, err
	}
	attempts := max(e.Fleet.Restarts, 0) + 1
	return &EpisodeResult{Run: report.Run{
		Suite: e.Suite, ID: e.ID, Kind: "task", Code: string(CodeWorkerLost), Attempts: attempts,
		Message: fmt.Sprintf("the episode's worker was lost on each of its %d attempts: %v", attempts, err),
		Checks:  nil, Steps: []report.Step{},
	}}, nil
}
