package llm_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// slack is what a loaded two-core machine may add to a bound.
const slack = 400 * time.Millisecond

func startServer(t *testing.T, r modelserver.Responder, opts ...modelserver.Option) *modelserver.Server {
	t.Helper()
	srv, err := modelserver.Start(r, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// newClient returns a client of srv; cfg's BaseURL and Model are filled in
// when empty.
func newClient(t *testing.T, srv *modelserver.Server, cfg llm.Config) *llm.Client {
	t.Helper()
	if cfg.BaseURL == "" {
		cfg.BaseURL = srv.BaseURL()
	}
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

var clickTool = contract.ToolDef{
	Name:        "click",
	Description: "Click an element by ref",
	Parameters:  []byte(`{"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"]}`),
}

func simpleRequest() contract.Request {
	return contract.Request{
		Messages: []contract.Message{{Role: contract.RoleUser, Content: "sign in"}},
		Tools:    []contract.ToolDef{clickTool},
	}
}

// waitGone waits for the server to see the client of rec go away.
func waitGone(t *testing.T, rec *modelserver.Recorded, within time.Duration) {
	t.Helper()
	timer := time.NewTimer(within)
	defer timer.Stop()
	select {
	case <-rec.Gone:
	case <-timer.C:
		t.Fatalf("request %d: server still serving %s later", rec.Index, within)
	}
	if !rec.ClientGone() {
		t.Errorf("request %d: the handler finished but did not see the client go away", rec.Index)
	}
}

// within fails unless lo <= d <= hi.
func within(t *testing.T, what string, d, lo, hi time.Duration) {
	t.Helper()
	if d < lo || d > hi {
		t.Errorf("%s took %s, want between %s and %s", what, d.Round(time.Millisecond), lo, hi)
	} else {
		t.Logf("%s took %s (bounds %s..%s)", what, d.Round(time.Millisecond), lo, hi)
	}
}

// logSink is a concurrency-safe log buffer that signals when a line
// containing a word is written.
type logSink struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	word string
	seen chan struct{}
	once sync.Once
}

func newLogSink(word string) *logSink { return &logSink{word: word, seen: make(chan struct{})} }

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.word != "" && strings.Contains(string(p), s.word) {
		s.once.Do(func() { close(s.seen) })
	}
	return s.buf.Write(p)
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func ctxWithTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
