package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/fleet"
	"github.com/webagent/webagent/secret"
)

// The fleet's commands: worker, submit, status, cancel, answer. They wire
// flags to package fleet.

// workerOpts are the flags of webagent worker.
type workerOpts struct {
	temporal    temporalFlags
	model       modelFlags
	secrets     secretFlag
	concurrency int
	identity    string
	chrome      string
	headful     bool
	logLevel    string
	bot         botFlags
	otel        otelFlags
	live        workerLive
}

func workerFlags() (*flag.FlagSet, *workerOpts) {
	o := &workerOpts{}
	fs, g := newFlagGroups("worker")
	g.add(titleFleet, o.temporal.register)
	g.add(titleModel, func(fs *flag.FlagSet) {
		o.model.register(fs, "the model this worker runs submitted tasks with (default $WEBAGENT_MODEL); without one it runs only built-in eval episodes, with the bundled reference model",
			"OpenAI-compatible endpoint of the worker's model (default $OPENAI_BASE_URL)")
	})
	g.add("Worker", func(fs *flag.FlagSet) {
		fs.Var(&o.secrets, "secret", "NAME=VALUE a secret submitted tasks may name (VALUE env:VAR reads the environment); values stay on this machine (repeatable)")
		fs.IntVar(&o.concurrency, "concurrency", eval.DefaultWorkers(), "tasks and episodes at once, each in a browser context of its own")
		fs.StringVar(&o.identity, "identity", "", "the worker's name in results and status (default HOST@PID)")
	})
	g.add(titleBrowser, func(fs *flag.FlagSet) {
		fs.StringVar(&o.chrome, "chrome", "", "path to the Chromium binary (default $CHROME_PATH, else chromium on PATH)")
		fs.BoolVar(&o.headful, "headful", false, "show the browsers' windows")
	})
	g.add(titleSettings, o.bot.register)
	g.add(titleLive, o.live.register)
	g.add(titleOutput, func(fs *flag.FlagSet) {
		fs.StringVar(&o.logLevel, "log-level", "info", "log level on stderr: debug, info, warn, error or disabled")
		o.otel.register(fs)
	})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent worker --temporal HOST:PORT [flags]\n\nRuns submitted tasks and eval episodes from the task queue until SIGINT or SIGTERM.\n\n")
		g.print()
	}
	return fs, o
}

func cmdWorker(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o := workerFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) > 0 {
		return exitUsage, usagef("worker takes no arguments, got %q", pos[0])
	}
	if o.concurrency < 1 {
		return exitUsage, usagef("--concurrency is %d; give at least 1", o.concurrency)
	}
	if err := (&common{logLevel: o.logLevel}).validateLogLevel(); err != nil {
		return exitUsage, err
	}
	if err := o.model.validate(); err != nil {
		return exitUsage, err
	}
	if err := o.bot.validate(); err != nil {
		return exitUsage, err
	}
	if err := o.live.validate(); err != nil {
		return exitUsage, err
	}
	secrets, err := o.secrets.resolve()
	if err != nil {
		return exitUsage, err
	}
	// The logs never show a secret, the model's key or Temporal's.
	cfg := o.model.config(nil)
	hidden := map[string]string{}
	maps.Copy(hidden, secrets)
	for name, v := range map[string]string{"model API key": cfg.APIKey, "Temporal API key": o.temporal.apiKey + os.Getenv("TEMPORAL_API_KEY")} {
		if v != "" {
			hidden[name] = v
		}
	}
	stderr = secret.NewMasker(hidden).Writer(stderr)
	log := (&common{logLevel: o.logLevel}).logger(stderr)
	cfg.Logger = log
	if err := o.otel.validate(); err != nil {
		return exitUsage, err
	}
	stopOTel, err := o.otel.start(ctx, "webagent-worker", log)
	if err != nil {
		return exitUsage, err
	}
	defer stopOTel()
	live, err := o.live.start(log)
	if err != nil {
		return exitUsage, err
	}
	defer closeLive(live)

	wcfg := fleet.WorkerConfig{
		TaskQueue: o.temporal.queue, Concurrency: o.concurrency, Secrets: secrets, Identity: o.identity,
		Browser: browser.Options{ChromePath: o.chrome, Headful: o.headful, Logger: log}, Logger: log, Live: live,
	}
	o.bot.apply(&wcfg.Browser)
	if cfg.Model != "" {
		model, err := newModel(ctx, cfg)
		if err != nil {
			return startExit(ctx), err
		}
		defer model.CloseIdleConnections()
		wcfg.Model, wcfg.ModelName = model, model.Model()
	}
	c, err := o.temporal.dial(ctx, log)
	if err != nil {
		return startExit(ctx), err
	}
	defer c.Close()
	w, err := fleet.NewWorker(c, wcfg)
	if err != nil {
		return exitFailed, err
	}
	fmt.Fprintf(stderr, "worker %s: queue %s on %s, %d at once, model %s%s\n", w.Identity(), o.temporal.queue, o.temporal.addr, o.concurrency, orNone(wcfg.ModelName), liveNote(wcfg.Live))
	if err := w.Run(ctx); err != nil {
		return exitFailed, err
	}
	return exitOK, nil
}

