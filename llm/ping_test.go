package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

func TestPing(t *testing.T) {
	t.Parallel()
	t.Run("ok", func(t *testing.T) {
		srv := startServer(t, modelserver.Script(), modelserver.WithAPIKey("k"))
		if err := newClient(t, srv, llm.Config{APIKey: "k"}).Ping(context.Background()); err != nil {
			t.Errorf("Ping = %v", err)
		}
	})
	t.Run("no model list", func(t *testing.T) {
		srv := startServer(t, modelserver.Script(), modelserver.WithoutModels())
		if err := newClient(t, srv, llm.Config{}).Ping(context.Background()); err != nil {
			t.Errorf("Ping = %v", err)
		}
	})
	t.Run("unauthorized", func(t *testing.T) {
		srv := startServer(t, modelserver.Script(), modelserver.WithAPIKey("right"))
		err := newClient(t, srv, llm.Config{APIKey: "wrong"}).Ping(context.Background())
		if !errors.Is(err, llm.ErrUnauthorized) || !strings.Contains(err.Error(), "401") {
			t.Errorf("Ping = %v, want ErrUnauthorized", err)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		base := "http://" + closedPort(t) + "/v1"
		c, err := llm.New(llm.Config{BaseURL: base, Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		err = c.Ping(ctxWithTimeout(t, 5*time.Second))
		if !errors.Is(err, llm.ErrUnreachable) {
			t.Fatalf("Ping = %v, want ErrUnreachable", err)
		}
		within(t, "Ping of a closed port", time.Since(start), 0, slack)
		if !strings.Contains(err.Error(), base+"/models") || !strings.Contains(err.Error(), "connection refused") {
			t.Errorf("message %q lacks the URL or the cause", err)
		}
		// What to do depends on the server meant; the CLI says it, once.
		if strings.Contains(err.Error(), "ollama") {
			t.Errorf("message %q sends everyone to Ollama", err)
		}
		t.Logf("error: %v", err)
	})
	t.Run("deadline", func(t *testing.T) {
		srv := startServer(t, modelserver.Script())
		c := newClient(t, srv, llm.Config{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := c.Ping(ctx); !errors.Is(err, context.Canceled) || errors.Is(err, llm.ErrUnreachable) {
			t.Errorf("Ping = %v", err)
		}
	})
}
