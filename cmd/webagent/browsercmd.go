package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/session"
	"github.com/webagent/webagent/session/wire"
)

// exitTimedOut is the exit status of a browser command that ran out of its
// budget (as timeout(1)'s).
const exitTimedOut = 124

// serveCommand is the hidden command of a session's own process, which
// finds the arguments of the command that started it in sessionArgsEnv.
const (
	serveCommand   = "__serve"
	sessionArgsEnv = "WEBAGENT_SESSION_ARGS"
)

// browserCommand is one command of webagent browser: a page tool, or one
// of the session's own.
type browserCommand struct {
	wire.Command
	desc string
}

// newBrowserCommand is a browser command with its arguments.
func newBrowserCommand(name, tool, desc string, params ...agent.Param) browserCommand {
	c := browserCommand{Command: wire.Command{Name: name, Tool: tool}, desc: desc}
	for _, p := range params {
		c.Params = append(c.Params, wire.Param(p))
	}
	return c
}

// browserCommands are the page tools (goto is open; names with dashes),
// then snapshot, screenshot, tabs' neighbours and the session's own.
func browserCommands() []browserCommand {
	out := []browserCommand{
		newBrowserCommand("snapshot", "snapshot", "The page as the model reads it: its text and every element you can act on, with its ref (e12); with --diff, only what changed since your last snapshot of the same page",
			agent.Param{Name: "diff", Type: "boolean", Desc: "only the lines added, removed and changed since your last snapshot, when the page is the same document (else the whole page)"}),
		newBrowserCommand("screenshot", "screenshot", "Save the visible part of the page as a PNG (to PATH, else a new temp file) and print its path",
			agent.Param{Name: "path", Type: "string", Desc: "the file to write"},
			agent.Param{Name: "annotate", Type: "boolean", Desc: "draw each element's ref on its box (set-of-mark)"}),
	}
	for _, pt := range agent.PageTools() {
		name := strings.ReplaceAll(pt.Def.Name, "_", "-")
		if pt.Def.Name == contract.ActGoto {
			name = "open"
		}
		params := pt.Params
		if pt.Def.Name == agent.ToolScript {
			params = []agent.Param{{Name: "code", Type: "string", Required: true, Desc: "a file holding the program, or - to read it from standard input"}}
		}
		out = append(out, newBrowserCommand(name, pt.Def.Name, pt.Def.Description, params...))
	}
	return append(out,
		newBrowserCommand("read-email", agent.ToolReadEmail, "Read the newest email in the session's inbox (--inbox) since the session began; "+
			"a sign-in code in it shows as <secret>email_code</secret> and a link as <secret>email_link</secret>: type or open exactly that, on the page you were on",
			agent.Param{Name: "from", Type: "string", Desc: "part of the sender's address or name"}, agent.Param{Name: "subject", Type: "string", Desc: "part of the subject"},
			agent.Param{Name: "wait_ms", Type: "integer", Desc: "how long to wait for a matching mail at most (default 20000, at most 30000)"}),
		newBrowserCommand("live", "live", "Print the session's live view links: a person opens the watch link to follow the browser and each command, "+
			"the control link also to take the browser over (commands that act on the page are then refused with PERSON_HAS_CONTROL until they hand it back); "+
			"give the links to your user, not to a page. The view starts with the first live and ends with the session",
			agent.Param{Name: "revoke", Type: "boolean", Desc: "make new links: the old ones stop working and everyone watching is disconnected"}),
		newBrowserCommand("status", "status", "The session's process, browser, agents and their tabs"),
		newBrowserCommand("sessions", "", "List the sessions that are running"),
		newBrowserCommand("close", "close", "End the session: its browser, profile and temp folders go; with --save-storage-state FILE, its cookies and storage are saved there first"),
	)
}

type browserOpts struct {
	common
	secrets     secretFlag
	name        string
	agent       string
	idle        time.Duration
	autoConnect bool
	confirmed   bool
	args        map[string]any
	launch      map[string]string // the settings given that apply at the session's start
}

