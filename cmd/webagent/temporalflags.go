package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"os"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/webagent/webagent/fleet"
)

// temporalFlags say how to reach Temporal.
type temporalFlags struct {
	addr, namespace, queue string
	tls                    bool
	cert, key, ca, server  string
	apiKey                 string
}

func (t *temporalFlags) register(fs *flag.FlagSet) {
	t.registerAddr(fs)
	t.registerRest(fs)
}

// registerAddr registers --temporal, its default $TEMPORAL_ADDRESS.
func (t *temporalFlags) registerAddr(fs *flag.FlagSet) {
	fs.StringVar(&t.addr, "temporal", os.Getenv("TEMPORAL_ADDRESS"), "the Temporal frontend, HOST:PORT (default $TEMPORAL_ADDRESS)")
}

// registerRest registers all but --temporal.
func (t *temporalFlags) registerRest(fs *flag.FlagSet) {
	fs.StringVar(&t.queue, "task-queue", fleet.DefaultTaskQueue, "the fleet's shared task queue")
	t.registerConn(fs)
}

// registerConn registers how to connect, but for --temporal: the
// namespace and the TLS flags (status, cancel and answer name a task by
// its id, on no queue).
func (t *temporalFlags) registerConn(fs *flag.FlagSet) {
	fs.StringVar(&t.namespace, "namespace", envOr("TEMPORAL_NAMESPACE", "default"), "the Temporal namespace (default $TEMPORAL_NAMESPACE, else default)")
	fs.BoolVar(&t.tls, "temporal-tls", false, "connect with TLS (implied by the certificate flags and --temporal-api-key)")
	fs.StringVar(&t.cert, "temporal-tls-cert", "", "client certificate file for mTLS (Temporal Cloud)")
	fs.StringVar(&t.key, "temporal-tls-key", "", "its private key file")
	fs.StringVar(&t.ca, "temporal-tls-ca", "", "CA file the server's certificate is checked against (default the system's)")
	fs.StringVar(&t.server, "temporal-tls-server-name", "", "the server name the certificate must carry (default the host of --temporal)")
	fs.StringVar(&t.apiKey, "temporal-api-key", "", "Temporal Cloud API key (default $TEMPORAL_API_KEY)")
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// dial connects; a server that cannot be reached is a usage error (exit 2)
// that says where it looked.
func (t *temporalFlags) dial(ctx context.Context, log *slog.Logger) (client.Client, error) {
	if t.addr == "" {
		return nil, usagef("no Temporal server: pass --temporal HOST:PORT or set TEMPORAL_ADDRESS (a local one: temporal server start-dev)")
	}
	key := t.apiKey
	if key == "" {
		key = os.Getenv("TEMPORAL_API_KEY")
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := fleet.Dial(dctx, fleet.ConnectOptions{
		HostPort: t.addr, Namespace: t.namespace, TLS: t.tls,
		CertFile: t.cert, KeyFile: t.key, CAFile: t.ca, ServerName: t.server, APIKey: key, Logger: log,
	})
	if err != nil {
		if errors.Is(err, fleet.ErrUnreachable) {
			return nil, usagef("%v (is it running? a local one: temporal server start-dev)", err)
		}
		return nil, usagef("%v", err)
	}
	return c, nil
}
