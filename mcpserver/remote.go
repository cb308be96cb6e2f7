package mcpserver

import (
	"context"
	"errors"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
)

// RemoteTasks runs run_task's runs outside this server, as tasks that
// outlive it and are found again by their id (Config.Fleet). The server
// defines what it needs and nothing more: webagent's mcp --temporal gives
// it the Temporal fleet of package fleet through a small adapter of the
// command, so that embedding the server does not pull in Temporal.
type RemoteTasks interface {
	// Submit starts t under id and returns the id it runs under.
	Submit(ctx context.Context, id string, t RemoteTask) (string, error)
	// Wait returns the run's result once the task ends, or ctx's end. A
	// task a worker refused is a *Refused error.
	Wait(ctx context.Context, id string) (*agent.Result, error)
	// Status is the task's state now; ErrUnknownTask for an id the remote
	// does not know.
	Status(ctx context.Context, id string) (*RemoteStatus, error)
	// Answer answers the run's pending question; ErrNoQuestion when it
	// asks none.
	Answer(ctx context.Context, id, text string) error
	// Cancel asks the task to end: its run ends CANCELED.
	Cancel(ctx context.Context, id string) error
}

// RemoteTask is a run_task call as a remote task: the secrets go by name,
// each worker holding their values.
type RemoteTask struct {
	URL         string
	Instruction string
	SecretNames []string
	Navigation  contract.NavigationPolicy
	Limits      agent.Limits
}

// RemoteStatus is a remote task's state and, once it ended, its result.
type RemoteStatus struct {
	// Workflow is the task's status on the remote: RUNNING while it runs,
	// then COMPLETED, FAILED, CANCELED, TERMINATED, ...
	Workflow string
	// Phase is "queued" (no worker has it), "running" or "done"; Attempt
	// the run in progress or the last one, from 1, on Worker; Iteration
	// the last iteration the run reported.
	Phase     string
	Attempt   int
	Worker    string
	Iteration int
	// Question is the run's pending ask_human question, AskedAt the
	// iteration that asked it.
	Question string
	AskedAt  int
	// CancelRequested is set once the task was asked to end.
	CancelRequested bool
	// Result is the run's, once the task ended with one.
	Result *agent.Result
	// Error is why the task failed without a result (a worker refused it).
	Error string
	// Started is when the task was submitted; Closed when it ended (zero
	// while it runs).
	Started time.Time
	Closed  time.Time
}

// ErrUnknownTask is RemoteTasks' error for an id the remote does not know.
var ErrUnknownTask = errors.New("mcpserver: no such remote task")

// ErrNoQuestion is RemoteTasks.Answer's error when the run asks nothing.
var ErrNoQuestion = errors.New("mcpserver: the remote task has no question pending")

// Refused is the error of a task that a worker refused (no model, no such
// secret, a bad task): Reason says why.
type Refused struct{ Reason error }

func (r *Refused) Error() string { return "refused: " + r.Reason.Error() }

// Unwrap returns the reason.
func (r *Refused) Unwrap() error { return r.Reason }
