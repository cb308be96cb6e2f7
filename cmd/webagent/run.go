package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/browser/launcher"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/routine"
	"github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/trace"
)

type runOpts struct {
	common
	url string
	modelFlags
	api     string // --api: chat or anthropic
	tools   string // --tools: webagent or native
	secrets secretFlag
	// taskFile holds the task; "-" is stdin (taskText).
	taskFile string
	// schemaFile holds the answer's JSON Schema (readSchema).
	schemaFile string
	// modelOptional is set by webagent routine run: without a model
	// configured, the run has none (a step that needs healing fails).
	modelOptional bool
}

func runFlags() (*flag.FlagSet, *runOpts) {
	o := &runOpts{}
	fs, g := newFlagGroups("run")
	g.add(titleTask, func(fs *flag.FlagSet) {
		fs.StringVar(&o.url, "url", "", "the page to start on (an http or https URL)")
		fs.Var(&o.secrets, "secret", "NAME=VALUE a credential the task may use as <secret>NAME</secret>, hidden from the model and logs, typed only on the start URL's origin; NAME@https://login.example.com=VALUE binds it to another origin; VALUE env:VAR reads it from the environment, totp:BASE32KEY or otpauth://totp/… types the current sign-in code (repeatable)")
		fs.StringVar(&o.taskFile, "task-file", "", "read the task from this file (- for stdin) instead of the command line; a task given as - is read from stdin too")
		fs.StringVar(&o.schemaFile, "schema", "", "a JSON Schema file: the answer is JSON that matches it (refused answers go back to the model), printed as is; with --json, \"answer\" is the object")
	})
	g.add(titleModel, func(fs *flag.FlagSet) {
		o.modelFlags.register(fs, "model name (default $WEBAGENT_MODEL)",
			"OpenAI-compatible endpoint (default $OPENAI_BASE_URL, else OpenAI's when a key is set); Ollama: http://localhost:11434/v1")
		registerAPI(fs, &o.api)
		registerTools(fs, &o.tools)
	})
	o.common.registerGroups(g, groupsRun|groupJSON|groupTrace)
	g.add(titleSession, o.session.register)
	g.add(titleCache, func(fs *flag.FlagSet) { o.cache.register(fs, true) })
	g.add(titleRoutines, o.routines.register)
	g.add(titlePolicy, o.policy.register)
	g.add(titleInbox, o.inbox.register)
	g.add(titleLive, o.live.register)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent run --url URL [flags] \"task\"\n       webagent run --url URL [flags] --task-file FILE   (or - for stdin)\n\n")
		g.print()
	}
	return fs, o
}

func checkStartURL(raw string) error {
	if raw == "" {
		return usagef("--url is required: the page the task starts on, e.g. --url https://example.org")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return usagef("--url %q is not a URL: %v", raw, err)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return usagef("--url %q has no host; write e.g. https://example.org/path", raw)
		}
	case "file":
		return usagef("--url %q: local files are not opened (a page could then lead the agent to the machine's other files); serve the folder over http, e.g. python3 -m http.server, and pass its http URL", raw)
	case "":
		return usagef("--url %q has no scheme; write https://%s", raw, raw)
	default:
		return usagef("--url %q: the scheme %q is not supported; use http or https", raw, u.Scheme)
	}
	return nil
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o := runFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	task, err := taskText(pos, o.taskFile, os.Stdin)
	if err != nil {
		return exitUsage, err
	}
	if task == "" {
		return exitUsage, usagef("no task given; write it in plain words after the flags, e.g. webagent run --url https://example.org \"find the contact email\"")
	}
	return o.start(ctx, task, stdout, stderr)
}

