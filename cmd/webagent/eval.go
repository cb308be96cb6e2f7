package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/llm"
)

// evalOperationTimeout is eval's --operation-timeout by default.
const evalOperationTimeout = 45 * time.Second

type evalOpts struct {
	common
	modelFlags
	suites, tasks listFlag
	cdpURLs       listFlag
	workers       int
	traces        bool // --trace: one trace per run
	out           string
	faults        bool
	miniwob       string
	miniwobTasks  listFlag
	episodeTimer  bool // --episode-timer: MiniWoB++ episodes keep their own timer
	seeds         listFlag
	siteHost      string
	fleet         evalFleetFlags
	open          openWebFlags
	apis          evalAPIFlags
	local         localModelFlag
}

func evalFlags() (*flag.FlagSet, *evalOpts) {
	o := &evalOpts{}
	fs, g := newFlagGroups("eval")
	g.add("Eval", func(fs *flag.FlagSet) {
		fs.Var(&o.suites, "suite", "run only these suites (repeatable, or a comma list)")
		fs.Var(&o.tasks, "task", "run only these task IDs (repeatable, or a comma list)")
		fs.IntVar(&o.workers, "workers", eval.DefaultWorkers(), "runs at once, each with its own browser, site and model server")
		fs.StringVar(&o.out, "out", "", "directory for report.json, report.md, report.html and screenshots (default eval-out/<timestamp>)")
		fs.BoolVar(&o.traces, "trace", true, "write a trace of each task run under the output folder's traces/, linked from report.html (webagent show-trace, replay); --trace=false skips them")
		fs.Var(&o.cdpURLs, "cdp-url", "a remote browser's DevTools URL; repeat it for a pool: workers are spread over them, each run in a fresh browser context")
		fs.BoolVar(&o.faults, "faults", false, "run the fault suite instead: stalled stream, drip, 429 storm, frozen page, crash, a navigation that never arrives")
		fs.StringVar(&o.siteHost, "site-host", "127.0.0.1", "address of this machine the task sites (and MiniWoB++ pages) are served on; remote browsers (--cdp-url) must be able to reach it")
	})
	g.add("MiniWoB++", func(fs *flag.FlagSet) {
		fs.StringVar(&o.miniwob, "miniwob", "", "run MiniWoB++ tasks from this checkout (needs --model)")
		fs.Var(&o.miniwobTasks, "miniwob-tasks", "MiniWoB++ tasks to run, e.g. click-button,enter-text (default: "+strings.Join(eval.DefaultMiniWoBTasks, ",")+")")
		fs.Var(&o.seeds, "seeds", "episode seeds for each MiniWoB++ task: a list (1,2,3) or a range (1-10); default 1-3")
		fs.BoolVar(&o.episodeTimer, "episode-timer", false, "keep each MiniWoB++ task's own episode timer (10 s unless the task sets another), which ends an unfinished episode with reward -1; "+
			"without it an episode has no time limit but --max-iterations and the other bounds")
	})
	g.add(titleModel, func(fs *flag.FlagSet) {
		o.modelFlags.register(fs, "model to measure (default $WEBAGENT_MODEL); without one the bundled reference model plays each task's reference solution, offline",
			"OpenAI-compatible endpoint of the model to measure (default $OPENAI_BASE_URL)")
		o.apis.register(fs)
		o.local.register(fs)
	})
	// The model-facing bounds (iteration timeout, stream idle timeout, no
	// task timeout) are run's: a reasoning model that thinks for 90 s must
	// not fail every eval iteration. Only the tool backstop is tighter.
	o.limits.OperationTimeout = evalOperationTimeout
	// eval takes --cdp-url repeatedly and --trace as a switch (above), and
	// its runs upload and download nothing of the user's.
	o.common.registerGroups(g, groupLocal|groupPage|groupSettings|groupNav|groupLoop|groupJSON|groupLog|groupOTel|groupConfig)
	g.add("Open-web benchmarks", o.open.register)
	g.add(titleCache, func(fs *flag.FlagSet) { o.cache.register(fs, false) })
	g.add(titleFleet, o.fleet.register)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage:
  webagent eval [flags] [TASK_FILES_OR_DIRS...]
  webagent eval --dataset webvoyager|online-mind2web|bu-v2 [flags] FILE
  webagent eval compare OLD/report.json NEW/report.json
  webagent eval judge [flags] DIR

Runs task suites and writes report.json, report.md and report.html. With no
task files it runs the built-in suites; with no model configured it uses the
bundled reference model, offline. A task's own limits take precedence over
the bound flags. Exit status: 0 all passed, 1 some failed, 2 usage, 130
interrupted (the partial report is still written).

`)
		g.print()
	}
	return fs, o
}

// cmdEval runs the task suites (or the fault suite, or MiniWoB++ tasks)
// and writes the report.
func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) > 0 && args[0] == "compare" {
		return cmdCompare(args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "judge" {
		return cmdEvalJudge(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "export" {
		return cmdEvalExport(args[1:], stdout, stderr)
	}
	if err := checkCompareTypo(args); err != nil {
		return exitUsage, err
	}
	fs, o := evalFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if err := o.validate(pos); err != nil {
		return exitUsage, err
	}
	if err := o.open.validate(fs, o, pos); err != nil {
		return exitUsage, err
	}
	log := o.logger(stderr)
	stopOTel, err := o.otel.start(ctx, "webagent-eval", log)
	if err != nil {
		return exitUsage, err
	}
	defer stopOTel()
	if o.fleet.temporal.addr != "" {
		return o.fleetEval(ctx, fs, pos, log, stdout, stderr)
	}
	if o.cache.dir != "" && (o.faults || o.miniwob != "" || o.open.dataset != "") {
		return exitUsage, usagef("--cache replays the runs of task suites, whose checks say a run passed; the fault suite, MiniWoB++ and judged datasets run without it")
	}
	if err := o.cache.open(log); err != nil {
		return exitUsage, err
	}

	stopLocal, err := o.startLocalModel(ctx, stderr)
	if err != nil {
		return startExit(ctx), err
	}
	defer stopLocal()
	// The model: the reference model unless one is configured.
	model, modelName, api, native, closeModel, code, err := o.evalModel(ctx, log)
	if err != nil {
		return code, err
	}
	defer closeModel()
	run, closeRun, err := o.openWeb(ctx, log, modelName)
	if err != nil {
		return startExit(ctx), err
	}
	defer closeRun()
	jobs, closeJobs, err := o.jobs(pos, model != nil)
	if err != nil {
		return exitUsage, err
	}
	defer closeJobs()
	jobs = eval.Repeat(jobs, o.open.repeat)
	if o.faults {
		modelName = "scripted (faults)"
	}
	if err := o.checkBrowsers(ctx, log, stderr); err != nil {
		return startExit(ctx), err
	}
	out, err := o.outDir()
	if err != nil {
		return exitUsage, err
	}
	bar := eval.NewBar(stderr, len(jobs), isTerminal(stderr))
	runner := eval.NewRunner(eval.Config{
		Workers: o.workers, Model: model, ModelName: modelName, CDPURLs: o.cdpURLs, API: api, Native: native,
		Browser:  o.browserOptions(log, o.traces),
		Options:  append(o.loopOptions(o.limitsFor(fs)), run.options...),
		SiteHost: o.siteHost, OutDir: out, Trace: o.traces, Progress: bar, Logger: log,
		Cache: o.cache.opened,
		Judge: run.judge, JudgeName: o.open.judge.model, Prices: o.open.table, MaxCost: o.open.maxEvalCost,
	})
	fmt.Fprintf(stderr, "eval: %d runs, %d workers, model %s, writing %s\n", len(jobs), runner.Config().Workers, modelName, out)
	rep := runner.Run(ctx, jobs)
	bar.Finish()
	return o.writeReport(ctx, rep, out, stdout, stderr)
}

// checkCompareTypo refuses a first argument that is no file but looks like
// a misspelt compare.
func checkCompareTypo(args []string) error {
	if len(args) == 0 || closest(args[0], []string{"compare"}) == "" {
		return nil
	}
	if _, err := os.Stat(args[0]); err != nil {
		return usagef("%q is neither a task file nor a command of eval; did you mean 'webagent eval compare OLD NEW'?", args[0])
	}
	return nil
}

// validate checks eval's flags; files are the task files given.
func (o *evalOpts) validate(files []string) error {
	if err := o.common.validate(); err != nil {
		return err
	}
	if o.workers < 1 {
		return usagef("--workers is %d; it must be at least 1", o.workers)
	}
	for _, u := range o.cdpURLs {
		if !isDevToolsURL(u) {
			return usagef("--cdp-url %q is not a DevTools address; use e.g. http://127.0.0.1:9222", u)
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(o.siteHost, "0"))
	if err != nil {
		return usagef("--site-host %q: cannot serve on it: %v", o.siteHost, err)
	}
	ln.Close()
	if err := o.modelFlags.validate(); err != nil {
		return err
	}
	modes := 0
	for _, on := range []bool{o.faults, o.miniwob != "", len(files) > 0 && o.open.dataset == ""} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return usagef("--faults, --miniwob and task files are separate runs; give one of them")
	}
	if o.episodeTimer && o.miniwob == "" {
		return usagef("--episode-timer is for MiniWoB++ episodes: give --miniwob DIR too, or leave it out")
	}
	return nil
}

// measuredModel returns the client of the model to measure, or nil for the
// reference model: when none is configured, and for the fault suite, whose
// models are scripted.
func (o *evalOpts) measuredModel(ctx context.Context, log *slog.Logger) (*llm.Client, error) {
	cfg := o.modelFlags.config(log)
	if o.faults || (cfg.Model == "" && o.baseURL == "" && os.Getenv("OPENAI_BASE_URL") == "") {
		return nil, nil
	}
	return newModel(ctx, cfg)
}

// startExit is the exit status of a check before the runs that failed:
// interrupted when ctx ended, else a usage error.
func startExit(ctx context.Context) int {
	if ctx.Err() != nil {
		return exitInterrupted
	}
	return exitUsage
}

// jobs returns the runs the flags and the task files ask for, and a func
// that releases what they need. haveModel says whether a model is
// measured (or the reference model plays).
func (o *evalOpts) jobs(files []string, haveModel bool) ([]eval.Job, func(), error) {
	switch {
	case o.faults:
		return eval.FaultJobs(), func() {}, nil
	case o.open.dataset != "":
		if !haveModel {
			return nil, nil, usagef("--dataset needs a model to measure (--model, --base-url): the reference model plays only tasks with a reference solution")
		}
		return o.open.datasetJobs(), func() {}, nil
	case o.miniwob != "":
		return o.miniwobJobs(haveModel)
	default:
		jobs, err := taskJobs(files, o.suites, o.tasks, haveModel)
		return jobs, func() {}, err
	}
}

// miniwobJobs serves the --miniwob checkout and returns a job per task and
// seed, and the func that stops the server.
func (o *evalOpts) miniwobJobs(haveModel bool) ([]eval.Job, func(), error) {
	if !haveModel {
		return nil, nil, usagef("--miniwob needs a model (--model, --base-url): the reference model cannot play MiniWoB++ tasks")
	}
	seeds, err := parseSeeds(o.seeds)
	if err != nil {
		return nil, nil, err
	}
	names := []string(o.miniwobTasks)
	if len(names) == 0 {
		names = eval.DefaultMiniWoBTasks
	}
	mw, err := eval.NewMiniWoB(o.miniwob, o.siteHost)
	if err != nil {
		return nil, nil, usagef("--miniwob: %v", err)
	}
	mw.EpisodeTimer = o.episodeTimer
	jobs, err := mw.Jobs(names, seeds)
	if err != nil {
		mw.Close()
		return nil, nil, usagef("--miniwob-tasks: %v", err)
	}
	return jobs, mw.Close, nil
}

// taskJobs loads the task files (the built-in suites when there are none),
// keeps the --suite and --task ones, and returns a job for each. Without a
// model, every task needs a reference solution.
func taskJobs(files, suites, ids []string, haveModel bool) ([]eval.Job, error) {
	tasks, err := loadTasks(files)
	if err != nil {
		return nil, err
	}
	if tasks, err = selectTasks(tasks, suites, ids); err != nil {
		return nil, err
	}
	if !haveModel {
		for _, t := range tasks {
			if t.Reference == nil {
				return nil, usagef("%s:%d: task %q has no reference solution, which the bundled reference model plays; measure a model on it with --model", t.File, t.Line, t.ID)
			}
		}
	}
	return eval.TaskJobs(tasks), nil
}

// loadTasks loads the task files, or the built-in suites when none is
// given. A bad file is a usage error naming the file and line.
func loadTasks(files []string) ([]*suite.Task, error) {
	if len(files) == 0 {
		tasks, err := suite.Builtin()
		if err != nil {
			return nil, fmt.Errorf("the built-in suites: %w", err)
		}
		return tasks, nil
	}
	tasks, err := suite.LoadFiles(files)
	var es suite.Errors
	switch {
	case errors.As(err, &es):
		return nil, usagef("bad task file:\n%v", es)
	case err != nil:
		return nil, usagef("%v", err)
	}
	return tasks, nil
}

// selectTasks keeps the tasks of --suite and --task; a suite or task that
// does not exist, or a choice that leaves no task, is a usage error.
func selectTasks(tasks []*suite.Task, suites, ids []string) ([]*suite.Task, error) {
	selected, badSuites, badIDs := suite.Select(tasks, suites, ids)
	switch {
	case len(badSuites) > 0:
		return nil, usagef("--suite %q: no such suite; the suites are %s", badSuites[0], strings.Join(suite.Suites(tasks), ", "))
	case len(badIDs) > 0:
		return nil, usagef("--task %q: no such task", badIDs[0])
	case len(selected) == 0:
		return nil, usagef("no task matches --suite %s --task %s", strings.Join(suites, ","), strings.Join(ids, ","))
	}
	return selected, nil
}

// parseSeeds reads --seeds: "1,2,5" and ranges "1-10"; default 1-3.
func parseSeeds(list []string) ([]int64, error) {
	if len(list) == 0 {
		return []int64{1, 2, 3}, nil
	}
	var seeds []int64
	for _, s := range list {
		lo, hi, isRange := strings.Cut(s, "-")
		a, err := strconv.ParseInt(lo, 10, 64)
		if err != nil {
			return nil, usagef("--seeds %q: %q is not a number or a range such as 1-10", strings.Join(list, ","), s)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseInt(hi, 10, 64); err != nil || b < a || b-a > 10000 {
				return nil, usagef("--seeds %q: %q is not a range such as 1-10", strings.Join(list, ","), s)
			}
		}
		for x := a; x <= b; x++ {
			seeds = append(seeds, x)
		}
	}
	return seeds, nil
}

// limitsFor are the runs' limits: the flags', with MiniWoB++ episodes'
// own iteration bound unless --max-iterations is given.
func (o *evalOpts) limitsFor(fs *flag.FlagSet) agent.Limits {
	l := o.limits
	if o.miniwob != "" && !flagSet(fs, "max-iterations") {
		l.MaxIterations = eval.MiniWoBMaxIterations
	}
	return l
}

// checkBrowsers checks the browsers the runs will use before any run:
// the local Chromium, or each remote one of --cdp-url.
func (o *evalOpts) checkBrowsers(ctx context.Context, log *slog.Logger, stderr io.Writer) error {
	if len(o.cdpURLs) > 0 {
		return checkRemoteBrowsers(ctx, o.cdpURLs, log, stderr)
	}
	return checkLocalBrowser(ctx, o.chrome)
}

// outDir creates the output folder: --out, or eval-out/<timestamp>.
func (o *evalOpts) outDir() (string, error) {
	out := o.out
	if out == "" {
		out = filepath.Join("eval-out", time.Now().Format("20060102-150405"))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", usagef("--out %s: %v", out, err)
	}
	return out, nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// writeReport writes the report into out, prints its summary (and with
// --json, report.json on stdout) and returns the exit status: 0 when every
// run planned ran and passed, 130 when interrupted, else 1 (a failure, an
// unscored run, runs the budget left unstarted).
func (o *evalOpts) writeReport(ctx context.Context, rep *eval.Report, out string, stdout, stderr io.Writer) (int, error) {
	if err := rep.WriteAll(out); err != nil {
		return exitFailed, fmt.Errorf("writing the report: %w", err)
	}
	exportDatasets(rep, out, stderr)
	if o.json {
		data, _ := os.ReadFile(filepath.Join(out, "report.json"))
		_, _ = stdout.Write(data)
	}
	fmt.Fprintf(stderr, "%d of %d passed in %.1fs; report: %s\n", rep.Passed(), len(rep.Runs), float64(rep.DurationMS)/1000, filepath.Join(out, "report.html"))
	fmt.Fprintln(stderr, report.Headline(rep.Summarize()))
	if rep.Stopped != "" {
		fmt.Fprintf(stderr, "stopped early: %s\n", rep.Stopped)
	}
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "interrupted: partial report, %d of %d runs made\n", len(rep.Runs), rep.Planned)
		return exitInterrupted, nil
	case rep.Passed() == len(rep.Runs) && len(rep.Runs) > 0 && rep.Stopped == "":
		return exitOK, nil
	default:
		return exitFailed, nil
	}
}

func cmdCompare(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("eval compare", flag.ContinueOnError)
	minDelta := fs.Duration("min-time-change", 500*time.Millisecond, "report a task's time change only above this (and above 25%)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent eval compare [flags] OLD/report.json NEW/report.json\n"+
			"       webagent eval compare OLD_TRACE_DIR NEW_TRACE_DIR\n\n"+
			"Lists regressions (passed before, failed now), improvements, and changes in time and tokens.\n"+
			"Exit status 1 when there is a regression.\n"+
			"Given two traces of the same task, prints the first step where they differ (exit status 1 when they do).\n\nFlags:\n")
		printFlags(fs)
	}
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 2 {
		return exitUsage, usagef("compare takes two reports: webagent eval compare OLD/report.json NEW/report.json")
	}
	if isTrace(pos[0]) && isTrace(pos[1]) {
		return compareTraces(pos[0], pos[1], stdout)
	}
	var reps [2]*report.Report
	for i, p := range pos {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			p = filepath.Join(p, "report.json")
		}
		if reps[i], err = report.Load(p); err != nil {
			return exitUsage, usagef("%v", err)
		}
	}
	d := report.Compare(reps[0], reps[1], minDelta.Milliseconds())
	d.Write(stdout)
	if len(d.Regressions) > 0 {
		return exitFailed, nil
	}
	return exitOK, nil
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