func orNone(s string) string {
	if s == "" {
		return "none (built-in eval episodes only)"
	}
	return s
}

// submitOpts are the flags of webagent submit.
type submitOpts struct {
	temporal   temporalFlags
	nav        navFlags
	url        string
	taskFile   string
	schemaFile string
	secrets    listFlag
	limits     agent.Limits
	fleet      fleet.Settings
	id         string
	detach     bool
	json       bool
	otel       otelFlags
	live       bool
	liveKey    *fleet.LiveKey // with --live, the key the view's URLs are sealed to
}

func submitFlags() (*flag.FlagSet, *submitOpts) {
	o := &submitOpts{}
	fs, g := newFlagGroups("submit")
	g.add(titleTask, func(fs *flag.FlagSet) {
		fs.StringVar(&o.url, "url", "", "the page to start on (an http or https URL)")
		fs.StringVar(&o.taskFile, "task-file", "", "read the task from this file (- for stdin)")
		fs.StringVar(&o.schemaFile, "schema", "", "a JSON Schema file the answer must match")
		fs.Var(&o.secrets, "secret", "NAME of a secret the task may use as <secret>NAME</secret>; its value is the workers' own (webagent worker --secret NAME=VALUE), never sent (repeatable, or a comma list)")
	})
	g.add(titleFleet, func(fs *flag.FlagSet) {
		o.temporal.register(fs)
		fs.IntVar(&o.fleet.Restarts, "restarts", fleet.DefaultRestarts, "times the task starts again on another worker, with a fresh browser, when its worker dies; 0 for tasks with side effects")
		fs.DurationVar(&o.fleet.HeartbeatTimeout, "heartbeat-timeout", fleet.DefaultHeartbeatTimeout, "a run silent this long counts its worker as gone")
		fs.StringVar(&o.id, "id", "", "the task's workflow id (default a random one)")
		fs.BoolVar(&o.detach, "detach", false, "print the task's id and return without waiting")
	})
	g.add(titleLive, o.registerLive)
	g.add(titleNav, o.nav.register)
	g.add(titleLoop, func(fs *flag.FlagSet) { registerLimits(fs, &o.limits) })
	g.add(titleOutput, func(fs *flag.FlagSet) {
		fs.BoolVar(&o.json, "json", false, "print the result as one JSON object on stdout (run --json's, with attempts and worker)")
		o.otel.register(fs)
	})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent submit --temporal HOST:PORT --url URL [flags] \"task\"\n\n")
		g.print()
	}
	return fs, o
}

