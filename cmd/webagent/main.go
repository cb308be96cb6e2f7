// Command webagent drives a real Chromium with any OpenAI-compatible model
// until a task written in plain words is done, or fails with a clear code.
//
//	webagent run --url URL [flags] "task"
//	webagent demo
//	webagent eval [flags] [TASK_FILES_OR_DIRS...]
//
// Exit status: 0 success, 1 the task ended unsuccessfully, 2 bad usage or
// configuration, 130 interrupted (SIGINT/SIGTERM).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/webagent/webagent/browser/launcher"
)

// Exit statuses.
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitInterrupted = 130
)

const usage = `webagent drives a real Chromium with a language model to do a task on the web.

Usage:
  webagent run --url URL [flags] "task in plain words"
  webagent demo [flags]            run a built-in task offline (local site, bundled model server)
  webagent bench snapshot DIR      measure the page snapshot on DIR's .html pages (CSV)
  webagent eval [flags] [FILES]    run task suites (the built-in ones offline by default) and write reports
  webagent eval compare OLD NEW    list regressions and improvements between two report.json
  webagent show-trace DIR          open the viewer of a trace written by run --trace DIR
  webagent replay DIR              run a trace's actions again, without a model (a regression test)
  webagent console [DIR...]        one page: this machine's live runs, and the past runs in trace and cache folders
  webagent mcp [--port N]          serve the browser tools and run_task over MCP (stdio, or HTTP with --port)
  webagent worker --temporal ADDR  run tasks and eval episodes from a Temporal queue (a fleet's machine)
  webagent submit --temporal ADDR --url URL "task"   run a task on the fleet (--detach: print its id)
  webagent status|cancel ID        a fleet task's state, question and result; end it as CANCELED
  webagent answer ID "text"        answer a fleet task's pending ask_human question
  webagent bot-key new|directory FILE  make a signing key (--bot-key), print or serve its public directory
  webagent passkeys list|remove FILE [ID]  the passkeys of a --passkeys store (never their keys)
  webagent browser COMMAND [ARGS]  one bounded browser command at a time (open, snapshot, click e12, ...)
                                   in a session that keeps its Chromium; for coding agents
  webagent routine save|check|list|run|diff|accept   a run that worked as a named, parameterised tool
  webagent skill [--install DIR]   print (or install) the skill that teaches a coding agent webagent browser
  webagent version                 print the version and the commit it was built from
  webagent completion bash|zsh|fish  print a shell completion script
  webagent help [command]

Run 'webagent help run' for the flags.
`

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

// cliNice is the priority webagent raises itself to where it may: above
// ordinary programs and a browser's threads (Chromium's highest, -8).
const cliNice = -10

// usageError is bad input: exit status 2 and one clear line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

func realMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	// The bound is the exit: webagent's timers come before the load of a
	// busy machine where it may (as root), and its browsers never come
	// before it (launcher.Start).
	_ = launcher.RaisePriority(cliNice)
	// SIGINT/SIGTERM cancel the task; the result is still printed. A second
	// signal kills the process at once (the default behaviour is restored).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()

	var err error
	code := exitOK
	switch args[0] {
	case "run":
		code, err = cmdRun(ctx, args[1:], stdout, stderr)
	case "demo":
		code, err = cmdDemo(ctx, args[1:], stdout, stderr)
	case "bench":
		code, err = cmdBench(ctx, args[1:], stdout, stderr)
	case "eval":
		code, err = cmdEval(ctx, args[1:], stdout, stderr)
	case "show-trace", "replay", "console":
		code, err = cmdPastRuns(ctx, args[0], args[1:], stdout, stderr)
	case "mcp":
		code, err = cmdMCP(ctx, args[1:], os.Stdin, stdout, stderr)
	case "worker":
		code, err = cmdWorker(ctx, args[1:], stdout, stderr)
	case "submit":
		code, err = cmdSubmit(ctx, args[1:], stdout, stderr)
	case "status":
		code, err = cmdStatus(ctx, args[1:], stdout, stderr)
	case "cancel":
		code, err = cmdCancel(ctx, args[1:], stdout, stderr)
	case "answer":
		code, err = cmdAnswer(ctx, args[1:], stdout, stderr)
	case "bot-key", "passkeys":
		code, err = cmdKeys(ctx, args[0], args[1:], stdout, stderr)
	case "browser":
		code, err = cmdBrowser(ctx, args[1:], stdout, stderr)
	case "routine":
		code, err = cmdRoutine(ctx, args[1:], stdout, stderr)
	case "skill":
		code, err = cmdSkill(ctx, args[1:], stdout)
	case "version", "--version", "-version":
		code, err = cmdVersion(args[1:], stdout)
	case "completion":
		code, err = cmdCompletion(args[1:], stdout)
	case "help", "-h", "--help":
		if len(args) > 1 {
			code, err = help(args[1], stdout)
			break
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		err = unknownCommand(args[0])
	}
	var ue *usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "webagent: %s\n", ue.msg)
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "webagent: %s\n", err)
		if code == exitOK {
			code = exitFailed
		}
	}
	return code
}

