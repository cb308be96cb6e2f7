// Package devtemporal starts a real Temporal server for tests: the temporal
// CLI's dev server, on loopback, with its state in memory.
//
// The CLI is found as $TEMPORAL_CLI, on PATH, or in the user's cache, where
// Binary builds it from the Go module proxy the first time (a few minutes):
// no download from outside the registries.
package devtemporal

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/webagent/webagent/internal/lockedproc"
)

// CLIVersion is the temporal CLI built when none is found. Later tags
// carry a replace directive that go install refuses.
const CLIVersion = "v1.5.1"

var buildMu sync.Mutex

// Binary returns the path of a temporal CLI, building it into the user's
// cache when there is none (ctx bounds the build).
func Binary(ctx context.Context) (string, error) {
	if p := os.Getenv("TEMPORAL_CLI"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("devtemporal: no cache folder to build the temporal CLI in: %w", err)
	}
	dir := filepath.Join(cache, "webagent", "temporal-"+CLIVersion)
	path := filepath.Join(dir, "temporal")
	buildMu.Lock()
	defer buildMu.Unlock()
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	cmd := exec.CommandContext(ctx, "go", "install", "github.com/temporalio/cli/cmd/temporal@"+CLIVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("devtemporal: building the temporal CLI (go install github.com/temporalio/cli/cmd/temporal@%s): %w\n%s", CLIVersion, err, out)
	}
	return path, nil
}

// Server is a running dev server.
type Server struct {
	// Addr is its frontend, 127.0.0.1:PORT.
	Addr string
	cmd  *exec.Cmd
	done chan struct{}
}

// Start starts a dev server with the CLI at bin and waits, until ctx ends,
// for it to answer.
func Start(ctx context.Context, bin string) (*Server, error) {
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "server", "start-dev", "--ip", "127.0.0.1", "--headless",
		"--port", strconv.Itoa(ports[0]), "--metrics-port", strconv.Itoa(ports[1]), "--log-level", "error")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0])), cmd: cmd, done: make(chan struct{})}
	// Forked from a thread of its own: the parent-death signal follows the
	// forking thread, which a test's Chromium could otherwise end early.
	if err := lockedproc.Start(cmd, func(error) { close(s.done) }); err != nil {
		return nil, fmt.Errorf("devtemporal: starting %s: %w", bin, err)
	}
	for {
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		c, err := client.DialContext(dctx, client.Options{HostPort: s.Addr, Logger: quiet{}})
		cancel()
		if err == nil {
			c.Close()
			return s, nil
		}
		select {
		case <-s.done:
			return nil, errors.New("devtemporal: the dev server exited before it answered")
		case <-ctx.Done():
			s.Close()
			return nil, fmt.Errorf("devtemporal: the dev server did not answer: %w", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Close kills the server and waits for it to exit.
func (s *Server) Close() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
}

func freePorts(n int) ([]int, error) {
	var ports []int
	var lns []net.Listener
	defer func() {
		for _, l := range lns {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// quiet is a Temporal logger that logs nothing.
type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}
