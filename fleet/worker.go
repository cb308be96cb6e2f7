package fleet

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/liveview"
)

// WorkerConfig configures a Worker. The model, its endpoint and key, and
// the secret values are the worker's own: they never travel with a task.
type WorkerConfig struct {
	// TaskQueue is the shared queue; "" means DefaultTaskQueue.
	TaskQueue string
	// Concurrency is how many tasks and episodes run at once, each in a
	// browser context of its own; 0 means 1.
	Concurrency int
	// Model runs submitted tasks and episodes of evals that measure a
	// model. nil: the worker runs only built-in eval episodes with the
	// bundled reference model, and refuses tasks that need a model.
	Model     contract.Model
	ModelName string
	// Secrets are the values of the secrets tasks may name.
	Secrets map[string]string
	// Browser is the template of the worker's browsers (ChromePath,
	// Headful, Logger, ...). Its CDPURL is ignored.
	Browser browser.Options
	// Options are agent options for every task, before the task's limits.
	Options []agent.Option
	// Identity names the worker in results and status; "" makes one from
	// the host name and process id.
	Identity string
	// Logger receives the worker's diagnostics; nil logs nothing.
	Logger *slog.Logger
	// Live, when set, gives every task run a live view on this server
	// (a person watches, answers and takes over), its URLs sealed for
	// the task's submitter (Task.LiveKey, Client.Live). The caller
	// starts and closes the server.
	Live *liveview.Server
}

// Worker runs tasks and episodes from a Temporal task queue.
type Worker struct {
	c        client.Client
	cfg      WorkerConfig
	identity string
	queue    string // this worker's own queue
	log      *slog.Logger

	browsers *pool
	tasks    []*suite.Task // the built-in suites, for episodes

	mu   sync.Mutex
	runs map[runKey]*liveRun
}

type runKey struct {
	workflowID string
	attempt    int
}

// liveRun is a task run in progress on this worker: where answers and a
// stop reach it.
type liveRun struct {
	answers chan string
	stop    context.CancelCauseFunc
}

// NewWorker returns a worker on client c. It starts nothing until Run.
func NewWorker(c client.Client, cfg WorkerConfig) (*Worker, error) {
	if c == nil {
		return nil, errors.New("fleet: a Temporal client is required")
	}
	if cfg.TaskQueue == "" {
		cfg.TaskQueue = DefaultTaskQueue
	}
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Identity == "" {
		host, _ := os.Hostname()
		cfg.Identity = fmt.Sprintf("%s@%d", host, os.Getpid())
	}
	if cfg.Model != nil && cfg.ModelName == "" {
		cfg.ModelName = "custom"
	}
	tasks, err := suite.Builtin()
	if err != nil {
		return nil, fmt.Errorf("fleet: the built-in suites: %w", err)
	}
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	return &Worker{
		c: c, cfg: cfg, identity: cfg.Identity, log: cfg.Logger, tasks: tasks,
		queue:    cfg.TaskQueue + "/" + cfg.Identity + "/" + hex.EncodeToString(suffix[:]),
		browsers: newPool(cfg.Browser, cfg.Concurrency, cfg.Logger),
		runs:     map[runKey]*liveRun{},
	}, nil
}

// Identity is the worker's name in results and status.
func (w *Worker) Identity() string { return w.identity }

// Run polls the shared queue and the worker's own until ctx ends, then
// stops taking work, ends the runs in progress (their tasks start again
// elsewhere, as after a crash, within their restarts) and closes its
// browsers. Its error is a failure to start.
func (w *Worker) Run(ctx context.Context) error {
	defer w.browsers.close()
	shared := worker.New(w.c, w.cfg.TaskQueue, worker.Options{
		MaxConcurrentActivityExecutionSize: w.cfg.Concurrency,
		Identity:                           w.identity,
		// Runs end with the worker: their context is cancelled at once
		// on Stop, and Temporal counts them as failed attempts.
		WorkerStopTimeout: 0,
	})
	shared.RegisterWorkflowWithOptions(TaskWorkflow, workflow.RegisterOptions{Name: TaskWorkflowName})
	shared.RegisterWorkflowWithOptions(EpisodeWorkflow, workflow.RegisterOptions{Name: EpisodeWorkflowName})
	shared.RegisterActivityWithOptions(w.runTask, activity.RegisterOptions{Name: activityRunTask})
	shared.RegisterActivityWithOptions(w.runEpisode, activity.RegisterOptions{Name: activityRunEpisode})
	own := worker.New(w.c, w.queue, worker.Options{Identity: w.identity, DisableWorkflowWorker: true})
	own.RegisterActivityWithOptions(w.deliver, activity.RegisterOptions{Name: activityDeliver})
	if err := own.Start(); err != nil {
		return fmt.Errorf("fleet: starting the worker on %s: %w", w.queue, err)
	}
	defer own.Stop()
	if err := shared.Start(); err != nil {
		return fmt.Errorf("fleet: starting the worker on %s: %w", w.cfg.TaskQueue, err)
	}
	w.log.Info("worker started", "identity", w.identity, "queue", w.cfg.TaskQueue, "concurrency", w.cfg.Concurrency, "model", w.cfg.ModelName)
	<-ctx.Done()
	w.log.Info("worker stopping", "identity", w.identity)
	shared.Stop()
	return nil
}

// register makes a run reachable by deliveries until the returned func is
// called.
func (w *Worker) register(k runKey, r *liveRun) func() {
	w.mu.Lock()
	w.runs[k] = r
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		delete(w.runs, k)
		w.mu.Unlock()
	}
}

// deliver hands an answer or a stop to a run in progress on this worker.
func (w *Worker) deliver(_ context.Context, d delivery) error {
	w.mu.Lock()
	r := w.runs[runKey{d.WorkflowID, d.Attempt}]
	w.mu.Unlock()
	if r == nil {
		return nil // the run ended meanwhile
	}
	if d.Stop {
		r.stop(errStopped)
		return nil
	}
	select {
	case r.answers <- d.Answer:
	default: // a question's answer is already waiting
	}
	return nil
}

// errStopped is the cause of a run ended by a cancel.
var errStopped = errors.New("fleet: the task was canceled")

// heartbeat records a heartbeat every quarter of the heartbeat timeout
// until ctx ends: the worker lives. Iterations record their own too.
func heartbeat(ctx context.Context, every time.Duration, progress func() any) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			activity.RecordHeartbeat(ctx, progress())
		}
	}
}