// cmdKeys runs the commands that manage keys: bot-key and passkeys.
func cmdKeys(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) (int, error) {
	if cmd == "passkeys" {
		return cmdPasskeys(ctx, args, stdout)
	}
	return cmdBotKey(ctx, args, stdout, stderr)
}

// cmdPastRuns runs the commands that read recorded runs: show-trace,
// replay and console.
func cmdPastRuns(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) (int, error) {
	switch cmd {
	case "show-trace":
		return cmdShowTrace(ctx, args, stdout, stderr)
	case "replay":
		return cmdReplay(ctx, args, stdout, stderr)
	}
	return cmdConsole(ctx, args, stdout, stderr)
}

// commands are the commands, in the order help lists them.
var commands = []string{"run", "demo", "bench", "eval", "show-trace", "replay", "console", "mcp", "worker", "submit", "status", "cancel", "answer", "bot-key", "passkeys", "browser", "routine", "skill", "version", "completion", "help"}

// commandFlags returns each command's flag set, for help and completion.
var commandFlags = map[string]func() *flag.FlagSet{
	"run":        func() *flag.FlagSet { fs, _ := runFlags(); return fs },
	"demo":       func() *flag.FlagSet { fs, _ := demoFlags(); return fs },
	"bench":      func() *flag.FlagSet { fs, _ := benchFlags(); return fs },
	"eval":       func() *flag.FlagSet { fs, _ := evalFlags(); return fs },
	"show-trace": func() *flag.FlagSet { fs, _ := showTraceFlags(); return fs },
	"replay":     func() *flag.FlagSet { fs, _ := replayFlags(); return fs },
	"console":    func() *flag.FlagSet { fs, _ := consoleFlags(); return fs },
	"mcp":        func() *flag.FlagSet { fs, _ := mcpFlags(); return fs },
	"worker":     func() *flag.FlagSet { fs, _ := workerFlags(); return fs },
	"submit":     func() *flag.FlagSet { fs, _ := submitFlags(); return fs },
	"status":     func() *flag.FlagSet { fs, _ := idFlags("status", "status [flags] ID"); return fs },
	"cancel":     func() *flag.FlagSet { fs, _ := idFlags("cancel", "cancel [flags] ID"); return fs },
	"answer":     func() *flag.FlagSet { fs, _ := idFlags("answer", "answer [flags] ID \"text\""); return fs },
	"bot-key":    func() *flag.FlagSet { fs, _ := botKeyFlags(); return fs },
	"skill":      func() *flag.FlagSet { fs, _ := skillFlags(); return fs },
	"passkeys":   passkeysFlags,
	"routine": func() *flag.FlagSet {
		fs := flag.NewFlagSet("routine", flag.ContinueOnError)
		fs.Usage = func() {
			fmt.Fprint(fs.Output(), routineUsage+"\nSee webagent routine COMMAND --help for each command's flags.\n")
		}
		return fs
	},
}

func unknownCommand(cmd string) error {
	if near := closest(cmd, commands); near != "" {
		return usagef("unknown command %q; did you mean %q? (see 'webagent help')", cmd, near)
	}
	return usagef("unknown command %q; the commands are %s (see 'webagent help')", cmd, strings.Join(commands, ", "))
}

func help(cmd string, w io.Writer) (int, error) {
	if flags, ok := commandFlags[cmd]; ok {
		writeHelp(flags(), w)
		return exitOK, nil
	}
	if slices.Contains(commands, cmd) {
		fmt.Fprint(w, usage)
		return exitOK, nil
	}
	return exitUsage, unknownCommand(cmd)
}
