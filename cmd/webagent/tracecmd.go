package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/replay"
	"github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/trace"
)

// traceFlags are run's (and demo's) --trace and --trace-har.
type traceFlags struct {
	dir   string
	har   bool
	model trace.ModelInfo // filled in by the command
	// masker hides the run's secrets in the trace, set by start.
	masker *secret.Masker
}

func (t *traceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&t.dir, "trace", "", "record every step (snapshot, model request and reply, actions, screenshot, console, network) in this new folder; open it with webagent show-trace DIR, run it again with webagent replay DIR")
	fs.BoolVar(&t.har, "trace-har", false, "with --trace, also write the network requests with their headers as trace.har")
}

func (t *traceFlags) validate() error {
	if t.har && t.dir == "" {
		return usagef("--trace-har needs --trace DIR")
	}
	if t.dir == "" {
		return nil
	}
	if entries, err := os.ReadDir(t.dir); err == nil && len(entries) > 0 {
		return usagef("--trace %s: the folder is not empty; give a new or empty folder", t.dir)
	}
	return nil
}

// modelInfo is what a trace says about the model.
func modelInfo(cfg llm.Config) trace.ModelInfo {
	p := map[string]any{"tool_mode": cfg.ToolMode}
	if cfg.Temperature != nil {
		p["temperature"] = *cfg.Temperature
	}
	if cfg.TopP != nil {
		p["top_p"] = *cfg.TopP
	}
	if cfg.MaxTokens != nil {
		p["max_tokens"] = *cfg.MaxTokens
	}
	if cfg.Seed != nil {
		p["seed"] = *cfg.Seed
	}
	return trace.ModelInfo{Name: cfg.Model, BaseURL: cfg.BaseURL, Params: p}
}

// start creates the trace of a task run in b, or returns nil when none was
// asked for.
func (t *traceFlags) start(b *browser.Browser, task agent.Task) (*trace.Writer, error) {
	if t.dir == "" {
		return nil, nil
	}
	h, m := trace.TaskHeader(task, t.model)
	t.masker = m
	return trace.Create(t.dir, h, trace.Options{Masker: m, Shots: b, Activity: b, HAR: t.har})
}

// cmdShowTrace writes a trace's viewer and opens it in a browser, or prints
// its path.
func showTraceFlags() (*flag.FlagSet, *bool) {
	fs := flag.NewFlagSet("show-trace", flag.ContinueOnError)
	printOnly := fs.Bool("print", false, "only print the viewer's path, do not open it")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent show-trace [--print] DIR\n\nWrites DIR/index.html from DIR/trace.jsonl and opens it in your browser (it prints the path where none is available).\n\nFlags:\n")
		printFlags(fs)
	}
	return fs, printOnly
}

func cmdShowTrace(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, printOnly := showTraceFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		return exitUsage, usagef("show-trace takes one folder, the one given to run --trace: webagent show-trace DIR")
	}
	if err := trace.WriteViewer(pos[0]); err != nil {
		if !errors.Is(err, trace.ErrTruncated) {
			return exitFailed, err
		}
		fmt.Fprintf(stderr, "webagent: %v\n", err)
	}
	page, _ := filepath.Abs(filepath.Join(pos[0], trace.ViewerFile))
	if !*printOnly && openInBrowser(ctx, page) == nil {
		fmt.Fprintf(stderr, "opened %s\n", page)
		return exitOK, nil
	}
	fmt.Fprintln(stdout, page)
	return exitOK, nil
}

// openInBrowser opens a file with the desktop's opener, where there is a
// desktop.
func openInBrowser(ctx context.Context, path string) error {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("no display")
	}
	opener, err := exec.LookPath("xdg-open")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, opener, path).Run()
}

// replayOpts are replay's flags.
type replayOpts struct {
	base, chrome string
	uploadDir    string
	secrets      secretFlag
	headful      bool
	timeout      time.Duration
	heal         bool
	out          string
	live         liveFlags
	modelFlags
}