func cmdSubmit(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o := submitFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	text, err := taskText(pos, o.taskFile, os.Stdin)
	if err != nil {
		return exitUsage, err
	}
	t, err := o.task(text)
	if err != nil {
		return exitUsage, err
	}
	log := (&common{logLevel: "warn"}).logger(stderr)
	if err := o.otel.validate(); err != nil {
		return exitUsage, err
	}
	stopOTel, err := o.otel.start(ctx, "webagent-submit", log)
	if err != nil {
		return exitUsage, err
	}
	defer stopOTel()
	c, err := o.temporal.dial(ctx, log)
	if err != nil {
		return startExit(ctx), err
	}
	defer c.Close()
	fc := &fleet.Client{C: c, TaskQueue: o.temporal.queue}
	id, err := fc.Submit(ctx, o.id, t)
	if err != nil {
		return exitFailed, err
	}
	if o.detach {
		fmt.Fprintln(stdout, id)
		return exitOK, nil
	}
	fmt.Fprintf(stderr, "task %s submitted; waiting for its result (webagent status %s)\n", id, id)
	stopLive := watchLive(ctx, fc, id, o.liveKey, stderr)
	out, err := fc.Wait(ctx, id)
	stopLive()
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "stopped waiting: task %s goes on; webagent cancel %s ends it\n", id, id)
		return exitInterrupted, nil
	case fleet.Refusal(err) != nil:
		return exitUsage, usagef("task %s refused: %s", id, fleet.Refusal(err).Error())
	case err != nil:
		return exitFailed, err
	}
	return printOutcome(stdout, stderr, out, o.json), nil
}

// task is the fleet task of the flags, checked.
func (o *submitOpts) task(text string) (fleet.Task, error) {
	if text == "" {
		return fleet.Task{}, usagef("no task given; write it in plain words after the flags")
	}
	if err := checkStartURL(o.url); err != nil {
		return fleet.Task{}, err
	}
	if err := o.nav.validate(); err != nil {
		return fleet.Task{}, err
	}
	for _, n := range o.secrets {
		if strings.Contains(n, "=") {
			return fleet.Task{}, usagef("--secret %s: give only the name; the value is each worker's own (webagent worker --secret NAME=VALUE)", redactArg(n))
		}
		if _, _, err := secret.ParseKey(n); err != nil {
			return fleet.Task{}, usagef("--secret: %v", err)
		}
	}
	switch {
	case o.fleet.Restarts < 0:
		return fleet.Task{}, usagef("--restarts is %d; give 0 or more", o.fleet.Restarts)
	case o.fleet.HeartbeatTimeout < time.Second:
		return fleet.Task{}, usagef("--heartbeat-timeout is %s; give at least 1s", o.fleet.HeartbeatTimeout)
	}
	// Checked as run checks it, before the workflow starts.
	if err := agent.CheckTask(agent.Task{URL: o.url, Instruction: text}, o.secrets...); err != nil {
		return fleet.Task{}, usagef("%v", err)
	}
	schema, err := readSchema(o.schemaFile)
	if err != nil {
		return fleet.Task{}, err
	}
	t := fleet.Task{
		URL: o.url, Instruction: text, SecretNames: o.secrets, AnswerSchema: schema,
		Navigation: o.nav.policy, Limits: o.limits, Fleet: o.fleet,
	}
	return t, o.sealTo(&t)
}

// printOutcome prints a task's outcome as run prints a result, and returns
// run's exit status for it.
func printOutcome(stdout, stderr io.Writer, out *fleet.Outcome, asJSON bool) int {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
	} else {
		printResult(stdout, stderr, out.Result, false)
		fmt.Fprintf(stderr, "attempts: %d, last on worker %s\n", out.Attempts, out.Worker)
	}
	switch out.Code {
	case agent.CodeSuccess:
		return exitOK
	case agent.CodeCanceled:
		return exitInterrupted
	default:
		return exitFailed
	}
}

// idOpts are the flags of status, cancel and answer.
type idOpts struct {
	temporal temporalFlags
	json     bool
}

