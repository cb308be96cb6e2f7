package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/fleet"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/secret"
)

type mcpOpts struct {
	common
	modelFlags
	secrets  secretFlag
	port     int
	host     string
	temporal temporalFlags
	live     liveFlags
}

func mcpFlags() (*flag.FlagSet, *mcpOpts) {
	o := &mcpOpts{}
	fs, g := newFlagGroups("mcp")
	g.add("MCP server", func(fs *flag.FlagSet) {
		fs.IntVar(&o.port, "port", 0, "serve streamable HTTP on this port (0: serve stdio)")
		fs.StringVar(&o.host, "host", "127.0.0.1", "with --port, the address to listen on (loopback unless told otherwise)")
		fs.Var(&o.secrets, "secret", "NAME@https://site=VALUE a credential the client's model may type as <secret>NAME</secret> with browser_type, only into that site's fields; masked in every answer and log (VALUE env:VAR reads the environment, totp:BASE32KEY or otpauth://totp/… types the current sign-in code; repeatable)")
	})
	g.add(titleModel, func(fs *flag.FlagSet) {
		o.modelFlags.register(fs, "model run_task uses (default $WEBAGENT_MODEL; without one, run_task is refused and the browser tools work)",
			"OpenAI-compatible endpoint of that model (default $OPENAI_BASE_URL)")
	})
	o.common.registerGroups(g, groupsRun)
	g.add(titleInbox, o.common.inbox.register)
	g.add(titlePolicy, o.policy.register)
	g.add(titleCache, func(fs *flag.FlagSet) { o.cache.register(fs, false) })
	g.add(titleRoutines, func(fs *flag.FlagSet) {
		fs.StringVar(&o.routines.dir, "routines", "", "a folder of routines (webagent routine save): each is a tool, routine_NAME, that runs its saved steps in the session's browser with the values given, and run_task's model is offered them too")
	})
	g.add(titleLive, o.live.registerMCP)
	g.add(titleFleet, func(fs *flag.FlagSet) {
		fs.StringVar(&o.temporal.addr, "temporal", "", "run run_task's runs on the fleet's workers (webagent worker) through this Temporal frontend, HOST:PORT: each is a workflow, which a client finds again by its task id after the server restarts")
		o.temporal.registerRest(fs)
	})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent mcp [flags]            (stdio, for an MCP client that starts it)\n"+
			"       webagent mcp --port 8931 [flags] (streamable HTTP on 127.0.0.1:8931/mcp)\n\n"+
			"Serves the Model Context Protocol: the browser tools (browser_navigate, browser_snapshot,\n"+
			"browser_click, ...) with webagent's snapshot and per-tool bounds, and run_task, the whole agent\n"+
			"loop as one tool. Each session has its own Chromium, closed when the session ends.\n\n")
		g.print()
	}
	return fs, o
}

func cmdMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs, o := mcpFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) > 0 {
		return exitUsage, usagef("mcp takes no arguments (got %q); see 'webagent help mcp'", pos[0])
	}
	if err := o.validate(); err != nil {
		return exitUsage, err
	}
	secrets, err := o.secrets.resolve()
	if err != nil {
		return exitUsage, err
	}
	hidden := o.browser.hidden()
	maps.Copy(hidden, secrets) // the inbox's password too
	if err := o.inbox.load(secrets); err != nil {
		return exitUsage, err
	}
	for k := range secrets {
		if _, origin, _ := secret.ParseKey(k); origin == "" {
			return exitUsage, usagef("--secret %s has no site: bind it to the one site it may be typed on, e.g. --secret %s@https://login.example.com=VALUE", k, k)
		}
	}
	// The logs (the browser's too: the URLs it reads) never show a secret.
	o.inbox.log = secret.NewMasker(hidden)
	stderr = o.inbox.log.Writer(stderr)
	log := o.logger(stderr)
	stopOTel, err := o.otel.start(ctx, "webagent-mcp", log)
	if err != nil {
		return exitUsage, err
	}
	defer stopOTel()
	if err := o.cache.open(log); err != nil {
		return exitUsage, err
	}
	var model contract.Model
	if cfg := o.modelFlags.config(log); cfg.Model != "" {
		if model, err = newModel(ctx, cfg); err != nil {
			return exitUsage, err
		}
	}
	var fc mcpserver.RemoteTasks // nil: run_task runs in the server
	if o.temporal.addr != "" {
		c, err := o.temporal.dial(ctx, log)
		if err != nil {
			return startExit(ctx), err
		}
		defer c.Close()
		fc = mcpFleet{&fleet.Client{C: c, TaskQueue: o.temporal.queue}}
	}
	routines, rops, err := o.routines.forMCP(model, stderr)
	if err != nil {
		return exitUsage, err
	}
	bopts := o.browserOptions(log) // common.browserOptions
	bopts.Isolated = o.cdpURL != ""
	live, err := o.live.serve(stderr)
	if err != nil {
		return exitUsage, err
	}
	defer closeServer(live) // after the server's runs and sessions, which close their views
	srv := mcpserver.New(mcpserver.Config{
		Live:         live,
		OnLive:       printLive(stderr),
		Fleet:        fc,
		Browser:      bopts,
		Policy:       o.nav.policy,
		Secrets:      secrets,
		Model:        model,
		Limits:       o.limits,
		AgentOptions: append(append([]agent.Option{agent.WithVision(o.vision.on), agent.WithVisionMarks(o.vision.marks), agent.WithScripts(!o.noScripts)}, o.inbox.options(nil)...), rops...),
		Routines:     routines,
		Inbox:        o.inbox.mailboxMCP(),
		Actions:      o.policy.p,
		DerivePolicy: o.policy.auto,
		Cache:        o.cache.opened,
		Version:      mcpVersion(),
		Logger:       log,
	})
	// A signal ends the server at once: its browsers are killed and
	// their folders left to reapers that outlive this process
	// (Server.Abandon), within exitBudget at most.
	defer within(exitBudget, func() { srv.Abandon() })
	if o.port == 0 {
		err := srv.ServeIO(ctx, stdin, stdout)
		if ctx.Err() != nil {
			return exitInterrupted, nil
		}
		return exitOK, err
	}
	return serveHTTP(ctx, srv, net.JoinHostPort(o.host, strconv.Itoa(o.port)), stderr)
}

// validate checks the flags that need no network.
func (o *mcpOpts) validate() error {
	if err := o.common.validate(); err != nil {
		return err
	}
	if err := o.modelFlags.validate(); err != nil {
		return err
	}
	if err := o.policy.load(); err != nil {
		return err
	}
	if o.temporal.addr != "" && (o.policy.p != nil || o.policy.auto) {
		return usagef("--confirm and --policy do not reach run_task's runs on the fleet (its workers take no action policy yet); drop them, or serve without --temporal")
	}
	if err := o.live.validate(); err != nil {
		return err
	}
	if o.port < 0 || o.port > 65535 {
		return usagef("--port is %d; use a port from 1 to 65535, or 0 for stdio", o.port)
	}
	return nil
}

// serveHTTP serves MCP on addr/mcp until ctx ends, then shuts down within
// a few seconds.
func serveHTTP(ctx context.Context, srv *mcpserver.Server, addr string, stderr io.Writer) (int, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return exitUsage, usagef("cannot listen on %s: %v; choose another --port", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "webagent: MCP over streamable HTTP at http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return exitFailed, err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return exitFailed, err
	}
	return exitInterrupted, nil
}

func mcpVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "dev"
}

// printLive prints a view's URLs on stderr, for the person (never the
// model's: the client gets them in _meta).
func printLive(stderr io.Writer) func(title, view, control string) {
	return func(title, view, control string) {
		fmt.Fprintf(stderr, "live view of %s (watch):   %s\nlive view of %s (control): %s\n", title, view, title, control)
	}
}