func replayFlags() (*flag.FlagSet, *replayOpts) {
	o := &replayOpts{}
	fs, g := newFlagGroups("replay")
	g.add("Replay", func(fs *flag.FlagSet) {
		fs.StringVar(&o.base, "url", "", "replay against this base URL instead of the recorded one (a staging site): recorded URLs on the start URL's origin are moved to it")
		fs.Var(&o.secrets, "secret", "NAME=VALUE the value of a secret the run typed (recorded as <secret>NAME</secret>); VALUE env:VAR reads it from the environment (repeatable)")
		fs.DurationVar(&o.timeout, "action-timeout", replay.DefaultActionTimeout, "bound on one replayed action")
		fs.BoolVar(&o.heal, "heal", false, "when a step's element cannot be found, ask the model (--model, --base-url) for that step alone, given what the step meant to do and the page now, and go on")
		fs.StringVar(&o.out, "out", "", "record the replay, healed steps included, as a new trace in this folder (replay it, or show-trace it, like any other)")
	})
	g.add(titleLive, registerReplayLive(&o.live))
	g.add(titleBrowser, func(fs *flag.FlagSet) {
		fs.StringVar(&o.chrome, "chrome", "", "path to the Chromium binary (default $CHROME_PATH, else chromium on PATH)")
		fs.BoolVar(&o.headful, "headful", false, "show the browser window")
		fs.StringVar(&o.uploadDir, "upload-dir", "", "the folder uploads take their files from, as the recorded run's --upload-dir")
	})
	g.add(titleModel, func(fs *flag.FlagSet) {
		o.modelFlags.register(fs, "with --heal, the model that heals steps (default $WEBAGENT_MODEL)", "with --heal, its OpenAI-compatible endpoint (default $OPENAI_BASE_URL)")
	})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent replay [flags] DIR\n\nRuns the actions recorded in DIR (run --trace DIR) again in a fresh browser, with no model. Each action finds its element again by role, name and place;\nwith --heal, a step whose element is gone is asked of the model, alone, and the replay goes on.\nExit 0 when every step replays (the recorded answer is printed), 1 at the first step that cannot, 2 for bad input.\n\n")
		g.print()
	}
	return fs, o
}

// cmdReplay runs a trace's actions again in a fresh browser, with no model.
func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o := replayFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		return exitUsage, usagef("replay takes one folder, the one given to run --trace: webagent replay DIR")
	}
	if o.timeout <= 0 {
		return exitUsage, usagef("--action-timeout is %s; use a positive duration such as 30s", o.timeout)
	}
	t, err := trace.Read(pos[0])
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	vals, err := o.secrets.resolve()
	if err != nil {
		return exitUsage, err
	}
	for _, name := range t.Header.Secrets {
		if !hasSecret(vals, name) {
			return exitUsage, usagef("the run used the secret %s: pass it again with --secret %s=VALUE (or %s=env:VAR)", name, name, name)
		}
	}
	healer, err := o.healer(ctx, stderr)
	if err != nil {
		return exitUsage, err
	}
	if err := checkOut(o.out); err != nil {
		return exitUsage, err
	}
	if err := o.live.validate(); err != nil {
		return exitUsage, err
	}
	stderr = secret.NewMasker(vals).Writer(stderr)
	lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	b, err := browser.Launch(lctx, browser.Options{ChromePath: o.chrome, Headful: o.headful, UploadDir: o.uploadDir})
	cancel()
	if err != nil {
		if isBrowserConfigError(err) {
			return exitUsage, usagef("%v", err)
		}
		return exitFailed, fmt.Errorf("starting the browser: %w", err)
	}
	defer b.Close()
	live, err := startReplayLive(&o.live, t.Header.Task, stderr)
	if err != nil {
		return exitUsage, err
	}
	defer live.close()
	live.attach(b)
	opts := replay.Options{BaseURL: o.base, Secrets: vals, Progress: stderr, ActionTimeout: o.timeout}
	if healer != nil {
		opts.Healer = healer
		defer healer.CloseIdleConnections()
	}
	tw, err := o.startOut(t, vals)
	if err != nil {
		return exitUsage, usagef("--out: %v", err)
	}
	if tw != nil {
		opts.Tracer = tw
	}
	live.wire(&opts, tw)
	started := time.Now()
	res, err := replay.Run(ctx, b, t, opts)
	o.endOut(ctx, tw, res, err, stderr)
	live.finish(res, err, started)
	var se *replay.StepError
	switch {
	case errors.As(err, &se):
		fmt.Fprintf(stderr, "webagent: replay failed: %v\n", err)
		return exitFailed, nil
	case err != nil && ctx.Err() != nil:
		return exitInterrupted, nil
	case err != nil:
		return exitUsage, usagef("%v", err)
	}
	for _, h := range res.Healed {
		fmt.Fprintf(stderr, "%s\n", h)
	}
	healed := ""
	if healer != nil {
		healed = fmt.Sprintf(", %d healed with %d model calls", len(res.Healed), res.ModelCalls)
	}
	fmt.Fprintf(stderr, "replayed %d actions (%d recorded ones not replayed%s); the recorded run ended %s\n", res.Actions, res.Skipped, healed, res.Code)
	fmt.Fprintln(stdout, res.Answer)
	return exitOK, nil
}

