package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/webagent/webagent/skill"
)

func skillFlags() (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("skill", flag.ContinueOnError)
	dir := fs.String("install", "", "write the skill into this skills folder (e.g. ~/.claude/skills), as "+skill.Name+"/SKILL.md, instead of printing it")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: webagent skill [--install DIR]\n\n"+
			"Prints webagent's skill for coding agents (SKILL.md, the Agent Skills format): how to drive\n"+
			"'webagent browser' step by step, when to hand a task to 'webagent run', and what each exit\nstatus means.\n\nFlags:\n")
		printFlags(fs)
	}
	return fs, dir
}

func cmdSkill(_ context.Context, args []string, stdout io.Writer) (int, error) {
	fs, dir := skillFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) > 0 {
		return exitUsage, usagef("skill takes no arguments (got %q); to install it: webagent skill --install DIR", pos[0])
	}
	if *dir == "" {
		fmt.Fprint(stdout, skill.Text())
		return exitOK, nil
	}
	path, err := skill.Install(*dir)
	if err != nil {
		return exitUsage, usagef("--install: %v", err)
	}
	fmt.Fprintln(stdout, "wrote", path)
	return exitOK, nil
}
