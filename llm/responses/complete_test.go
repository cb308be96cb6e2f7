package responses_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/llm/responses"
)

func newClient(t *testing.T, base string, edit func(*responses.Config)) *responses.Client {
	t.Helper()
	cfg := responses.Config{BaseURL: base, APIKey: testKey, Model: "gpt-5.4", Inactivity: 5 * time.Second,
		RetryBaseDelay: 10 * time.Millisecond, MaxRetryDelay: 50 * time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	c, err := responses.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

var simpleRequest = contract.Request{Messages: []contract.Message{{Role: contract.RoleUser, Content: "hi"}}}

func TestStreamFailures(t *testing.T) {
	t.Parallel()
	created := event{"response.created", map[string]any{"response": response("resp_0", "in_progress", nil, nil)}}
	ok := reply{text: "Hello."}
	cases := []struct {
		name  string
		turns func(n int) turn
		kind  llm.Kind // "" for success
		says  string
		reqs  int
	}{
		{name: "failed-then-ok", reqs: 2, turns: func(n int) turn {
			if n == 0 {
				return turn{events: []event{created, {"response.failed", map[string]any{"response": map[string]any{
					"id": "resp_0", "status": "failed", "error": map[string]any{"code": "server_error", "message": "The server had an error."}}}}}}
			}
			return turn{events: ok.events(n)}
		}},
		{name: "error-event-context", reqs: 1, kind: llm.KindContextTooLarge, says: "maximum context length",
			turns: func(int) turn {
				return turn{events: []event{created, {"error", map[string]any{"code": "context_length_exceeded",
					"message": "Your input exceeds the context window of this model: maximum context length is 400000 tokens.", "param": "input"}}}}
			}},
		{name: "truncated-then-ok", reqs: 2, turns: func(n int) turn {
			if n == 0 {
				return turn{events: ok.events(n)[:3]}
			}
			return turn{events: ok.events(n)}
		}},
		{name: "500-gives-up", reqs: 4, kind: llm.KindProviderDown, says: "overloaded", turns: func(int) turn {
			return turn{status: 500, body: `{"error":{"message":"The engine is currently overloaded.","type":"server_error","param":null,"code":null}}`}
		}},
		{name: "400-at-once", reqs: 1, kind: llm.KindBadRequest, says: "Unsupported parameter", turns: func(int) turn {
			return turn{status: 400, body: `{"error":{"message":"Unsupported parameter: 'temperature'.","type":"invalid_request_error","param":"temperature","code":"unsupported_parameter"}}`}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startAPI(t, func(_ *apiRequest, n int) turn { return tc.turns(n) })
			got, err := newClient(t, srv.baseURL(), nil).Complete(context.Background(), simpleRequest)
			if n := len(srv.requests()); n != tc.reqs {
				t.Errorf("%d requests, want %d", n, tc.reqs)
			}
			if tc.kind == "" {
				if err != nil || got.Content != "Hello." {
					t.Fatalf("got %+v, %v", got, err)
				}
				return
			}
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != tc.kind || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error %v, want kind %s saying %q", err, tc.kind, tc.says)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	_, err = newClient(t, "http://"+addr+"/v1", nil).Complete(context.Background(), simpleRequest)
	if !errors.Is(err, llm.ErrUnreachable) {
		t.Fatalf("error %v, want llm.ErrUnreachable", err)
	}
}

func TestHeadersNeverCome(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() { // accepts and says nothing
		var conns []net.Conn
		for {
			c, err := l.Accept()
			if err != nil {
				for _, c := range conns {
					_ = c.Close()
				}
				return
			}
			conns = append(conns, c)
		}
	}()
	start := time.Now()
	_, err = newClient(t, "http://"+l.Addr().String()+"/v1", func(c *responses.Config) { c.Inactivity = 300 * time.Millisecond }).
		Complete(context.Background(), simpleRequest)
	if !strings.Contains(fmtErr(err), "no response within") || time.Since(start) > 5*time.Second {
		t.Fatalf("error %v after %s, want the inactivity window's", err, time.Since(start))
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	_, err := responses.New(responses.Config{BaseURL: "localhost:8080", Inactivity: -1, MaxRetryDelay: -1,
		HTTPClient: &http.Client{Timeout: time.Minute}})
	if !errors.Is(err, llm.ErrConfig) {
		t.Fatalf("error %v, want llm.ErrConfig", err)
	}
	for _, want := range []string{"no model", "not an absolute",
		"Inactivity is -1ns: it must not be negative (0 disables", "MaxRetryDelay is -1ns: it must not be negative (0 means 30s)",
		"HTTPClient.Timeout is 1m0s: it must be 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

// TestPing: the preflight knows a Responses API, a missing key and a
// server of chat completions only, without a model call.
func TestPing(t *testing.T) {
	t.Parallel()
	srv := startAPI(t, func(*apiRequest, int) turn {
		t.Error("Ping made a model call")
		return turn{status: 500}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := newClient(t, srv.baseURL(), nil).Ping(ctx); err != nil {
		t.Errorf("ping of a Responses API: %v", err)
	}
	if err := newClient(t, srv.baseURL(), func(c *responses.Config) { c.APIKey = "" }).Ping(ctx); !errors.Is(err, llm.ErrUnauthorized) {
		t.Errorf("ping without a key: %v", err)
	}
	err := newClient(t, srv.URL+"/chat-only/v1", nil).Ping(ctx) // no /responses there: 404
	if !errors.Is(err, responses.ErrNotResponsesEndpoint) || !strings.Contains(err.Error(), "--api chat") {
		t.Errorf("ping of a server without the API: %v", err)
	}
	if got := len(srv.requests()); got != 0 {
		t.Errorf("%d requests reached the model", got)
	}
}
