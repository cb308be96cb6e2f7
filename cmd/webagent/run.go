package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/internal/eval/report"
	"github.com/webagent/webagent/llm"
)

// common holds the flags shared by run and demo.
type common struct {
	maxIterations    int
	iterationTimeout time.Duration
	taskTimeout      time.Duration
	operationTimeout time.Duration
	timeoutPolicy    string
	maxTimeouts      int
	humanTimeout     time.Duration
	chrome           string
	cdpURL           string
	headful          bool
	json             bool
	logLevel         string
	snapshotTokens   int
	cpuThrottle      float64
	loadTimeout      time.Duration
	uploadDir        string
	downloadDir      string
	vision           bool
	// human answers ask_human; set only when stdin is a terminal.
	human   agent.Human
	nav     navFlags
	trace   traceFlags
	browser browserFlags
	session sessionFlags // registered by run only
}

func (c *common) register(fs *flag.FlagSet) {
	c.nav.register(fs)
	c.trace.register(fs)
	c.browser.register(fs)
	fs.String(configFlag, "", "read flags from this YAML file, keys named as the flags (model: llama3.1); flags given on the command line override it, and it overrides the WEBAGENT_… variables")
	fs.IntVar(&c.maxIterations, "max-iterations", agent.DefaultMaxIterations, "stop after this many observe-decide-act iterations")
	fs.DurationVar(&c.iterationTimeout, "iteration-timeout", agent.DefaultIterationTimeout, "bound on one iteration (snapshot, model call, actions), a Go duration such as 90s; 0 disables")
	fs.DurationVar(&c.taskTimeout, "task-timeout", 0, "bound on the whole task, a Go duration; 0 means none")
	fs.DurationVar(&c.operationTimeout, "operation-timeout", agent.DefaultOperationTimeout, "backstop above every tool's own budget: a tool still running then is abandoned and the model told (OPERATION_TIMEOUT); 0 disables")
	fs.StringVar(&c.timeoutPolicy, "iteration-timeout-policy", string(agent.PolicyFatal), "what an iteration timeout does: fatal (end the task) or recover (recover the page, tell the model, go on)")
	fs.IntVar(&c.maxTimeouts, "max-iteration-timeouts", agent.DefaultMaxIterationTimeouts, "with the recover policy, end the task at this many timed-out iterations")
	fs.DurationVar(&c.humanTimeout, "human-timeout", agent.DefaultHumanTimeout, "how long the agent waits for your answer on the terminal before going on (the question stays open)")
	fs.StringVar(&c.chrome, "chrome", "", "path to the Chromium binary (default $CHROME_PATH, else chromium on PATH)")
	fs.StringVar(&c.cdpURL, "cdp-url", "", "attach to a running browser at this DevTools URL instead of launching one")
	fs.BoolVar(&c.headful, "headful", false, "show the browser window")
	fs.BoolFunc("headless", "run the browser without a window (the default); --headless=false is --headful", func(v string) error {
		headless, err := strconv.ParseBool(v)
		c.headful = !headless
		return err
	})
	fs.BoolVar(&c.json, "json", false, "print the result as one JSON object on stdout")
	fs.StringVar(&c.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn, error or disabled")
	fs.StringVar(&c.uploadDir, "upload-dir", "", "folder whose files the agent may upload; without it, uploads are refused")
	fs.StringVar(&c.downloadDir, "download-dir", "", "folder for files the pages download (default a temporary folder, removed at the end)")
	fs.BoolVar(&c.vision, "vision", false, "offer the model a screenshot tool (for models that accept images)")
	fs.IntVar(&c.snapshotTokens, "snapshot-tokens", browser.DefaultSnapshotTokens, "size budget of a page snapshot in (estimated) tokens: past it, text far from the viewport is summarised; every actionable element is kept")
	fs.DurationVar(&c.loadTimeout, "load-timeout", browser.DefaultLoadTimeout, "how long a page may take to arrive before the agent works with what has arrived (a page that trickles in, a script that never answers) and is told it is still loading")
	fs.Float64Var(&c.cpuThrottle, "cpu-throttle", 0, fmt.Sprintf("slow every page and frame down N times (CDP CPU throttling), to reproduce a slow or busy machine; 1 to %d, 0 for none", browser.MaxCPUThrottle))
}

// validate checks the common flags, in the order of their groups: the
// first problem is the one reported.
func (c *common) validate() error {
	checks := []func() error{
		c.nav.validate,
		c.trace.validate,
		c.browser.validate,
		func() error { return c.session.validate(c.cdpURL) },
		c.validateLoopBounds,
		c.validateFolders,
		c.validatePageBounds,
		c.validateHumanTimeout,
		c.validateCDPURL,
		c.validateLogLevel,
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateLoopBounds checks the loop's limits and timeouts.
func (c *common) validateLoopBounds() error {
	switch {
	case c.maxIterations < 1:
		return usagef("--max-iterations is %d; it must be at least 1", c.maxIterations)
	case c.iterationTimeout < 0:
		return usagef("--iteration-timeout is %s; use a positive duration such as 2m, or 0 to disable it", c.iterationTimeout)
	case c.taskTimeout < 0:
		return usagef("--task-timeout is %s; use a positive duration such as 10m, or 0 for none", c.taskTimeout)
	case c.operationTimeout < 0:
		return usagef("--operation-timeout is %s; use a positive duration such as 2m, or 0 to disable the backstop", c.operationTimeout)
	case c.timeoutPolicy != string(agent.PolicyFatal) && c.timeoutPolicy != string(agent.PolicyRecover):
		return usagef("--iteration-timeout-policy %q is not fatal or recover", c.timeoutPolicy)
	case c.maxTimeouts < 1:
		return usagef("--max-iteration-timeouts is %d; it must be at least 1", c.maxTimeouts)
	}
	return nil
}

// validateFolders checks that --upload-dir and --download-dir, when given,
// are existing folders.
func (c *common) validateFolders() error {
	for _, d := range []struct{ flag, path string }{{"--upload-dir", c.uploadDir}, {"--download-dir", c.downloadDir}} {
		if d.path == "" {
			continue
		}
		if fi, err := os.Stat(d.path); err != nil || !fi.IsDir() {
			return usagef("%s %q is not a folder; create it first or pass an existing one", d.flag, d.path)
		}
	}
	return nil
}

// validatePageBounds checks the snapshot budget, the CPU throttling and
// the load timeout.
func (c *common) validatePageBounds() error {
	switch {
	case c.snapshotTokens < 1:
		return usagef("--snapshot-tokens is %d; it must be positive (the default is %d)", c.snapshotTokens, browser.DefaultSnapshotTokens)
	case c.cpuThrottle != 0 && !(c.cpuThrottle >= 1 && c.cpuThrottle <= browser.MaxCPUThrottle):
		return usagef("--cpu-throttle is %g; use a factor from 1 (none) to %d, e.g. 6 for a busy machine, or 0 for none", c.cpuThrottle, browser.MaxCPUThrottle)
	case c.loadTimeout <= 0:
		return usagef("--load-timeout is %s; use a positive duration such as 10s", c.loadTimeout)
	}
	return nil
}

func (c *common) validateHumanTimeout() error {
	if c.humanTimeout <= 0 {
		return usagef("--human-timeout is %s; use a positive duration such as 1m", c.humanTimeout)
	}
	return nil
}

func (c *common) validateCDPURL() error {
	if c.cdpURL != "" && !isDevToolsURL(c.cdpURL) {
		return usagef("--cdp-url %q is not a DevTools address; use e.g. http://127.0.0.1:9222 or ws://127.0.0.1:9222/devtools/browser/ID", c.cdpURL)
	}
	return nil
}

func (c *common) validateLogLevel() error {
	if _, err := zerolog.ParseLevel(c.logLevel); err != nil || c.logLevel == "" {
		return usagef("--log-level %q is not one of debug, info, warn, error, disabled", c.logLevel)
	}
	return nil
}

// isDevToolsURL reports whether s can be a browser's DevTools address: an
// absolute ws, wss, http or https URL.
func isDevToolsURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return false
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
		return true
	}
	return false
}

// logger is the CLI's logger: zerolog's console writer on stderr, handed
// to the packages as the *slog.Logger their APIs take.
func (c *common) logger(stderr io.Writer) *slog.Logger {
	lvl, _ := zerolog.ParseLevel(c.logLevel)
	zl := zerolog.New(zerolog.ConsoleWriter{Out: stderr, TimeFormat: "15:04:05"}).Level(lvl).With().Timestamp().Logger()
	return slog.New(zerolog.NewSlogHandler(zl))
}

type runOpts struct {
	common
	url string
	modelFlags
	secrets secretFlag
	// taskFile holds the task; "-" is stdin (taskText).
	taskFile string
	// schemaFile holds the answer's JSON Schema (readSchema).
	schemaFile string
}

func runFlags() (*flag.FlagSet, *runOpts) {
	o := &runOpts{}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.StringVar(&o.url, "url", "", "the page to start on (an http or https URL)")
	o.modelFlags.register(fs, "model name (default $WEBAGENT_MODEL)",
		"OpenAI-compatible endpoint (default $OPENAI_BASE_URL, else OpenAI's when a key is set); Ollama: http://localhost:11434/v1")
	fs.Var(&o.secrets, "secret", "NAME=VALUE a credential the task may use as <secret>NAME</secret>, hidden from the model and logs, typed only on the start URL's origin; NAME@https://login.example.com=VALUE binds it to another origin; VALUE env:VAR reads it from the environment (repeatable)")
	fs.StringVar(&o.taskFile, "task-file", "", "read the task from this file (- for stdin) instead of the command line; a task given as - is read from stdin too")
	o.common.register(fs)
	o.session.register(fs)
	fs.StringVar(&o.schemaFile, "schema", "", "a JSON Schema file: the answer is JSON that matches it (refused answers go back to the model), printed as is; with --json, \"answer\" is the object")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent run --url URL [flags] \"task\"\n       webagent run --url URL [flags] --task-file FILE   (or - for stdin)\n\nFlags:\n")
		printFlags(fs)
	}
	return fs, o
}

