package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/url"

	"github.com/webagent/webagent/telemetry"
)

// otelFlags say where OpenTelemetry spans go (package telemetry).
type otelFlags struct {
	endpoint string
	content  bool
}

func (f *otelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.endpoint, "otel-endpoint", "", "export OpenTelemetry spans over OTLP/HTTP to this endpoint, e.g. http://localhost:4318 (default $OTEL_EXPORTER_OTLP_ENDPOINT; none: nothing is exported)")
	fs.BoolVar(&f.content, "otel-content", false, "put page text, prompts and answers in the spans (masked; never secrets)")
}

func (f *otelFlags) validate() error {
	if f.endpoint == "" {
		return nil
	}
	u, err := url.Parse(f.endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("--otel-endpoint %q is not an http(s) URL; give the collector's OTLP/HTTP address, e.g. http://localhost:4318", f.endpoint)
	}
	return nil
}

// start sets the exporter up for service and returns what flushes it, at
// most within its own bound; without an endpoint nothing is started.
func (f *otelFlags) start(ctx context.Context, service string, log *slog.Logger) (func(), error) {
	shutdown, err := telemetry.Setup(ctx, telemetry.Config{Endpoint: f.endpoint, Content: f.content, Service: service, Logger: log})
	if err != nil {
		return nil, usagef("--otel-endpoint: %v", err)
	}
	return func() {
		if err := shutdown(context.Background()); err != nil {
			log.Warn(fmt.Sprintf("opentelemetry: %v", err))
		}
	}, nil
}
