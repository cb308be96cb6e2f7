package fleet

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"
)

// Tracing across the fleet: the W3C trace context of the code that submits
// a task (its OpenTelemetry span) travels in Temporal's headers to the
// workflow, and from it to the activity that runs the task, so the
// worker's spans (the agent's invoke_agent and under it) continue the
// submitter's trace. Without a span there is nothing to carry.

// traceHeader is the header that carries the trace context.
const traceHeader = "webagent-trace-context"

// traceContextKey keeps the carried context in a workflow's context.
type traceContextKey struct{}

// tracePropagator is a workflow.ContextPropagator for the trace context.
type tracePropagator struct{}

var w3c = propagation.TraceContext{}

func (tracePropagator) Inject(ctx context.Context, w workflow.HeaderWriter) error {
	carrier := propagation.MapCarrier{}
	w3c.Inject(ctx, carrier)
	return write(w, carrier)
}

func (tracePropagator) InjectFromWorkflow(ctx workflow.Context, w workflow.HeaderWriter) error {
	carrier, _ := ctx.Value(traceContextKey{}).(propagation.MapCarrier)
	return write(w, carrier)
}

func (tracePropagator) Extract(ctx context.Context, r workflow.HeaderReader) (context.Context, error) {
	carrier, err := read(r)
	if err != nil || carrier == nil {
		return ctx, err
	}
	return w3c.Extract(ctx, carrier), nil
}

func (tracePropagator) ExtractToWorkflow(ctx workflow.Context, r workflow.HeaderReader) (workflow.Context, error) {
	carrier, err := read(r)
	if err != nil || carrier == nil {
		return ctx, err
	}
	return workflow.WithValue(ctx, traceContextKey{}, carrier), nil
}

func write(w workflow.HeaderWriter, carrier propagation.MapCarrier) error {
	if len(carrier) == 0 {
		return nil
	}
	p, err := converter.GetDefaultDataConverter().ToPayload(map[string]string(carrier))
	if err != nil {
		return err
	}
	w.Set(traceHeader, p)
	return nil
}

func read(r workflow.HeaderReader) (propagation.MapCarrier, error) {
	p, ok := r.Get(traceHeader)
	if !ok {
		return nil, nil
	}
	var m map[string]string
	if err := converter.GetDefaultDataConverter().FromPayload(p, &m); err != nil {
		return nil, err
	}
	return propagation.MapCarrier(m), nil
}

// tracer makes the submit span.
var tracer = otel.Tracer("github.com/webagent/webagent/fleet")