// parseInterleaved parses flags that may come before or after the
// positional arguments, as people type them.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseFlags parses a command's flags. On -h it prints the command's help
// to stdout and returns flag.ErrHelp, which realMain turns into exit 0.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard)
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return nil, err
	}
	if err != nil {
		return nil, usagef("%s (see 'webagent help %s')", flagError(fs, err), fs.Name())
	}
	if err := applyConfig(fs); err != nil {
		return nil, err
	}
	return pos, nil
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
	if err := checkStartURL(o.url); err != nil {
		return exitUsage, err
	}
	if err := o.common.validate(); err != nil {
		return exitUsage, err
	}
	if err := o.modelFlags.validate(); err != nil {
		return exitUsage, err
	}
	schema, err := readSchema(o.schemaFile)
	if err != nil {
		return exitUsage, err
	}
	if stdinIsTerminal() {
		o.human = newTerminalHuman(os.Stdin, stderr)
	}
	secrets, err := o.secrets.resolve()
	if err != nil {
		return exitUsage, err
	}
	if err := checkSecretRefs(task, secrets, stderr); err != nil {
		return exitUsage, err
	}
	// The logs (the browser's too: the URLs it reads) never show a secret,
	// nor the proxy's password or a header's token.
	hidden := o.browser.hidden()
	maps.Copy(hidden, secrets)
	stderr = agent.NewMasker(hidden).Writer(stderr)
	log := o.logger(stderr)

	cfg := o.modelFlags.config(log)
	o.trace.model = modelInfo(cfg)
	model, err := newModel(ctx, cfg)
	if err != nil {
		return exitUsage, err
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
		return nil, pingError(ctx, cfg, err)
	}
	return client, nil
}

