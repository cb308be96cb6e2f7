package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"

	"github.com/webagent/webagent/session"
	"github.com/webagent/webagent/session/wire"
)

// The flags of webagent browser's commands, and their place before or
// after the command's name.

// startsSession says whether a command may start its session: all but
// status and close, which speak to one that runs, and sessions.
func (c browserCommand) startsSession() bool {
	return c.Name != "status" && c.Name != "close" && c.Name != "sessions"
}

// browserFlagSet is the flag set of one browser command: the session's,
// the browser's and the command's own arguments as flags. A command that
// may start its session takes the flags of the session's browser (read
// by the session it starts); status and close take only the session's
// address, sessions only --json.
func browserFlagSet(c browserCommand) (*flag.FlagSet, *browserOpts) {
	fs, o, _ := browserFlagGroups(c)
	return fs, o
}

// browserFlagGroups is browserFlagSet with its groups.
func browserFlagGroups(c browserCommand) (*flag.FlagSet, *browserOpts, *flagGroups) {
	o := &browserOpts{args: map[string]any{}}
	fs, g := newFlagGroups("browser")
	if c.Name != "sessions" {
		g.add("Session", func(fs *flag.FlagSet) {
			fs.StringVar(&o.name, "session", "", "the session to use: one browser kept between commands, started by its first command (default $WEBAGENT_SESSION, else default)")
			fs.StringVar(&o.agent, "agent", "", "act as this agent, on tabs of its own in the session, sharing its cookies with the others (default $WEBAGENT_AGENT, else default)")
			registerOperationTimeout(fs, &o.limits)
		})
	}
	if c.Name == "close" {
		g.add("Session", o.common.session.registerSave)
	}
	if !c.startsSession() {
		o.common.registerGroups(g, groupJSON)
	} else {
		g.add("Session", func(fs *flag.FlagSet) {
			fs.DurationVar(&o.idle, "idle-timeout", session.DefaultIdleTimeout, "end the session after this long without commands (applies when the command starts the session)")
			fs.BoolVar(&o.autoConnect, "auto-connect", false, "use the Chrome or Chromium you already run (started with remote debugging on; found through its profile's DevToolsActivePort, --user-data-dir's if given): the session opens its own tabs there and closes only those")
			fs.Var(&o.secrets, "secret", "NAME@https://site=VALUE a credential typed as <secret>NAME</secret>, only into that site's fields; masked in every answer (VALUE env:VAR reads the environment; repeatable; applies when the command starts the session)")
		})
		o.common.registerGroups(g, groupLocal|groupRemote|groupPage|groupFiles|groupSettings|groupNav|groupJSON|groupLog|groupOTel|groupConfig)
		g.add(titleSession, o.common.session.register)
		g.add(titlePolicy, func(fs *flag.FlagSet) {
			o.policy.register(fs)
			fs.BoolVar(&o.confirmed, "confirmed", false, "the user said yes to this action, which the action policy (--policy, --confirm) wants confirmed")
		})
		g.add(titleInbox, o.common.inbox.register)
	}
	g.add("Arguments, also given in order without their flags", func(fs *flag.FlagSet) { wire.RegisterArgs(fs, c.Command, o.args) })
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent browser %s%s [flags]\n\n%s\n\n", c.Name, c.Positionals(), c.desc)
		g.print()
	}
	return fs, o, g
}

// browserCommandFlags are the flags a browser command reads itself; every other
// flag of a command that may start its session is a launch setting, read
// by the session it starts.
var browserCommandFlags = map[string]bool{"session": true, "agent": true, "operation-timeout": true, "json": true, "confirmed": true}

// launchSettings are the launch settings fs was given, each as a digest
// of its value (the session compares them; no secret travels): a session
// that runs with others refuses the command instead of ignoring them.
func launchSettings(fs *flag.FlagSet, c browserCommand) map[string]string {
	own := flag.NewFlagSet("", flag.ContinueOnError)
	wire.RegisterArgs(own, c.Command, map[string]any{})
	m := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if browserCommandFlags[f.Name] || own.Lookup(f.Name) != nil {
			return
		}
		sum := sha256.Sum256([]byte(f.Value.String()))
		m[f.Name] = hex.EncodeToString(sum[:8])
	})
	return m
}