// start checks the rest of run's flags, then runs task.
func (o *runOpts) start(ctx context.Context, task string, stdout, stderr io.Writer) (int, error) {
	var err error
	template, startTemplate := task, o.url
	if task, o.url, err = o.cache.expand(task, o.url); err != nil {
		return exitUsage, err
	}
	if err := checkStartURL(o.url); err != nil {
		return exitUsage, err
	}
	if err := o.common.validate(); err != nil {
		return exitUsage, err
	}
	if err := o.modelFlags.validate(); err != nil {
		return exitUsage, err
	}
	if err := o.policy.load(); err != nil {
		return exitUsage, err
	}
	schema, err := readSchema(o.schemaFile)
	if err != nil {
		return exitUsage, err
	}
	if err := o.live.validate(); err != nil {
		return exitUsage, err
	}
	if stdinIsTerminal() {
		o.human = newTerminalHuman(os.Stdin, stderr)
	}
	if !o.live.addr.set {
		o.policy.warnNoOne(o.human, stderr)
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
	if err := checkSecretRefs(task, secrets, stderr); err != nil {
		return exitUsage, err
	}
	// The logs (the browser's too: the URLs it reads) never show a secret,
	// nor the proxy's password or a header's token, nor what the inbox
	// gave the task.
	o.inbox.log = secret.NewMasker(hidden)
	stderr = o.inbox.log.Writer(stderr)
	log := o.logger(stderr)
	if err := o.cache.open(log); err != nil {
		return exitUsage, err
	}
	o.cache.key = cache.Key{Task: template, URL: startTemplate, Vars: o.cache.vars.names(), Schema: schema}

	cfg := o.modelFlags.config(log)
	o.trace.model = modelInfo(cfg)
	if o.native, err = nativeKind(o.tools, chooseAPI(o.api, o.baseURL, log)); err != nil {
		return exitUsage, err
	}
	var model contract.Model = noModel{}
	if !o.modelOptional || cfg.Model != "" {
		if model, err = newModelAPI(ctx, o.api, &o.modelFlags, log); err != nil {
			return exitUsage, err
		}
	}
	return execute(ctx, o.common, model, agent.Task{URL: o.url, Instruction: task, Secrets: secrets, AnswerSchema: schema}, stdout, stderr)
}

// newModel builds the model client and checks, briefly, that its endpoint
// answers, so a wrong URL or key fails at once with a clear line.
func newModel(ctx context.Context, cfg llm.Config) (*llm.Client, error) {
	if cfg.Model == "" {
		return nil, usagef("no model configured: pass --model NAME (and --base-url for a local server) or set WEBAGENT_MODEL and OPENAI_BASE_URL; " +
			"with Ollama: webagent run --base-url http://localhost:11434/v1 --model llama3.1 --url URL \"task\". To try webagent offline: webagent demo")
	}
	if cfg.BaseURL == "" {
		return nil, usagef("no model endpoint: pass --base-url (Ollama: http://localhost:11434/v1) or set OPENAI_BASE_URL, or set OPENAI_API_KEY to use OpenAI")
	}
	client, err := llm.New(cfg)
	if err != nil {
		return nil, usagef("%v", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := client.Ping(pctx); err != nil {
		return nil, pingError(ctx, cfg.BaseURL, cfg.APIKey != "", "OPENAI_API_KEY", llm.ErrNotChatEndpoint, err)
	}
	return client, nil
}

// execute launches the browser, runs the task, prints the result and
// closes the browser. Chrome is gone by the time it returns.
func execute(ctx context.Context, c common, model contract.Model, task agent.Task, stdout, stderr io.Writer) (int, error) {
	log := c.logger(stderr)
	stopOTel, err := c.otel.start(ctx, "webagent-run", log)
	if err != nil {
		return exitUsage, err
	}
	defer stopOTel()
	started := time.Now()
	live, err := c.live.start(secret.NewMasker(task.Secrets).Mask(task.Instruction), c.limits.Effective().HumanTimeout, stderr)
	if err != nil {
		return exitUsage, err
	}
	defer func() { live.close(nil) }()
	c.human = eitherHuman(c.human, live.human())
	lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	bopts := c.browserOptions(log)
	bopts.RecordActivity = c.trace.dir != ""
	c.session.apply(&bopts)
	b, st, err := launch(ctx, lctx, bopts)
	cancel()
	if err != nil {
		return notStarted(ctx, c, st, err, started, stdout, stderr)
	}
	// On the way out, the browser closes once; after the result, at most
	// within exitBudget (closeAfterResult).
	handedOff := false
	defer func() {
		if !handedOff {
			b.Close()
		}
	}()

	live.attach(b)
	opts := append(c.loopOptions(c.limits),
		agent.WithLogger(log),
		agent.WithObserver(agent.ObserverFunc(func(s agent.Step) { printStep(stderr, s) })),
	)
	opts = append(opts, live.options()...)
	if c.human != nil {
		opts = append(opts, agent.WithHuman(c.human, c.limits.Effective().HumanTimeout))
	}
	opts = append(opts, c.policy.options(c.human, model, stderr)...)
	opts = append(opts, c.session.loadedState(stderr)...)
	tw, err := c.trace.start(b, task)
	if err != nil {
		return exitUsage, usagef("--trace: %v", err)
	}
	cr, err := c.cache.begin(task, c.trace.model, tw != nil)
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	opts = append(opts, c.inbox.options(c.trace.masker)...)
	rops, err := c.routines.options(model, stderr)
	if err != nil {
		return exitUsage, err
	}
	opts = append(opts, rops...)
	switch {
	case tw != nil:
		opts = append(opts, agent.WithTracer(tw))
	case cr != nil:
		opts = append(opts, agent.WithTracer(cr.tw))
	}
	if cr != nil {
		opts = append(opts, cr.s.Options()...)
	}
	a, err := agent.New(b, model, opts...)
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	res := a.Run(ctx, task)
	// The result first: the trace's end and the browser's clean-up come
	// after, within exitBudget.
	printResult(stdout, stderr, res, c.json)
	live.close(res)
	handedOff = true
	// What the user asked to keep is written whole, however long after
	// the bound that takes (each step has a deadline of its own).
	keeps := tw != nil || cr != nil || bopts.SaveStorageState != "" || bopts.UserDataDir != ""
	closeAfterResult(ctx, log, b, tw, res, stderr, keeps)
	c.session.savedState(stderr)
	cr.finish(ctx, res, c.trace.dir, stderr)
	switch {
	case res.Code == agent.CodeSuccess:
		return exitOK, nil
	case res.Code == agent.CodeCanceled:
		return exitInterrupted, nil
	default:
		return exitFailed, nil
	}
}

// notStarted ends a run whose browser did not start: its one result, also
// when it ends this early, and the exit status.
func notStarted(ctx context.Context, c common, st *starting, err error, started time.Time, stdout, stderr io.Writer) (int, error) {
	if ctx.Err() != nil {
		printResult(stdout, stderr, &agent.Result{
			Status: agent.StatusFailure, Code: agent.CodeCanceled,
			Message:   "interrupted while starting the browser",
			StartedAt: started, DurationMS: time.Since(started).Milliseconds(), Steps: []agent.Step{},
		}, c.json)
		if st != nil {
			<-st.done // the start's own end, exitBudget at most
		}
		return exitInterrupted, nil
	}
	if isBrowserConfigError(err) {
		return exitUsage, usagef("%v", err)
	}
	printResult(stdout, stderr, &agent.Result{
		Status: agent.StatusFailure, Code: agent.CodeBrowserError,
		Message:   fmt.Sprintf("starting the browser: %v", err),
		StartedAt: started, DurationMS: time.Since(started).Milliseconds(), Steps: []agent.Step{},
	}, c.json)
	return exitFailed, nil
}

// starting is a browser start that a signal cut short: done is closed once
// the start has ended (its browser abandoned to the reaper), or
// exitBudget after the signal, whichever is first.
type starting struct{ done chan struct{} }

// launch starts the browser under lctx and returns it, or, as soon as ctx
// (the signal) ends, ctx's error with the start still ending in the
// background: the result is printed at once, not after the half-started
// browser's clean-up. A browser that starts all the same is abandoned. A
// start still not ended after exitBudget (a busy machine) has its folders
// removed once this process has exited, by a detached watcher
// (launcher.SweepOnExit): the process exits on time and leaves nothing.
func launch(ctx, lctx context.Context, opts browser.Options) (*browser.Browser, *starting, error) {
	type launched struct {
		b   *browser.Browser
		err error
	}
	ch := make(chan launched, 1)
	go func() {
		b, err := browser.Launch(lctx, opts)
		ch <- launched{b, err}
	}()
	select {
	case l := <-ch:
		return l.b, nil, l.err
	case <-ctx.Done():
	}
	st := &starting{done: make(chan struct{})}
	go func() {
		defer close(st.done)
		t := time.NewTimer(exitBudget)
		defer t.Stop()
		select {
		case l := <-ch:
			if l.err == nil {
				_ = l.b.Abandon()
			}
		case <-t.C:
			_ = launcher.SweepOnExit() // if it cannot start, the next start sweeps
		}
	}()
	return nil, st, ctx.Err()
}

// exitBudget is how long after a signal `mcp` may spend closing its
// browsers, and `run` waits for a start the signal cut short, before it
// exits.
const exitBudget = 300 * time.Millisecond

// closeAfterResult ends the trace and closes the browser. When the run
// keeps nothing, it does not wait: the browser is abandoned (killed at
// once, its folders removed by a detached reaper within moments, also
// after this process has exited), so that the process exits right after
// its result. When the run keeps something (a trace, a saved storage
// state, a persistent profile), it waits for all of it: a trace without
// its last screenshot or a session not saved would be worse than a later
// exit.
func closeAfterResult(ctx context.Context, log *slog.Logger, b *browser.Browser, tw *trace.Writer, res *agent.Result, stderr io.Writer, keeps bool) {
	closeAll := func() {
		if tw != nil {
			tctx, cancel := context.WithTimeout(ctx, traceEndTimeout)
			defer cancel()
			if err := tw.End(tctx, res); err != nil {
				fmt.Fprintf(stderr, "webagent: %v\n", err)
			} else {
				fmt.Fprintf(stderr, "trace: %s (webagent show-trace %s)\n", tw.Dir(), tw.Dir())
			}
		}
		if err := b.Close(); err != nil {
			log.Warn("closing the browser", "error", err)
		}
	}
	if keeps {
		closeAll()
		return
	}
	if err := b.Abandon(); err != nil {
		log.Warn("closing the browser; the next start removes its folders", "error", err)
	}
}

// traceEndTimeout bounds the trace's last screenshot.
const traceEndTimeout = 5 * time.Second

// within runs f and waits for it at most d; it reports whether f ended.
// What f has not done by then is left to the process's exit (a browser
// dies with this process) and to the next start (its folders).
func within(d time.Duration, f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}

func printStep(w io.Writer, s agent.Step) {
	var acts []string
	for _, a := range s.Actions {
		line := a.Tool
		if len(a.Args) > 0 && string(a.Args) != "{}" {
			line += " " + report.ReadableJSON(string(a.Args))
		}
		line += " → " + oneLine(a.Outcome, 160)
		acts = append(acts, line)
	}
	if len(acts) == 0 {
		switch {
		case s.Error != "":
			acts = append(acts, s.Error)
		case s.Thought != "":
			acts = append(acts, "(no tool call) "+oneLine(s.Thought, 160))
		}
	}
	seen := "page"
	if s.Delta {
		seen = "changes"
	}
	fmt.Fprintf(w, "step %d: %s  [snapshot %dms (%s), model %dms, action %dms; prompt %d tokens, %d a prefix of the previous, %d cached]\n",
		s.Iteration, strings.Join(acts, "; "), s.SnapshotMS, seen, s.LLMMS, s.ActionMS, s.Usage.PromptTokens, s.Usage.PrefixTokens, s.Usage.CachedTokens)
	if s.Context != "" {
		fmt.Fprintf(w, "step %d: %s\n", s.Iteration, s.Context)
	}
	for _, a := range s.Actions {
		label := "script call" // a script's calls, a line each
		switch {
		case a.Tool == agent.ToolTakeover:
			label = "person's step"
		case strings.HasPrefix(a.Tool, routine.ToolPrefix):
			label = "routine call"
		}
		for k, c := range a.Calls {
			line := c.Tool
			if len(c.Args) > 0 && string(c.Args) != "{}" {
				line += " " + report.ReadableJSON(string(c.Args))
			}
			fmt.Fprintf(w, "  %s %d: %s → %s  [%dms]\n", label, k+1, line, oneLine(c.Outcome, 120), c.MS)
		}
	}
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func printResult(stdout, stderr io.Writer, res *agent.Result, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // people read it too: <secret>, not \u003csecret\u003e
		_ = enc.Encode(res)
		return
	}
	fmt.Fprintf(stderr, "%s %s after %d iterations in %.1fs (%d tokens): %s\n",
		res.Status, res.Code, res.Iterations, float64(res.DurationMS)/1000, res.Usage.TotalTokens, res.Message)
	if res.Answer != "" {
		fmt.Fprintln(stdout, res.Answer)
	}
}
