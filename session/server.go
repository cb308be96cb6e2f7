package session

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/policy"
	"github.com/webagent/webagent/secret"
)

// DefaultIdleTimeout is how long a session waits for a command before it
// ends, when Config.IdleTimeout is 0.
const DefaultIdleTimeout = 15 * time.Minute

// lockTimeout bounds the wait for a session that is ending to let go of
// its name.
const lockTimeout = 20 * time.Second

// requestTimeout bounds the reading of a request once connected.
const requestTimeout = 5 * time.Second

// ErrRunning is Serve's error when another process serves the session.
var ErrRunning = errors.New("session: another process serves this session")

// Config configures a session process.
type Config struct {
	// Name is the session's name (CheckName); "" is "default".
	Name string
	// Dir is the sockets' folder; Dir() when "".
	Dir string
	// Browser is how the session's browser is launched.
	Browser browser.Options
	// Policy says where pages may be opened, enforced in the browser.
	Policy contract.NavigationPolicy
	// Secrets may be typed as <secret>NAME</secret>, each only on its
	// site (keys NAME@ORIGIN); their values are masked in every reply.
	Secrets map[string]string
	// Inbox is the agent's mailbox, which read_email reads; nil offers
	// none. Its code and link become secrets of the session.
	Inbox Mailbox
	// Actions is the user's action policy: a denied action is refused, and
	// one it wants confirmed runs only with Request.Confirmed.
	Actions *policy.Policy
	// OperationTimeout is the backstop above every command's own budget,
	// and the longest a command waits for another agent's; 0 is
	// agent.DefaultOperationTimeout.
	OperationTimeout time.Duration
	// IdleTimeout ends the session after that long without a command; 0
	// is DefaultIdleTimeout, negative is never.
	IdleTimeout time.Duration
	// LaunchTimeout bounds a start of the browser; 0 is 60 s.
	LaunchTimeout time.Duration
	// Launch are the settings the session started with, as
	// Request.Launch gives them: a request that gives one with another
	// value, or one not given at the start, is refused.
	Launch map[string]string
	// Live is the live view server the session's view opens on (the MCP
	// server's, for a session it serves); nil starts one of the session's
	// own, on a free loopback port, at the first live command.
	Live *liveview.Server
	// HumanTimeout is how long a person holding control in the live view
	// may go without input before it comes back to the commands; 0 is
	// agent.DefaultHumanTimeout.
	HumanTimeout time.Duration
	// Ready, when set, is called once: with nil when the session listens,
	// or with the error that stops it before.
	Ready func(error)
	// Logger receives diagnostics; nil logs nothing.
	Logger *slog.Logger
}

// server is a running session.
type server struct {
	cfg   Config
	log   *slog.Logger
	mask  *secret.Masker
	began time.Time

	cmds      context.Context // ends at shutdown: commands in flight end
	endCm     context.CancelFunc
	closeReq  chan struct{} // a close command
	closeOnce sync.Once
	active    chan struct{} // a command began or ended: the idle clock restarts
	wg        sync.WaitGroup

	turn chan struct{} // one command at a time acts on the browser
	lv   liveState

	mu     sync.Mutex // guards b, agents, owner, count, view, beside
	b      *browser.Browser
	agents map[string]*agentState
	owner  map[string]string // tab id -> agent
	count  int
	view   *liveview.View // the live view, once a live command opened it
	beside bool           // the command holding the turn runs beside a person in control
}

// agentState is one agent's part of the session.
type agentState struct {
	tab     string // its current tab; "" before its first command
	lastTxt string // its latest snapshot's text, for wait_for
	viewed  Viewed // its latest snapshot, for snapshot --diff
}

