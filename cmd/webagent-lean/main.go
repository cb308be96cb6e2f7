// Command webagent-lean is the front of webagent that ./setup.sh installs
// as bin/webagent, with the whole program beside it as bin/webagent-full.
//
// A coding agent runs `webagent browser snapshot`, `click e12`, `type e3
// alice` as a process each, so a browser command's own cost is the
// program's start. The whole program links about 300 packages whose
// initialisation alone takes ten milliseconds; this one links the standard
// library's ground floor and package session/wire, and starts in one or two.
//
// It runs a browser command itself when the command is a plain one to a
// session that already runs: a page command, snapshot, screenshot, live, status
// or close, with its arguments by position or as its own flags, and only
// --session, --agent and --json besides, before or after the command's
// name: the whole program's parser reads it (session/wire's Parser), on
// these flags alone. Everything else it hands, as it
// was given, to webagent-full by exec: every other command, a browser
// command with any other flag, --help, a session that does not answer yet
// (webagent-full starts it), a WEBAGENT_ or OTEL_ variable that the whole
// program would read, and a request the session calls invalid (so that
// webagent-full prints its usage error, exit 2). What it prints and its
// exit status are webagent-full's, which tests of cmd/webagent check.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/webagent/webagent/session/wire"
)

// fullName is the whole program, beside this one.
const fullName = "webagent-full"

// Exit statuses, as webagent's (the others are wire's).
const (
	exitFailed      = wire.ExitFailed
	exitInterrupted = 130
)

// cliNice is webagent's own priority where it may (cmd/webagent's cliNice).
const cliNice = -10

func main() {
	args := os.Args[1:]
	if len(args) > 1 && args[0] == "browser" {
		if code, done := fast(args[1:], os.Stdout, os.Stderr); done {
			os.Exit(code)
		}
	}
	os.Exit(handOver(args, os.Stderr))
}

// handOver runs webagent-full with args in this process's place.
func handOver(args []string, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "webagent: %v\n", err)
		return exitFailed
	}
	full := filepath.Join(filepath.Dir(exe), fullName)
	err = syscall.Exec(full, append([]string{full}, args...), os.Environ())
	fmt.Fprintf(stderr, "webagent: this is webagent's lean front; it runs %s for this command and could not (%v): run ./setup.sh again, "+
		"or install the whole program with go install github.com/webagent/webagent/cmd/webagent@latest\n", full, err)
	return exitFailed
}

// handedOver are the commands webagent-full always runs: sessions reads
// the folder, script reads a file or standard input.
var handedOver = map[string]bool{"sessions": true, "script": true}

// parse reads a browser command line with session/wire's parser, the
// whole program's, on the lean front's flags (--session, --agent, --json
// and the command's arguments); ok is false for anything else, and for
// every line the parser refuses (webagent-full runs those and says why).
func parse(args []string) (wire.Call, bool) {
	c, err := wire.Parser{Commands: commands, Flags: wire.Flags}.Parse(args)
	return c, err == nil && !handedOver[c.Command.Name]
}

// fast runs a plain browser command to a running session; done is false
// when webagent-full must run it instead (nothing was done then).
func fast(args []string, stdout, stderr io.Writer) (code int, done bool) {
	if readsEnvironment() {
		return 0, false
	}
	c, ok := parse(args)
	if !ok {
		return 0, false
	}
	dir, err := wire.Dir()
	if err != nil {
		return 0, false
	}
	var d net.Dialer
	conn, err := d.Dial("unix", wire.Socket(dir, c.Session))
	if err != nil {
		return 0, false // none runs yet: webagent-full starts it
	}
	defer conn.Close()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, cliNice)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, defaultOperationTimeout+15*time.Second)
	defer cancel()
	shot := ""
	if c.Command.Tool == "screenshot" {
		shot, _ = c.Args["path"].(string)
		delete(c.Args, "path")
	}
	r, err := send(ctx, conn, c)
	switch {
	case errors.Is(err, errInterrupted):
		return exitInterrupted, true
	case err != nil:
		fmt.Fprintf(stderr, "webagent: %s\n", err)
		return exitFailed, true
	case r.Status == wire.Invalid:
		return 0, false // nothing was done: webagent-full says what was wrong
	}
	if c.Command.Tool == "screenshot" && r.Status == wire.OK {
		if shot, err = wire.WriteShot(shot, r.PNG); err != nil {
			fmt.Fprintf(stderr, "webagent: %s\n", err)
			return exitFailed, true
		}
		r.Text = shot
	}
	return r.Print(stdout, stderr, c.Session, c.Agent, c.JSON, shot), true
}

// readsEnvironment says whether a variable is set that webagent-full's
// flags read (their defaults, their checks), besides the session's and the
// agent's names.
func readsEnvironment() bool {
	for _, kv := range os.Environ() {
		switch {
		case hasPrefix(kv, "WEBAGENT_SESSION="), hasPrefix(kv, "WEBAGENT_AGENT="):
		case hasPrefix(kv, "WEBAGENT_"), hasPrefix(kv, "OTEL_"):
			return true
		}
	}
	return false
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

var errInterrupted = errors.New("interrupted")

// send sends the request on conn and reads the reply, within ctx.
func send(ctx context.Context, conn net.Conn, c wire.Call) (wire.Reply, error) {
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	req := wire.Request{Agent: c.Agent, Command: c.Command.Tool, Args: c.Args}
	line, err := json.Marshal(req)
	if err != nil {
		return wire.Reply{}, err
	}
	fail := func(err error) (wire.Reply, error) {
		if ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.Canceled) {
				return wire.Reply{}, errInterrupted
			}
			return wire.Reply{}, ctx.Err()
		}
		return wire.Reply{}, err
	}
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return fail(err)
	}
	out, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		return fail(fmt.Errorf("session %s: the session went away before answering: %w", c.Session, err))
	}
	var r wire.Reply
	if err := json.Unmarshal(out, &r); err != nil {
		return wire.Reply{}, fmt.Errorf("session %s: its answer: %w", c.Session, err)
	}
	return r, nil
}
