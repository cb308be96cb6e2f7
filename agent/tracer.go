package agent

import (
	"context"
	"time"
)

// Tracer records what each iteration saw, asked and did (package trace
// writes it to disk). The loop calls it at two points: after each model
// call, from the iteration, and after each step ends, from the goroutine
// running Run, before the next snapshot is taken. What it receives is what
// the model saw: secret values are already replaced by their placeholders.
type Tracer interface {
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
	Request     Request
	Reply       Reply
	Err         error // the model's error, when it failed
	Started     time.Time
	Duration    time.Duration
}

// WithTracer records every iteration with t (see Tracer).
func WithTracer(t Tracer) Option { return func(c *config) { c.tracer = t } }

// traceModel hands a model call to the tracer, if any.
func (r *run) traceModel(iter int, obs string, req Request, reply Reply, err error, t0 time.Time) {
	if r.a.cfg.tracer == nil {
		return
	}
	r.a.cfg.tracer.TraceModel(ModelCall{Iteration: iter, Observation: obs, Request: req, Reply: reply, Err: err,
		Started: t0, Duration: time.Since(t0)})
}

// traceStep hands an ended step to the tracer, if any.
func (r *run) traceStep(s Step) {
	if r.a.cfg.tracer != nil {
		r.a.cfg.tracer.TraceStep(r.ctx, s)
	}
}
