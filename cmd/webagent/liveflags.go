package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
)

// liveFlags are --live[=ADDR] and its TLS files: a live view of the run
// (package liveview), its URLs printed on stderr for the person.
type liveFlags struct {
	addr     liveAddr
	certFile string
	keyFile  string
}

// liveAddr is --live's value: a bare --live is a free loopback port.
type liveAddr struct {
	set  bool
	addr string
}

func (a *liveAddr) String() string { return a.addr }

func (a *liveAddr) Set(s string) error {
	a.set = true
	switch s {
	case "true", "":
		a.addr = ""
	case "false":
		a.set, a.addr = false, ""
	default:
		a.addr = s
	}
	return nil
}

// IsBoolFlag lets --live stand alone.
func (a *liveAddr) IsBoolFlag() bool { return true }

func (l *liveFlags) register(fs *flag.FlagSet) {
	l.registerAs(fs, "watch the run in a browser and take over between its steps: --live serves the view on a free loopback port, --live=HOST:PORT on that address (other than loopback it needs --live-cert and --live-key); the view's URLs are printed on stderr as the run starts. Questions (ask_human, --confirm) then wait for an answer in the page, and on the terminal too where stdin is one")
}

// registerMCP registers the flags for webagent mcp, whose views are each
// run_task's and each named session's.
func (l *liveFlags) registerMCP(fs *flag.FlagSet) {
	l.registerAs(fs, "a live view of each run_task and each named browser session: a person watches it, answers its questions (beside the client's user: the first answer wins) and takes the browser over between its steps. --live serves the views on a free loopback port, --live=HOST:PORT on that address (other than loopback it needs --live-cert and --live-key); each view's URLs are printed on stderr and given to the client in the tool result's _meta (\"webagent/live\"), never to the model")
}

// registerAs registers --live with its usage, and its TLS files.
func (l *liveFlags) registerAs(fs *flag.FlagSet, usage string) {
	fs.Var(&l.addr, "live", usage)
	fs.StringVar(&l.certFile, "live-cert", "", "the live view's TLS certificate (PEM), for --live on an address other than loopback")
	fs.StringVar(&l.keyFile, "live-key", "", "the TLS certificate's private key (PEM), with --live-cert")
}

func (l *liveFlags) validate() error {
	if !l.addr.set && (l.certFile != "" || l.keyFile != "") {
		return usagef("--live-cert and --live-key go with --live")
	}
	if (l.certFile == "") != (l.keyFile == "") {
		return usagef("--live-cert and --live-key go together: give both PEM files")
	}
	return nil
}

// liveRun is a run's live view while it runs.
type liveRun struct {
	srv    *liveview.Server
	view   *liveview.View
	closed bool
}

// serve starts the live view server when --live was given (nil without
// it); new links made from a view's page are printed on stderr.
func (l *liveFlags) serve(stderr io.Writer) (*liveview.Server, error) {
	if !l.addr.set {
		return nil, nil
	}
	srv, err := liveview.Start(liveview.Config{Addr: l.addr.addr, CertFile: l.certFile, KeyFile: l.keyFile, Register: true,
		OnRevoke: func(_ *liveview.View, view, control string) {
			fmt.Fprintf(stderr, "live view: the links were revoked; new ones:\n  watch:   %s\n  control: %s\n", view, control)
		}})
	if errors.Is(err, liveview.ErrTLSRequired) {
		return nil, usagef("--live=%s: %v (--live-cert, --live-key), or use a loopback address", l.addr.addr, err)
	}
	if err != nil {
		return nil, usagef("--live: %v", err)
	}
	return srv, nil
}

// closeServer closes a live view server, within a couple of seconds.
func closeServer(srv *liveview.Server) {
	if srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Close(ctx)
}

// start serves the live view when --live was given, and prints its URLs.
func (l *liveFlags) start(task string, idle time.Duration, stderr io.Writer) (*liveRun, error) {
	srv, err := l.serve(stderr)
	if srv == nil || err != nil {
		return nil, err
	}
	v := srv.Open(liveview.Options{Title: "webagent run", Task: task, Idle: idle})
	view, control := v.URLs()
	fmt.Fprintf(stderr, "live view (watch):   %s\nlive view (control): %s\n", view, control)
	return &liveRun{srv: srv, view: v}, nil
}

// options are the loop's options of the live view: it watches, answers
// and may take over.
func (lr *liveRun) options() []agent.Option {
	if lr == nil {
		return nil
	}
	return []agent.Option{agent.WithObserver(lr.view), agent.WithControl(lr.view.Lease())}
}

// human is the view as the person who answers questions; nil without one.
func (lr *liveRun) human() agent.Human {
	if lr == nil {
		return nil
	}
	return lr.view
}

// attach shows the browser in the view.
func (lr *liveRun) attach(b contract.Screencaster) {
	if lr != nil {
		lr.view.Attach(b)
	}
}

// close shows the result, if any, and ends the view; once.
func (lr *liveRun) close(res *agent.Result) {
	if lr == nil || lr.closed {
		return
	}
	lr.closed = true
	lr.view.Finish(res)
	closeServer(lr.srv)
}