// Serve runs the session named cfg.Name until a close command, its idle
// timeout or ctx's end, then closes its browser (its Chromium, profile and
// temp folders) and removes its socket. It returns ErrRunning when another
// process serves the session.
func Serve(ctx context.Context, cfg Config) (err error) {
	ready := cfg.Ready
	if ready == nil {
		ready = func(error) {}
	}
	defer func() {
		if err != nil {
			ready(err)
		}
	}()
	cfg.Name = cmp.Or(cfg.Name, "default")
	if err := CheckName("session", cfg.Name); err != nil {
		return err
	}
	if cfg.Dir == "" {
		if cfg.Dir, err = Dir(); err != nil {
			return err
		}
	}
	cfg.OperationTimeout = cmp.Or(cfg.OperationTimeout, agent.DefaultOperationTimeout)
	cfg.IdleTimeout = cmp.Or(cfg.IdleTimeout, DefaultIdleTimeout)
	cfg.LaunchTimeout = cmp.Or(cfg.LaunchTimeout, 60*time.Second)
	p := pathsOf(cfg.Dir, cfg.Name)
	// A session that is ending (closed, idle) still holds the lock while
	// its browser closes: wait for it, a while.
	lctx, cancel := context.WithTimeout(ctx, lockTimeout)
	unlock, err := lockWait(lctx, p.lock)
	cancel()
	if err != nil {
		if lctx.Err() != nil && ctx.Err() == nil {
			return ErrRunning
		}
		return err
	}
	defer unlock()
	defer removeOwnLog(p.log)
	// Killed (SIGKILL), the session leaves its browser's folders to a
	// watcher; its browser dies with it.
	if err := launcher.SweepOnExit(); err != nil {
		return err
	}

	s := &server{cfg: cfg, log: cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler)), mask: secret.NewMasker(cfg.Secrets), began: time.Now(),
		closeReq: make(chan struct{}), active: make(chan struct{}, 1), turn: make(chan struct{}, 1),
		agents: map[string]*agentState{}, owner: map[string]string{}}
	s.cmds, s.endCm = context.WithCancel(context.Background())
	defer s.endCm()
	if err := s.launch(ctx); err != nil {
		return err
	}
	defer s.closeBrowser()
	defer s.closeLive() // before the browser: its screencast stops first

	_ = os.Remove(p.sock) // a socket left by a session that was killed
	ln, err := net.Listen("unix", p.sock)
	if err != nil {
		return fmt.Errorf("session: listening on %s: %w", p.sock, err)
	}
	defer os.Remove(p.sock)
	if err := os.Chmod(p.sock, 0o600); err != nil {
		ln.Close()
		return err
	}
	s.wg.Go(func() { s.accept(ln) })
	ready(nil)
	s.log.Info("session serving", "session", cfg.Name, "socket", p.sock)

	s.waitEnd(ctx)
	ln.Close()
	s.endCm()
	s.wg.Wait()
	return nil
}

// waitEnd returns when the session should end: ctx, a close command, or
// no command for the idle timeout (while none is in flight).
func (s *server) waitEnd(ctx context.Context) {
	var idle <-chan time.Time
	var timer *time.Timer
	if s.cfg.IdleTimeout > 0 {
		timer = time.NewTimer(s.cfg.IdleTimeout)
		defer timer.Stop()
		idle = timer.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.closeReq:
			return
		case <-s.active:
			if timer != nil {
				timer.Reset(s.cfg.IdleTimeout)
				s.mu.Lock()
				busy := s.count > 0
				s.mu.Unlock()
				if busy {
					idle = nil
				} else {
					idle = timer.C
				}
			}
		case <-idle:
			s.log.Info("session idle: ending", "after", s.cfg.IdleTimeout)
			return
		}
	}
}

// busy counts a command in or out and restarts the idle clock.
func (s *server) busy(d int) {
	s.mu.Lock()
	s.count += d
	s.mu.Unlock()
	select {
	case s.active <- struct{}{}:
	default:
	}
}

func (s *server) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		s.wg.Go(func() { s.serveConn(c) })
	}
}

// serveConn reads one request and writes its reply. The command ends when
// the client goes away (its connection closes) or the session ends.
func (s *server) serveConn(c net.Conn) {
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(requestTimeout))
	r := bufio.NewReader(c)
	line, err := r.ReadBytes('\n')
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	var req Request
	reply := Reply{}
	if err := json.Unmarshal(line, &req); err != nil {
		reply = Reply{Status: Invalid, Code: "BAD_REQUEST", Text: "the request is not JSON: " + err.Error()}
	} else {
		ctx, cancel := context.WithCancel(s.cmds)
		// The client's end: anything it sends now, or its close.
		go func() {
			_, _ = r.ReadByte()
			cancel()
		}()
		s.busy(1)
		began := time.Now()
		reply = s.exec(ctx, req)
		reply.Took = time.Since(began)
		reply.Text = s.mask.Mask(reply.Text)
		cancel()
		s.step(req, cmp.Or(req.Agent, "default"), reply, reply.Took)
		s.busy(-1)
	}
	out, _ := json.Marshal(reply)
	_ = c.SetWriteDeadline(time.Now().Add(requestTimeout))
	_, _ = c.Write(append(out, '\n'))
	if req.Command == cmdClose && reply.Status == OK {
		s.closeOnce.Do(func() { close(s.closeReq) })
	}
}

// launch starts the session's browser.
func (s *server) launch(ctx context.Context) error {
	lctx, cancel := context.WithTimeout(ctx, s.cfg.LaunchTimeout)
	defer cancel()
	opts := s.cfg.Browser
	opts.Logger = cmp.Or(opts.Logger, s.cfg.Logger)
	b, err := browser.Launch(lctx, opts)
	if err != nil {
		return fmt.Errorf("session: starting the browser: %w", err)
	}
	if err := b.Confine(s.cfg.Policy); err != nil {
		_ = b.Close()
		return err
	}
	s.mu.Lock()
	s.b = b
	if s.view != nil {
		s.view.Attach(b) // the view follows the session's browser
	}
	s.owner = map[string]string{}
	for _, a := range s.agents {
		a.tab = ""
	}
	s.mu.Unlock()
	return nil
}

func (s *server) closeBrowser() {
	s.mu.Lock()
	b := s.b
	s.b = nil
	s.mu.Unlock()
	if b != nil {
		if err := b.Close(); err != nil {
			s.log.Warn("closing the browser", "error", err)
		}
	}
}
