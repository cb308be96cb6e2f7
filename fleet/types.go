package fleet

import (
	"encoding/json"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
)

// The names workers and clients agree on. They are part of the wire
// contract: a fleet's workers and clients must use the same ones.
const (
	// DefaultTaskQueue is the shared queue tasks and episodes are put on.
	DefaultTaskQueue = "webagent"
	// TaskWorkflowName and EpisodeWorkflowName name the workflows.
	TaskWorkflowName    = "webagent.Task"
	EpisodeWorkflowName = "webagent.Episode"

	activityRunTask    = "webagent.RunTask"
	activityRunEpisode = "webagent.RunEpisode"
	activityDeliver    = "webagent.Deliver"

	// The signals a task's workflow takes: from its run (started,
	// question) and from a person (answer).
	signalStarted  = "webagent.started"
	signalQuestion = "webagent.question"
	signalAnswer   = "webagent.answer"
	// signalLive carries a run's new live view URLs, sealed for the
	// submitter (after a viewer revoked the old ones).
	signalLive = "webagent.live"

	// queryState answers with the task's State.
	queryState = "webagent.state"
	// queryLive answers with the run's live view URLs, sealed for the
	// submitter (liveState).
	queryLive = "webagent.live"
)

// The error types a worker refuses work with; Temporal does not retry them.
const (
	// ErrTypeNoModel: the task needs a model and the worker has none.
	ErrTypeNoModel = "NoModel"
	// ErrTypeNoSecret: the task names a secret the worker does not have.
	ErrTypeNoSecret = "NoSecret"
	// ErrTypeBadTask: the task itself is wrong (an unknown eval task, a
	// limit out of range).
	ErrTypeBadTask = "BadTask"
)

// CodeWorkerLost ends a task whose runs all ended with their worker (it
// died, or stopped heartbeating) before the task did.
const CodeWorkerLost agent.Code = "WORKER_LOST"

// Defaults of a task's fleet settings.
const (
	// DefaultHeartbeatTimeout is how long a run may go without a
	// heartbeat before Temporal counts its worker as gone. Runs
	// heartbeat every quarter of it and at every iteration.
	DefaultHeartbeatTimeout = 30 * time.Second
	// DefaultRestarts is how many times a task whose worker died starts
	// again elsewhere. Tasks with side effects should set 0.
	DefaultRestarts = 1
)

// runBound is how long one run of a task with limits l may take in all:
// the run's bound (agent.Limits.Bound, at most a day), plus the browser's
// start and a margin.
func runBound(l agent.Limits) time.Duration {
	const margin = 2 * time.Minute
	b := l.Bound()
	if b <= 0 || b > 24*time.Hour {
		b = 24 * time.Hour
	}
	return b + startTimeout + margin
}

// iterationBound is the iteration timeout limits l give, the default when
// they give none.
func iterationBound(l agent.Limits) time.Duration {
	if d := l.Effective().IterationTimeout; d > 0 {
		return d
	}
	return agent.DefaultIterationTimeout
}

// Task is what a submitter sends: everything a worker needs to run the
// task but the model and the secret values, which are the worker's own.
type Task struct {
	URL         string `json:"url"`
	Instruction string `json:"instruction"`
	// SecretNames are the secrets the task may use, by name; each worker
	// resolves them from its own configuration.
	SecretNames []string `json:"secret_names,omitempty"`
	// AnswerSchema makes the answer structured (agent.Task.AnswerSchema).
	AnswerSchema json.RawMessage `json:"answer_schema,omitempty"`
	// Navigation confines the task's browser.
	Navigation contract.NavigationPolicy `json:"navigation"`
	// Limits bound the run; zero fields take the agent's defaults.
	Limits agent.Limits `json:"limits"`
	Fleet  Settings     `json:"fleet"`
	// LiveKey is the public half of the submitter's LiveKey: a worker
	// that serves live views seals their URLs to it, for the submitter
	// alone (Client.Live). Without one, the URLs leave the worker's
	// machine nowhere.
	LiveKey []byte `json:"live_key,omitempty"`
}