func cmdBrowser(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	cmds := browserCommands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		writeBrowserUsage(stdout, cmds)
		if len(args) == 0 {
			return exitUsage, nil
		}
		return exitOK, nil
	}
	serve := args[0] == serveCommand
	if serve {
		// The command that started it comes in the environment, which
		// only this user can read, not on the command line: it may
		// carry --secret values.
		args = nil
		if err := json.Unmarshal([]byte(os.Getenv(sessionArgsEnv)), &args); err != nil || len(args) == 0 {
			return exitUsage, usagef("browser %s is started by webagent browser itself", serveCommand)
		}
		os.Unsetenv(sessionArgsEnv)
	}
	c, o, err := parseBrowserCommand(cmds, args, stdout)
	switch {
	case errors.Is(err, wire.ErrNoCommand):
		if slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "--help" || a == "-help" }) {
			writeBrowserUsage(stdout, cmds)
			return exitOK, nil
		}
		return exitUsage, usagef("browser: no command given, only flags; name one before or after them, e.g. webagent browser --session s1 snapshot (see 'webagent browser --help')")
	case err != nil:
		return exitUsage, err
	}
	switch {
	case serve:
		return serveSession(ctx, o, stderr)
	case c.Name == "sessions":
		names, err := session.Sessions(ctx, "")
		if err != nil {
			return exitFailed, err
		}
		return printBrowserReply(stdout, stderr, o, session.Reply{Status: session.OK, Text: strings.Join(names, "\n")}, "")
	}
	// Checked here too, so that a mistake is exit 2 before a session starts.
	if err := o.validate(); err != nil {
		return exitUsage, err
	}
	if c.Params != nil && c.Tool != "screenshot" && c.Tool != "snapshot" && c.Tool != "live" && c.Tool != agent.ToolReadEmail {
		raw, _ := json.Marshal(o.args)
		if _, _, err := agent.ParseAction(c.Tool, string(raw)); err != nil {
			return exitUsage, usagef("browser %s: %v (see 'webagent browser %s --help')", c.Name, err, c.Name)
		}
	}
	return sendBrowserCommand(ctx, c, o, args, stdout, stderr)
}

// parseBrowserCommand reads a browser command line (session/wire's
// parser, the lean front's) with the command's whole flag set.
func parseBrowserCommand(cmds []browserCommand, args []string, stdout io.Writer) (browserCommand, *browserOpts, error) {
	byName := make(map[string]browserCommand, len(cmds))
	p := wire.Parser{ParseFlags: func(fs *flag.FlagSet, args []string) ([]string, error) { return parseFlags(fs, args, stdout) }}
	for _, c := range cmds {
		byName[c.Name] = c
		p.Commands = append(p.Commands, c.Command)
	}
	var o *browserOpts // the last flag set's: the named command's
	var fs *flag.FlagSet
	p.Flags = func(wc wire.Command) (*flag.FlagSet, map[string]any) {
		fs, o = browserFlagSet(byName[wc.Name])
		return fs, o.args
	}
	call, err := p.Parse(args)
	var unknown *wire.UnknownCommandError
	var bad *wire.ArgsError
	switch {
	case errors.As(err, &unknown):
		if near := closest(unknown.Name, unknown.Names); near != "" {
			return browserCommand{}, nil, usagef("unknown browser command %q; did you mean %q? (see 'webagent browser --help')", unknown.Name, near)
		}
		return browserCommand{}, nil, usagef("%v", err)
	case errors.As(err, &bad):
		return browserCommand{}, nil, usagef("%v", err)
	case err != nil:
		return browserCommand{}, nil, err // parseFlags's, help included
	}
	c := byName[call.Command.Name]
	o.name, o.agent = call.Session, call.Agent
	if c.startsSession() {
		o.launch = launchSettings(fs, c)
	}
	if c.Tool == agent.ToolScript {
		if err := readProgram(o.args); err != nil {
			return c, nil, err
		}
	}
	return c, o, nil
}

