// Package telemetry exports webagent's spans over OTLP with OpenTelemetry's
// Go SDK, for operators who watch their agents in Jaeger, Grafana Tempo,
// Honeycomb or Datadog.
//
// [Setup] starts an exporter when an endpoint is given (Config.Endpoint,
// or the standard OTEL_EXPORTER_OTLP_ENDPOINT and
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT variables) and installs it as the
// global tracer provider; without one it starts nothing, and the spans
// webagent's packages make (through otel.Tracer) cost next to nothing. A
// collector that is down never slows or fails a run: each export is
// bounded, spans that cannot be sent are dropped and counted in the log,
// and Shutdown gives up after its bound.
//
// Page text, prompts and answers are attributes only with Config.Content
// (--otel-content); secrets never, whichever: callers mask what they
// record (Content reports the setting).
package telemetry

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
)

// Config says where spans go.
type Config struct {
	// Endpoint is the OTLP/HTTP base endpoint (http://collector:4318;
	// spans go to its /v1/traces); ""
	// takes the standard environment variables, and without them nothing
	// is exported.
	Endpoint string
	// Content puts page text, prompts and answers in spans.
	Content bool
	// Service names the process (service.name): webagent-run, ...
	Service string
	// ExportTimeout bounds one export (2 s if 0); ShutdownTimeout the
	// flush at the end (2 s if 0).
	ExportTimeout, ShutdownTimeout time.Duration
	// Logger receives dropped-span and export warnings.
	Logger *slog.Logger
}

var content atomic.Bool

// Content reports whether spans may carry page text, prompts and
// answers (Config.Content of the running Setup).
func Content() bool { return content.Load() }

// Enabled reports whether c exports: an endpoint is given, or set in the
// environment.
func (c Config) Enabled() bool {
	return c.Endpoint != "" || os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs the exporter c asks for and returns the function that
// flushes and stops it, within c.ShutdownTimeout. Without an endpoint it
// does nothing and returns a no-op.
func Setup(ctx context.Context, c Config) (shutdown func(context.Context) error, err error) {
	content.Store(c.Content)
	if !c.Enabled() {
		return func(context.Context) error { return nil }, nil
	}
	log := cmp.Or(c.Logger, slog.New(slog.DiscardHandler))
	export := cmp.Or(c.ExportTimeout, 2*time.Second)
	opts := []otlptracehttp.Option{otlptracehttp.WithTimeout(export), otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false})}
	if c.Endpoint != "" {
		// The base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT is: the
		// traces' path goes after it.
		opts = append(opts, otlptracehttp.WithEndpointURL(strings.TrimSuffix(c.Endpoint, "/")+"/v1/traces"))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, err
	}
	counted := &countingExporter{SpanExporter: exp, log: log}
	res := resource.NewSchemaless(semconv.ServiceName(cmp.Or(c.Service, "webagent")))
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithBatcher(counted, sdktrace.WithExportTimeout(export), sdktrace.WithBatchTimeout(500*time.Millisecond)),
	)
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{})
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Debug("opentelemetry", "error", err) }))
	bound := cmp.Or(c.ShutdownTimeout, 2*time.Second)
	return func(ctx context.Context) error {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bound)
		defer cancel()
		err := tp.Shutdown(sctx)
		if n := counted.dropped.Load(); n > 0 {
			log.Warn("opentelemetry: spans not exported (the collector did not take them)", "spans", n)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return nil // a collector that is down is not the run's failure
		}
		return err
	}, nil
}

// countingExporter counts the spans its exporter could not send.
type countingExporter struct {
	sdktrace.SpanExporter
	log     *slog.Logger
	dropped atomic.Int64
}

func (e *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := e.SpanExporter.ExportSpans(ctx, spans)
	if err != nil {
		e.dropped.Add(int64(len(spans)))
		e.log.Debug("opentelemetry: an export failed", "spans", len(spans), "error", err)
	}
	return err
}
