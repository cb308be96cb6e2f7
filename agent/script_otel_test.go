package agent_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/webagent/webagent/agent"
)

// TestScriptSpans: each page call of a script is a span under the
// script's own span. It sets the process's tracer provider, so it runs
// alone (not in parallel), before the others.
func TestScriptSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev); _ = tp.Shutdown(context.Background()) })

	model, _ := scriptModel(t, `var b = snapshot().find({role: "button", name: "Press me"}); click(b.ref); click(b.ref); return "twice"`)
	res := mustAgent(t, shared, model).Run(context.Background(), agent.Task{URL: page(t, simplePage), Instruction: "press twice"})
	if res.Code != agent.CodeSuccess {
		t.Fatalf("%s: %s", res.Code, res.Message)
	}
	var script sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == "execute_tool script" {
			script = s
		}
	}
	if script == nil {
		t.Fatal("no span for the script call")
	}
	clicks := 0
	for _, s := range rec.Ended() {
		if s.Name() == "execute_tool click" && s.Parent().SpanID() == script.SpanContext().SpanID() {
			clicks++
		}
	}
	if clicks != 2 {
		t.Errorf("%d click spans under the script's span, want 2", clicks)
	}
}
