package localmodel

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/webagent/webagent/internal/lockedproc"
)

const (
	// DefaultMaxTokens caps one reply, in tokens, unless the request
	// says less (max_tokens): a small model at temperature 0 can repeat
	// itself until its context is full, which on a CPU takes minutes.
	DefaultMaxTokens = 1024
	// DefaultContext is the context of one of the server's slots, in
	// tokens: SmolLM2's 8,192.
	DefaultContext = 8192
	// closeGrace is how long the server told to end (SIGTERM) has before
	// its process group is killed.
	closeGrace = 5 * time.Second
	// healthEvery is how often the start asks the server whether its model
	// is loaded (its /health answers 503 until then).
	healthEvery = 100 * time.Millisecond
	// keptLines bounds what a Server keeps of the server's output, for the
	// error of a start that failed.
	keptLines = 30
)

// Config says how to run the server.
type Config struct {
	Install
	// Context is each slot's context in tokens; 0 is DefaultContext.
	Context int
	// Parallel is how many requests the server decodes at once (its
	// slots), each with its own Context; 0 is 1. Give as many as the
	// callers that ask at once, or a waiting request sends nothing and
	// its stream's inactivity window may end it.
	Parallel int
	// MaxTokens caps one reply (llama-server's --n-predict), whatever
	// the request asks; 0 is DefaultMaxTokens.
	MaxTokens int
	// Threads the server computes with; 0 is every core.
	Threads int
	// Args are more of llama-server's flags, after the package's own.
	Args []string
}

// Server is a running llama-server on loopback.
type Server struct {
	// BaseURL is the OpenAI-compatible endpoint, http://127.0.0.1:PORT/v1.
	BaseURL string
	// Model is the name the server answers to (its --alias).
	Model string

	cmd  *exec.Cmd
	out  *tail
	done chan struct{} // closed when the process has been waited for
	once sync.Once
	err  error
}

// Start starts llama-server with the model and returns when the model is
// loaded and the server answers. ctx bounds the start only: when it ends
// first, the server is killed and Start returns ctx's error. The server
// runs in a process group of its own, is killed when this process dies,
// and ends with [Server.Close], which every successful Start needs.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Server == "" || cfg.Model == "" {
		return nil, fmt.Errorf("%w: no server or model given; install them with %s", ErrNotInstalled, InstallCommand)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{
		BaseURL: "http://127.0.0.1:" + strconv.Itoa(port) + "/v1",
		Model:   cfg.Name,
		out:     &tail{max: keptLines},
		done:    make(chan struct{}),
	}
	if s.Model == "" {
		s.Model = "local"
	}
	s.cmd = exec.Command(cfg.Server, args(cfg, port, s.Model)...)
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	// Its own group, so that Close ends whatever it started and a
	// terminal's Ctrl-C reaches webagent, which ends it; SIGKILL when
	// webagent dies however it dies.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// Forked from a thread of its own (lockedproc): the parent-death
	// signal follows the forking thread, which a Chromium's end could end.
	if err := lockedproc.Start(s.cmd, func(err error) {
		s.err = err
		close(s.done)
	}); err != nil {
		return nil, fmt.Errorf("starting %s: %w", cfg.Server, err)
	}
	if err := s.waitReady(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// args are llama-server's flags: loopback, the port, tool calls through
// the model's chat template (--jinja), no web page.
func args(cfg Config, port int, alias string) []string {
	ctxTokens, parallel, threads, maxTokens := cfg.Context, cfg.Parallel, cfg.Threads, cfg.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	if ctxTokens <= 0 {
		ctxTokens = DefaultContext
	}
	if parallel <= 0 {
		parallel = 1
	}
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	a := []string{
		"--model", cfg.Model, "--alias", alias,
		"--host", "127.0.0.1", "--port", strconv.Itoa(port),
		"--ctx-size", strconv.Itoa(ctxTokens * parallel), "--parallel", strconv.Itoa(parallel),
		"--threads", strconv.Itoa(threads), "--n-predict", strconv.Itoa(maxTokens), "--jinja", "--no-webui", "--offline",
	}
	return append(a, cfg.Args...)
}

// waitReady waits, within ctx, until the server's /health says the model
// is loaded; the server's exit ends the wait at once with its output.
func (s *Server) waitReady(ctx context.Context) error {
	health := strings.TrimSuffix(s.BaseURL, "/v1") + "/health"
	tick := time.NewTicker(healthEvery)
	defer tick.Stop()
	for {
		if s.healthy(ctx, health) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("llama-server did not load %s in time: %w; its last output:\n%s", s.Model, ctx.Err(), s.out.String())
		case <-s.done:
			return fmt.Errorf("llama-server ended before it was ready (%v); its last output:\n%s", s.err, s.out.String())
		case <-tick.C:
		}
	}
}

// healthy asks /health once.
func (s *Server) healthy(ctx context.Context, url string) bool {
	rctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// Close ends the server: SIGTERM to its process group, then after a grace
// SIGKILL; it returns when the process has been waited for. It is safe to
// call more than once.
func (s *Server) Close() {
	s.once.Do(func() {
		pg := -s.cmd.Process.Pid
		_ = syscall.Kill(pg, syscall.SIGTERM)
		t := time.NewTimer(closeGrace)
		defer t.Stop()
		select {
		case <-s.done:
		case <-t.C:
		}
		// Whatever is left of the group, the server itself included when
		// it did not heed SIGTERM.
		_ = syscall.Kill(pg, syscall.SIGKILL)
		<-s.done
	})
}

// Output is the server's last lines of output.
func (s *Server) Output() string { return s.out.String() }

// PID is the server's process id (and its process group's).
func (s *Server) PID() int { return s.cmd.Process.Pid }

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port for llama-server: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// tail keeps the last lines written to it.
type tail struct {
	mu      sync.Mutex
	max     int
	lines   []string
	partial string
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.partial + string(p)
	parts := strings.Split(s, "\n")
	t.partial = parts[len(parts)-1]
	if len(t.partial) > 1000 {
		t.partial = t.partial[:1000]
	}
	t.lines = append(t.lines, parts[:len(parts)-1]...)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(append(append([]string(nil), t.lines...), t.partial), "\n")
}
