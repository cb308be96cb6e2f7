package agent

import (
	"context"
	"time"

	"github.com/webagent/webagent/contract"
)

// Tracer records what each iteration saw, asked and did (package trace
// writes it to disk). The loop calls it at three points: after each
// snapshot and after each model call, from the iteration, and after each
// step ends, from the goroutine running Run. What it receives is what the
// model saw: secret values are already replaced by their placeholders.
// Every method must return quickly: work such as a screenshot belongs in
// the tracer's own goroutine, under its own bound.
type Tracer interface {
	// TraceSnapshot says the iteration's snapshot was taken and the model
	// is about to be asked: the page is as the previous step left it, and
	// stays so until the model answers.
	TraceSnapshot(ctx context.Context, iteration int)
	// TraceModel receives one model call: the observation exactly as
	// sent, the whole request and the reply (or the error).
	TraceModel(ModelCall)
	// TraceStep receives each step as it ends, failed ones included. ctx
	// is the caller's; the tracer bounds its own work (a screenshot).
	TraceStep(ctx context.Context, s Step)
}

// ModelCall is one exchange with the model.
type ModelCall struct {
	Iteration   int
	Observation string // the observation message exactly as sent
	// Page is the whole page the observation stands for, written as a
	// whole observation, when Observation lists only what changed; ""
	// when Observation is whole. Replay finds elements here.
	Page     string
	Request  contract.Request
	Reply    contract.Reply
	Err      error // the model's error, when it failed
	Started  time.Time
	Duration time.Duration
	// Replayed is set when the reply came from a recording
	// (WithRecording): no model was asked.
	Replayed bool
}

// WithTracer records every iteration with t (see Tracer).
func WithTracer(t Tracer) Option { return func(c *config) { c.tracer = t } }

// traceModel hands a model call to the tracer, if any.
func (r *run) traceModel(iter int, obs, page string, req contract.Request, reply contract.Reply, err error, t0 time.Time) {
	if r.a.cfg.tracer == nil {
		return
	}
	r.a.cfg.tracer.TraceModel(ModelCall{Iteration: iter, Observation: obs, Page: page, Request: req, Reply: reply, Err: err,
		Started: t0, Duration: time.Since(t0)})
}

// traceReplayed hands a reply the recording gave to the tracer, if any, as
// the model call it stands for.
func (r *run) traceReplayed(iter int, obs string, req contract.Request, reply contract.Reply, t0 time.Time) {
	if r.a.cfg.tracer == nil {
		return
	}
	r.a.cfg.tracer.TraceModel(ModelCall{Iteration: iter, Observation: obs, Request: req, Reply: reply,
		Started: t0, Duration: time.Since(t0), Replayed: true})
}

// traceSnapshot tells the tracer, if any, that a snapshot was taken.
func (r *run) traceSnapshot(ctx context.Context, iter int) {
	if r.a.cfg.tracer != nil {
		r.a.cfg.tracer.TraceSnapshot(ctx, iter)
	}
}

// traceStep hands an ended step to the tracer, if any.
func (r *run) traceStep(s Step) {
	if r.a.cfg.tracer != nil {
		r.a.cfg.tracer.TraceStep(r.ctx, s)
	}
}
