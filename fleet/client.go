package fleet

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ConnectOptions say how to reach a Temporal server or Temporal Cloud.
type ConnectOptions struct {
	// HostPort is the frontend's address, e.g. 127.0.0.1:7233 or
	// NS.ACCT.tmprl.cloud:7233.
	HostPort  string
	Namespace string // "" means "default"
	// TLS turns TLS on; CertFile and KeyFile add a client certificate
	// (mTLS), CAFile a CA for the server's; ServerName overrides the name
	// checked.
	TLS                       bool
	CertFile, KeyFile, CAFile string
	ServerName                string
	APIKey                    string // Temporal Cloud's API key; implies TLS
	Identity                  string
	Logger                    *slog.Logger
}

// ErrUnreachable wraps a failure to reach the Temporal server.
var ErrUnreachable = errors.New("fleet: the Temporal server cannot be reached")

// Dial connects to Temporal, until ctx ends. A server that does not answer
// is ErrUnreachable.
func Dial(ctx context.Context, o ConnectOptions) (client.Client, error) {
	if o.HostPort == "" {
		return nil, errors.New("fleet: no Temporal address: pass --temporal HOST:PORT or set TEMPORAL_ADDRESS")
	}
	opts := client.Options{HostPort: o.HostPort, Namespace: o.Namespace, Identity: o.Identity,
		ContextPropagators: []workflow.ContextPropagator{tracePropagator{}}}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opts.Logger = tlog.NewStructuredLogger(log)
	if o.TLS || o.APIKey != "" || o.CertFile != "" || o.CAFile != "" {
		cfg, err := tlsConfig(o)
		if err != nil {
			return nil, err
		}
		opts.ConnectionOptions.TLS = cfg
	}
	if o.APIKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(o.APIKey)
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, o.HostPort, err)
	}
	return c, nil
}

func tlsConfig(o ConnectOptions) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: o.ServerName}
	if (o.CertFile == "") != (o.KeyFile == "") {
		return nil, errors.New("fleet: a client certificate needs both its certificate and its key file")
	}
	if o.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("fleet: the client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("fleet: the CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("fleet: the CA file %s holds no PEM certificate", o.CAFile)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// Client submits tasks to the fleet and follows them.
type Client struct {
	C client.Client
	// TaskQueue is the shared queue; "" means DefaultTaskQueue.
	TaskQueue string
}

func (c *Client) queue() string {
	if c.TaskQueue == "" {
		return DefaultTaskQueue
	}
	return c.TaskQueue
}

// ErrNotFound is returned for a workflow id the server does not know.
var ErrNotFound = errors.New("fleet: no such task")

// Submit starts a task and returns its workflow id; id "" makes one.
func (c *Client) Submit(ctx context.Context, id string, t Task) (string, error) {
	if id == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id = "webagent-task-" + hex.EncodeToString(b[:])
	}
	ctx, span := tracer.Start(ctx, "submit webagent task", trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(attribute.String("webagent.workflow_id", id)))
	defer span.End()
	run, err := c.C.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: c.queue(),
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, TaskWorkflowName, t)
	if err != nil {
		return "", fmt.Errorf("starting the task: %w", err)
	}
	return run.GetID(), nil
}

// Wait waits for the task's outcome until ctx ends.
func (c *Client) Wait(ctx context.Context, id string) (*Outcome, error) {
	var out Outcome
	if err := c.C.GetWorkflow(ctx, id, "").Get(ctx, &out); err != nil {
		return nil, c.notFound(id, err)
	}
	return &out, nil
}

// Status is a task's state and, once it ended, its outcome.
type Status struct {
	ID string `json:"id"`
	// Workflow is Temporal's status of the workflow: RUNNING, COMPLETED,
	// FAILED, ...
	Workflow string `json:"workflow"`
	State
	Outcome *Outcome `json:"outcome,omitempty"`
	// Error is why the workflow failed (a worker refused the task).
	Error string `json:"error,omitempty"`
	// Started is when the task was submitted; Closed when its workflow
	// ended (zero while it runs).
	Started time.Time `json:"started,omitzero"`
	Closed  time.Time `json:"closed,omitzero"`
}

// Status describes a task: its workflow's status, its state and, once it
// ended, its outcome.
func (c *Client) Status(ctx context.Context, id string) (*Status, error) {
	desc, err := c.C.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return nil, c.notFound(id, err)
	}
	info := desc.GetWorkflowExecutionInfo()
	st := &Status{ID: id, Workflow: strings.TrimPrefix(info.GetStatus().String(), "WorkflowExecutionStatus")}
	if t := info.GetStartTime(); t != nil {
		st.Started = t.AsTime()
	}
	if t := info.GetCloseTime(); t != nil {
		st.Closed = t.AsTime()
	}
	st.Workflow = strings.ToUpper(st.Workflow)
	if v, err := c.C.QueryWorkflow(ctx, id, "", queryState); err == nil {
		_ = v.Get(&st.State)
	}
	for _, pa := range desc.GetPendingActivities() {
		if pa.GetActivityType().GetName() != activityRunTask || pa.GetHeartbeatDetails() == nil {
			continue
		}
		var hb struct {
			Iteration int `json:"iteration"`
		}
		if ps := pa.GetHeartbeatDetails().GetPayloads(); len(ps) > 0 && json.Unmarshal(ps[0].GetData(), &hb) == nil {
			st.Iteration = max(st.Iteration, hb.Iteration)
		}
	}
	if info.GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
		var out Outcome
		if err := c.C.GetWorkflow(ctx, id, "").Get(ctx, &out); err != nil {
			st.Error = refusal(err)
		} else {
			st.Outcome = &out
		}
	}
	return st, nil
}

// Cancel asks the task to end: its run ends as CANCELED within its
// iteration bound and frees its browser.
func (c *Client) Cancel(ctx context.Context, id string) error {
	if err := c.C.CancelWorkflow(ctx, id, ""); err != nil {
		return c.notFound(id, err)
	}
	return nil
}

// ErrNoQuestion is returned by Answer when the task asked nothing.
var ErrNoQuestion = errors.New("fleet: the task has no question pending")

// Answer answers the task's pending ask_human question.
func (c *Client) Answer(ctx context.Context, id, text string) error {
	st, err := c.Status(ctx, id)
	if err != nil {
		return err
	}
	if st.Workflow != "RUNNING" {
		return fmt.Errorf("%w: task %s has ended (%s)", ErrNoQuestion, id, st.Workflow)
	}
	if st.Question == "" {
		return fmt.Errorf("%w: task %s (webagent status %s shows its questions)", ErrNoQuestion, id, id)
	}
	if err := c.C.SignalWorkflow(ctx, id, "", signalAnswer, text); err != nil {
		return c.notFound(id, err)
	}
	return nil
}

func (c *Client) notFound(id string, err error) error {
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return err
}

// refusal is the reason a worker gave for refusing a task, when that is
// what err is.
func refusal(err error) string {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		return appErr.Error()
	}
	return err.Error()
}

// Refusal returns the application error of a worker's refusal (no model,
// no such secret, a bad task) inside err, or nil.
func Refusal(err error) *temporal.ApplicationError {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		switch appErr.Type() {
		case ErrTypeNoModel, ErrTypeNoSecret, ErrTypeBadTask:
			return appErr
		}
	}
	return nil
}