// Settings are how the fleet treats a task or episode.
type Settings struct {
	// Restarts is how many times the run starts again, on another worker
	// with a fresh browser, after its worker died. 0 for tasks with side
	// effects.
	Restarts int `json:"restarts"`
	// HeartbeatTimeout is how long a run may go without a heartbeat; 0
	// means DefaultHeartbeatTimeout.
	HeartbeatTimeout time.Duration `json:"heartbeat_timeout,omitempty"`
}

func (s Settings) heartbeat() time.Duration {
	if s.HeartbeatTimeout > 0 {
		return s.HeartbeatTimeout
	}
	return DefaultHeartbeatTimeout
}

// Outcome is how a task ended on the fleet: the same result as run --json,
// plus how many runs it took and where the last one ran.
type Outcome struct {
	*agent.Result
	// Attempts is how many runs the task took (1 when its first worker
	// finished it).
	Attempts int `json:"attempts"`
	// Worker is the identity of the worker of the last run.
	Worker string `json:"worker,omitempty"`
}

// MarshalJSON writes the result's JSON with attempts and worker added.
func (o Outcome) MarshalJSON() ([]byte, error) {
	if o.Result == nil {
		return json.Marshal(struct {
			Attempts int    `json:"attempts"`
			Worker   string `json:"worker,omitempty"`
		}{o.Attempts, o.Worker})
	}
	res, err := json.Marshal(o.Result)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res, &m); err != nil {
		return nil, err
	}
	m["attempts"], _ = json.Marshal(o.Attempts)
	if o.Worker != "" {
		m["worker"], _ = json.Marshal(o.Worker)
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *Outcome) UnmarshalJSON(data []byte) error {
	var extra struct {
		Attempts int    `json:"attempts"`
		Worker   string `json:"worker"`
	}
	if err := json.Unmarshal(data, &extra); err != nil {
		return err
	}
	res := &agent.Result{}
	if err := json.Unmarshal(data, res); err != nil {
		return err
	}
	*o = Outcome{Result: res, Attempts: extra.Attempts, Worker: extra.Worker}
	return nil
}

// State is what a task's workflow tells `status`.
type State struct {
	// Phase is "queued" (no worker has it), "running" or "done".
	Phase string `json:"phase"`
	// Attempt is the run in progress or the last one, from 1.
	Attempt int    `json:"attempt,omitempty"`
	Worker  string `json:"worker,omitempty"`
	// Iteration is the last iteration the run reported.
	Iteration int `json:"iteration,omitempty"`
	// Question is the model's pending ask_human question, if any, and
	// AskedAt the iteration that asked it.
	Question string `json:"question,omitempty"`
	AskedAt  int    `json:"asked_at,omitempty"`
	// CancelRequested is set once the task was asked to end.
	CancelRequested bool `json:"cancel_requested,omitempty"`

	queue string // the worker's own queue, where answers go
	live  []byte // the run's live view URLs, sealed for the submitter
}

// started is what a run tells its workflow when it starts.
type started struct {
	Attempt int    `json:"attempt"`
	Worker  string `json:"worker"`
	Queue   string `json:"queue"`
	// Live is the run's live view URLs sealed for the submitter, if any.
	Live []byte `json:"live,omitempty"`
}

// delivery is what the workflow sends to the worker of a run: an answer or
// a stop.
type delivery struct {
	WorkflowID string `json:"workflow_id"`
	Attempt    int    `json:"attempt"`
	Answer     string `json:"answer,omitempty"`
	Stop       bool   `json:"stop,omitempty"`
}

// Episode is one eval episode: a built-in task, run with the bundled
// reference model or the worker's own.
type Episode struct {
	Suite string `json:"suite"`
	ID    string `json:"id"`
	// WorkerModel runs the episode with the worker's model; otherwise the
	// task's reference solution plays it (no model needed).
	WorkerModel bool         `json:"worker_model,omitempty"`
	Limits      agent.Limits `json:"limits"`
	Fleet       Settings     `json:"fleet"`
}

// EpisodeResult is an episode's report run, with the attempts it took.
type EpisodeResult struct {
	Run report.Run `json:"run"`
	// Worker is the identity of the worker that ran it.
	Worker string `json:"worker,omitempty"`
}