func idFlags(name, usage string) (*flag.FlagSet, *idOpts) {
	o := &idOpts{}
	fs, g := newFlagGroups(name)
	g.add(titleFleet, func(fs *flag.FlagSet) {
		o.temporal.registerAddr(fs)
		o.temporal.registerConn(fs)
	})
	if name != "answer" { // answer prints no more than a line on stderr
		g.add(titleOutput, func(fs *flag.FlagSet) { fs.BoolVar(&o.json, "json", false, "print JSON on stdout") })
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent %s\n\n", usage)
		g.print()
	}
	return fs, o
}

// withTask parses the flags of status, cancel or answer, connects and
// calls f with the task's id and the other arguments.
func withTask(ctx context.Context, name, usage string, nargs int, args []string, stdout, stderr io.Writer,
	f func(fc *fleet.Client, o *idOpts, id string, rest []string) (int, error)) (int, error) {
	fs, o := idFlags(name, usage)
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != nargs {
		return exitUsage, usagef("usage: webagent %s", usage)
	}
	c, err := o.temporal.dial(ctx, (&common{logLevel: "warn"}).logger(stderr))
	if err != nil {
		return startExit(ctx), err
	}
	defer c.Close()
	code, err := f(&fleet.Client{C: c}, o, pos[0], pos[1:]) // a task by its id: no queue

	if errors.Is(err, fleet.ErrNotFound) || errors.Is(err, fleet.ErrNoQuestion) {
		return exitUsage, usagef("%v", err)
	}
	return code, err
}

func cmdStatus(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	return withTask(ctx, "status", "status [flags] ID", 1, args, stdout, stderr, func(fc *fleet.Client, o *idOpts, id string, _ []string) (int, error) {
		st, err := fc.Status(ctx, id)
		if err != nil {
			return exitFailed, err
		}
		if o.json {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return exitOK, enc.Encode(st)
		}
		fmt.Fprintf(stdout, "%s: %s", id, st.Workflow)
		if st.Attempt > 0 {
			fmt.Fprintf(stdout, ", attempt %d on %s", st.Attempt, st.Worker)
		}
		if st.Iteration > 0 {
			fmt.Fprintf(stdout, ", iteration %d", st.Iteration)
		}
		fmt.Fprintln(stdout)
		if st.Question != "" {
			fmt.Fprintf(stdout, "question: %s\n(answer it: webagent answer %s \"text\")\n", st.Question, id)
		}
		if st.Outcome != nil {
			fmt.Fprintf(stdout, "result: %s %s\n", st.Outcome.Code, oneLine(st.Outcome.Message+st.Outcome.Answer, 200))
		}
		if st.Error != "" {
			fmt.Fprintf(stdout, "refused: %s\n", st.Error)
		}
		return exitOK, nil
	})
}

func cmdCancel(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	return withTask(ctx, "cancel", "cancel [flags] ID", 1, args, stdout, stderr, func(fc *fleet.Client, o *idOpts, id string, _ []string) (int, error) {
		if err := fc.Cancel(ctx, id); err != nil {
			return exitFailed, err
		}
		out, err := fc.Wait(ctx, id)
		if err != nil {
			if fleet.Refusal(err) != nil {
				fmt.Fprintf(stderr, "task %s had been refused: %v\n", id, fleet.Refusal(err))
				return exitOK, nil
			}
			return exitFailed, err
		}
		if o.json {
			return printOutcome(stdout, stderr, out, true), nil
		}
		fmt.Fprintf(stdout, "%s: %s after %d iterations\n", id, out.Code, out.Iterations)
		return exitOK, nil
	})
}

func cmdAnswer(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	return withTask(ctx, "answer", "answer [flags] ID \"text\"", 2, args, stdout, stderr, func(fc *fleet.Client, _ *idOpts, id string, rest []string) (int, error) {
		if err := fc.Answer(ctx, id, rest[0]); err != nil {
			return exitFailed, err
		}
		fmt.Fprintf(stderr, "answered task %s\n", id)
		return exitOK, nil
	})
}