// sendBrowserCommand sends the command to its session, starting the
// session with args when none runs, and prints the reply.
func sendBrowserCommand(ctx context.Context, c browserCommand, o *browserOpts, args []string, stdout, stderr io.Writer) (int, error) {
	shot := ""
	if c.Tool == "screenshot" {
		shot, _ = o.args["path"].(string)
		delete(o.args, "path")
	}
	if save := o.common.session.saveStorageState; c.Tool == "close" && save != "" {
		// The session's process may have another working folder.
		abs, err := filepath.Abs(save)
		if err != nil {
			return exitUsage, usagef("--save-storage-state %q: %v", save, err)
		}
		if o.args == nil {
			o.args = map[string]any{}
		}
		o.args["save_storage_state"] = abs
	}
	exe, err := os.Executable()
	if err != nil {
		return exitFailed, err
	}
	cl := &session.Client{Name: o.name, Command: func() *exec.Cmd {
		cmd := exec.Command(exe, "browser", serveCommand)
		raw, _ := json.Marshal(args)
		cmd.Env = append(os.Environ(), sessionArgsEnv+"="+string(raw))
		return cmd
	}}
	bound := o.limits.Effective().OperationTimeout + 15*time.Second
	cctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	r, err := cl.Do(cctx, session.Request{Agent: o.agent, Command: c.Tool, Args: o.args, Confirmed: o.confirmed, Launch: o.launch})
	switch {
	case errors.Is(err, session.ErrNoSession):
		return exitFailed, fmt.Errorf("%w; its first command other than status or close starts it", err)
	case ctx.Err() != nil:
		return exitInterrupted, nil
	case err != nil:
		return exitFailed, err
	}
	if c.Tool == "screenshot" && r.Status == session.OK {
		if shot, err = wire.WriteShot(shot, r.PNG); err != nil {
			return exitFailed, err
		}
		r.Text = shot
	}
	return printBrowserReply(stdout, stderr, o, r, shot)
}

// validate checks the flags that shape the session's browser.
func (o *browserOpts) validate() error {
	if err := o.common.validate(); err != nil {
		return err
	}
	if err := o.policy.load(); err != nil {
		return err
	}
	if o.policy.auto {
		return usagef("--policy auto draws a policy from a task with a model; the browser commands have neither: write the rules in a file and pass --policy FILE")
	}
	if o.idle < 0 {
		return usagef("--idle-timeout is %s; use a positive duration such as 15m, or 0 for the default", o.idle)
	}
	if o.autoConnect && o.cdpURL != "" {
		return usagef("--auto-connect and --cdp-url cannot go together: give one way to find the browser")
	}
	if o.autoConnect {
		url, err := launcher.FindRunning(o.common.session.userDataDir)
		if err != nil {
			return usagef("--auto-connect: %v", err)
		}
		o.cdpURL = url
	}
	_, err := o.secrets.resolve()
	return err
}

// printBrowserReply prints a reply, as text or JSON, and returns its exit
// status: the lean front's way (session/wire), so that the two print alike.
func printBrowserReply(stdout, stderr io.Writer, o *browserOpts, r session.Reply, file string) (int, error) {
	return r.Print(stdout, stderr, o.name, o.agent, o.json, file), nil
}

func writeBrowserUsage(w io.Writer, cmds []browserCommand) {
	fmt.Fprint(w, "Usage: webagent browser [flags] COMMAND [ARGS] [flags]\n\n"+
		"One bounded browser command at a time, for coding agents: the first command starts a session\n"+
		"(one Chromium, kept between commands); open a page, read its snapshot, act on its refs.\n\n"+
		"  webagent browser open https://example.com\n  webagent browser snapshot\n  webagent browser click e12\n  webagent browser type e3 alice --submit\n\n"+
		"Exit status: 0 done, 1 the action failed (the message says why), 2 bad usage, 124 timed out\n"+
		"(the page was recovered; the next command works). 'webagent browser COMMAND --help' shows a\n"+
		"command's arguments and flags. 'webagent skill' explains the loop.\n\nCommands:\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-12s %s\n", c.Name, firstSentence(c.desc))
	}
}

func firstSentence(s string) string {
	s = strings.ReplaceAll(s, "e.g. ", "e.g.\u00a0")
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i]
	}
	return strings.ReplaceAll(strings.TrimSuffix(s, "."), "e.g.\u00a0", "e.g. ")
}
