package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/llm"
)

func demoFlags() (*flag.FlagSet, *common) {
	c := &common{}
	fs, g := newFlagGroups("demo")
	c.registerGroups(g, groupsRun|groupJSON|groupTrace)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent demo [flags]\n\n"+
			"Runs a built-in task offline: sign in to a local bank site and report the balance,\n"+
			"driven by the bundled OpenAI-compatible model server over HTTP and a real Chromium.\n\n")
		g.print()
	}
	return fs, c
}

func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, c := demoFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) > 0 {
		return exitUsage, usagef("demo takes no task; to run your own, use: webagent run --url URL \"task\"")
	}
	if err := c.validate(); err != nil {
		return exitUsage, err
	}
	d, err := eval.StartDemo()
	if err != nil {
		return exitFailed, err
	}
	defer d.Close()
	fmt.Fprintf(stderr, "demo: site %s, model server %s (scripted, offline)\n", d.SiteURL, d.Model.BaseURL())
	model, err := newModel(ctx, llm.Config{BaseURL: d.Model.BaseURL(), Model: "webagent-reference", Inactivity: llm.DefaultInactivity, Logger: c.logger(stderr)})
	if err != nil {
		return exitFailed, err
	}
	return execute(ctx, *c, model, d.Task(), stdout, stderr)
}