// browserOptions are the browser options of the common flags, settings
// included (not the session's profile and state, which only run has).
func (c *common) browserOptions(log *slog.Logger) browser.Options {
	opts := browser.Options{
		ChromePath: c.chrome, CDPURL: c.cdpURL, Headful: c.headful, Logger: log,
		SnapshotTokens: c.snapshotTokens, CPUThrottle: c.cpuThrottle, UploadDir: c.uploadDir, DownloadDir: c.downloadDir,
		LoadTimeout: c.loadTimeout,
	}
	c.browser.apply(&opts)
	return opts
}

// loopOptions are the agent options of the common flags: the limits, the
// bounds, vision and where pages may be opened.
func (c *common) loopOptions(maxIterations int) []agent.Option {
	return append([]agent.Option{
		agent.WithMaxIterations(maxIterations),
		agent.WithIterationTimeout(c.iterationTimeout),
		agent.WithTaskTimeout(c.taskTimeout),
		agent.WithOperationTimeout(c.operationTimeout),
		agent.WithIterationTimeoutPolicy(agent.TimeoutPolicy(c.timeoutPolicy), c.maxTimeouts),
		agent.WithVision(c.vision),
	}, c.nav.options()...)
}

// execute launches the browser, runs the task, prints the result and
// closes the browser. Chrome is gone by the time it returns.
func execute(ctx context.Context, c common, model agent.Model, task agent.Task, stdout, stderr io.Writer) (int, error) {
	log := c.logger(stderr)
	started := time.Now()
	lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	bopts := c.browserOptions(log)
	bopts.RecordActivity = c.trace.dir != ""
	c.session.apply(&bopts)
	b, err := browser.Launch(lctx, bopts)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			// The one result of the run, also when it ends this early.
			printResult(stdout, stderr, &agent.Result{
				Status: agent.StatusFailure, Code: agent.CodeCanceled,
				Message:    "interrupted while starting the browser",
				DurationMS: time.Since(started).Milliseconds(), Steps: []agent.Step{},
			}, c.json)
			return exitInterrupted, nil
		}
		if isBrowserConfigError(err) {
			return exitUsage, usagef("%v", err)
		}
		return exitFailed, fmt.Errorf("starting the browser: %w", err)
	}
	defer b.Close()

	opts := append(c.loopOptions(c.maxIterations),
		agent.WithLogger(log),
		agent.WithObserver(agent.ObserverFunc(func(s agent.Step) { printStep(stderr, s) })),
	)
	if c.human != nil {
		opts = append(opts, agent.WithHuman(c.human, c.humanTimeout))
	}
	tw, err := c.trace.start(b, task)
	if err != nil {
		return exitUsage, usagef("--trace: %v", err)
	}
	if tw != nil {
		opts = append(opts, agent.WithTracer(tw))
	}
	a, err := agent.New(b, model, opts...)
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	res := a.Run(ctx, task)
	// The result first: the browser's clean-up (bounded) comes after.
	printResult(stdout, stderr, res, c.json)
	if tw != nil {
		if err := tw.End(ctx, res); err != nil {
			fmt.Fprintf(stderr, "webagent: %v\n", err)
		} else {
			fmt.Fprintf(stderr, "trace: %s (webagent show-trace %s)\n", tw.Dir(), tw.Dir())
		}
	}
	if err := b.Close(); err != nil {
		log.Warn("closing the browser", "error", err)
	}
	switch {
	case res.Code == agent.CodeSuccess:
		return exitOK, nil
	case res.Code == agent.CodeCanceled:
		return exitInterrupted, nil
	default:
		return exitFailed, nil
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
	fmt.Fprintf(w, "step %d: %s  [snapshot %dms, model %dms, action %dms]\n",
		s.Iteration, strings.Join(acts, "; "), s.SnapshotMS, s.LLMMS, s.ActionMS)
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

// secretFlag collects --secret NAME=VALUE.
type secretFlag []string

func (s *secretFlag) String() string { return "" }
func (s *secretFlag) Set(v string) error {
	name, _, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("--secret wants NAME=VALUE (or NAME=env:VAR), got %q", redactArg(v))
	}
	*s = append(*s, v)
	return nil
}

func redactArg(v string) string {
	name, _, _ := strings.Cut(v, "=")
	return name + "=…"
}

func (s secretFlag) resolve() (map[string]string, error) {
	m := map[string]string{}
	for _, v := range s {
		name, val, _ := strings.Cut(v, "=")
		if env, ok := strings.CutPrefix(val, "env:"); ok {
			ev, set := os.LookupEnv(env)
			if !set || ev == "" {
				return nil, usagef("--secret %s=env:%s: the environment variable %s is not set", name, env, env)
			}
			val = ev
		}
		if val == "" {
			return nil, usagef("--secret %s has an empty value", name)
		}
		if _, _, err := agent.ParseSecretKey(name); err != nil {
			return nil, usagef("--secret: %v", err)
		}
		m[name] = val
	}
	return m, nil
}
