package session

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// readyEnv tells a session process started by a Client the file
// descriptor of the pipe to report its start on (ServeStarted).
const readyEnv = "WEBAGENT_SESSION_READY_FD"

// Client sends commands to a session, starting its process when none
// answers.
type Client struct {
	// Name is the session's name; "" is "default".
	Name string
	// Dir is the sockets' folder; Dir() when "".
	Dir string
	// Command, when set, makes the command that starts the session's
	// process (which calls Serve with Config.Ready from ServeStarted); a
	// Client without one only talks to a running session.
	Command func() *exec.Cmd
	// StartTimeout bounds the start of the session's process and its
	// browser; 0 is 90 s.
	StartTimeout time.Duration
}

// ErrNoSession is Do's error when no process serves the session and the
// Client may not start one.
var ErrNoSession = errors.New("session: no such session")

// Do sends req and returns the session's reply. ctx bounds it all: the
// client closes its connection when ctx ends, which ends the command in
// the session.
func (c *Client) Do(ctx context.Context, req Request) (Reply, error) {
	name := cmp.Or(c.Name, "default")
	if err := CheckName("session", name); err != nil {
		return Reply{}, err
	}
	dir := c.Dir
	if dir == "" {
		var err error
		if dir, err = Dir(); err != nil {
			return Reply{}, err
		}
	}
	p := pathsOf(dir, name)
	conn, err := dial(ctx, p.sock)
	if err != nil && c.Command != nil && req.Command != cmdClose && req.Command != cmdStatus {
		conn, err = c.start(ctx, p)
	}
	if err != nil {
		if isAbsent(err) {
			return Reply{}, fmt.Errorf("%w %q", ErrNoSession, name)
		}
		return Reply{}, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	line, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return Reply{}, cmp.Or(ctx.Err(), err)
	}
	var r Reply
	out, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		return Reply{}, cmp.Or(ctx.Err(), fmt.Errorf("session %s: the session went away before answering: %w", name, err))
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return Reply{}, fmt.Errorf("session %s: its answer: %w", name, err)
	}
	return r, nil
}

// Sessions lists the sessions that answer in dir (Dir() when "").
func Sessions(ctx context.Context, dir string) ([]string, error) {
	if dir == "" {
		var err error
		if dir, err = Dir(); err != nil {
			return nil, err
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".sock")
		if !ok {
			continue
		}
		if c, err := dial(ctx, pathsOf(dir, name).sock); err == nil {
			c.Close()
			out = append(out, name)
		}
	}
	return out, nil
}

func dial(ctx context.Context, sock string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", sock)
}

// isAbsent reports whether a dial found no one listening.
func isAbsent(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)
}

// start starts the session's process, unless another client is starting
// it (the start lock), and connects once it listens.
func (c *Client) start(ctx context.Context, p paths) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(c.StartTimeout, 90*time.Second))
	defer cancel()
	unlock, err := lockWait(ctx, p.start)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Another client may have started it while this one waited.
	if conn, err := dial(ctx, p.sock); err == nil || !isAbsent(err) {
		return conn, err
	}
	cmd := c.Command()
	log, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, log, log
	cmd.ExtraFiles = []*os.File{w}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, readyEnv+"=3")
	// A process of its own, in a session of its own: a signal to the
	// client's process group (the terminal's Ctrl-C, a harness killing
	// the command) does not reach it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	w.Close()
	if err != nil {
		return nil, fmt.Errorf("starting the session: %w", err)
	}
	// Its exit is collected here while this process lives; after, by init.
	go func() { _ = cmd.Wait() }()
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case msg := <-got:
		if msg != "ready" && msg != ErrRunning.Error() {
			if msg == "" {
				tail, _ := os.ReadFile(p.log)
				msg = "it exited: " + lastLines(string(tail), 5)
			}
			// The message holds what the log would tell; no session
			// is left to own it.
			removeLog(log, p.log)
			return nil, fmt.Errorf("starting the session: %s", msg)
		}
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		removeLog(log, p.log)
		return nil, fmt.Errorf("starting the session: not ready within its start timeout: %w", ctx.Err())
	}
	return dial(ctx, p.sock)
}

// ServeStarted returns a Config.Ready for a session process that a Client
// started: it reports the start on the pipe the Client gave it, or does
// nothing when the process was not started so.
func ServeStarted() func(error) {
	var f *os.File
	if fd, err := strconv.Atoi(os.Getenv(readyEnv)); err == nil && fd > 2 {
		syscall.CloseOnExec(fd) // not for the processes the session starts
		f = os.NewFile(uintptr(fd), "ready")
		os.Unsetenv(readyEnv) // not for the browser's processes
	}
	return func(err error) {
		if f == nil {
			return
		}
		msg := "ready"
		if err != nil {
			msg = err.Error()
		}
		_, _ = f.WriteString(msg + "\n")
		f.Close()
		f = nil
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}