// healer is the model --heal asks, nil without --heal.
func (o *replayOpts) healer(ctx context.Context, stderr io.Writer) (*llm.Client, error) {
	if !o.heal {
		if o.model != "" || o.baseURL != "" {
			return nil, usagef("--model and --base-url are for --heal; add --heal to let the model heal the steps that no longer replay")
		}
		return nil, nil
	}
	if err := o.modelFlags.validate(); err != nil {
		return nil, err
	}
	cfg := o.modelFlags.config((&common{logLevel: "warn"}).logger(stderr))
	if cfg.Model == "" || cfg.BaseURL == "" {
		return nil, usagef("--heal needs a model: pass --model NAME and --base-url URL (or set WEBAGENT_MODEL and OPENAI_BASE_URL)")
	}
	return newModel(ctx, cfg)
}

// checkOut checks --out: a new or empty folder.
func checkOut(dir string) error {
	if dir == "" {
		return nil
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return usagef("--out %s: the folder is not empty; give a new or empty folder", dir)
	}
	return nil
}

// startOut starts the trace --out records the replay in, nil without one.
func (o *replayOpts) startOut(t *trace.Trace, secrets map[string]string) (*trace.Writer, error) {
	if o.out == "" {
		return nil, nil
	}
	h := t.Header
	h.Started = time.Time{}
	if o.base != "" {
		h.URL = o.base
	}
	if o.heal {
		h.Model = modelInfo(o.modelFlags.config(nil))
	}
	return trace.Create(o.out, h, trace.Options{Masker: secret.NewMasker(secrets)})
}

// endOut ends the --out trace with the replay's outcome.
func (o *replayOpts) endOut(ctx context.Context, tw *trace.Writer, res *replay.Result, err error, stderr io.Writer) {
	if tw == nil {
		return
	}
	end := replayResult(res, err)
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), traceEndTimeout)
	defer cancel()
	if err := tw.End(ectx, end); err != nil {
		fmt.Fprintf(stderr, "webagent: %v\n", err)
		return
	}
	fmt.Fprintf(stderr, "trace: %s (webagent replay %s)\n", tw.Dir(), tw.Dir())
}

func hasSecret(vals map[string]string, name string) bool {
	for k := range vals {
		if n, _, _ := secret.ParseKey(k); n == name {
			return true
		}
	}
	return false
}

// isTrace reports whether dir holds a trace.
func isTrace(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, trace.EventsFile))
	return err == nil
}

// compareTraces prints the first step where two traces of one task differ.
func compareTraces(oldDir, newDir string, stdout io.Writer) (int, error) {
	var ts [2]*trace.Trace
	for i, dir := range []string{oldDir, newDir} {
		t, err := trace.Read(dir)
		if err != nil && !errors.Is(err, trace.ErrTruncated) {
			return exitUsage, usagef("%v", err)
		}
		ts[i] = t
	}
	if ts[0].Header.Task != ts[1].Header.Task {
		return exitUsage, usagef("the traces are of different tasks (%q and %q); compare two runs of one task", ts[0].Header.Task, ts[1].Header.Task)
	}
	d := trace.Compare(ts[0], ts[1])
	d.Write(stdout)
	if !d.Same() {
		return exitFailed, nil
	}
	return exitOK, nil
}
