package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/internal/eval/report"
	"github.com/webagent/webagent/internal/eval/suite"
)

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
	seeds         listFlag
	siteHost      string
}

// listFlag is a repeatable flag whose values may also be comma lists.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

func evalFlags() (*flag.FlagSet, *evalOpts) {
	o := &evalOpts{}
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	// The common flags, except --cdp-url, which eval takes repeatedly.
	cfs := flag.NewFlagSet("common", flag.ContinueOnError)
	o.common.register(cfs)
	// The model-facing bounds (iteration timeout, stream idle timeout, no
	// task timeout) are run's: a reasoning model that thinks for 90 s must
	// not fail every eval iteration. Only the tool backstop is tighter.
	_ = cfs.Set("operation-timeout", "45s")
	cfs.VisitAll(func(f *flag.Flag) {
		if f.Name == "cdp-url" || f.Name == "trace" || f.Name == "trace-har" { // eval's --trace is a switch
			return
		}
		fs.Var(f.Value, f.Name, f.Usage)
		fs.Lookup(f.Name).DefValue = f.Value.String()
	})
	o.modelFlags.register(fs, "model to measure (default $WEBAGENT_MODEL); without one the bundled reference model plays each task's reference solution, offline",
		"OpenAI-compatible endpoint of the model to measure (default $OPENAI_BASE_URL)")
	fs.Var(&o.suites, "suite", "run only these suites (repeatable, or a comma list)")
	fs.Var(&o.tasks, "task", "run only these task IDs (repeatable, or a comma list)")
	fs.IntVar(&o.workers, "workers", eval.DefaultWorkers(), "runs at once, each with its own browser, site and model server")
	fs.StringVar(&o.out, "out", "", "directory for report.json, report.md, report.html and screenshots (default eval-out/<timestamp>)")
	fs.BoolVar(&o.traces, "trace", true, "write a trace of each task run under the output folder's traces/, linked from report.html (webagent show-trace, replay); --trace=false skips them")
	fs.Var(&o.cdpURLs, "cdp-url", "a remote browser's DevTools URL; repeat it for a pool: workers are spread over them, each run in a fresh browser context")
	fs.BoolVar(&o.faults, "faults", false, "run the fault suite instead: stalled stream, drip, 429 storm, frozen page, crash, a navigation that never arrives")
	fs.StringVar(&o.miniwob, "miniwob", "", "run MiniWoB++ tasks from this checkout (needs --model)")
	fs.Var(&o.miniwobTasks, "miniwob-tasks", "MiniWoB++ tasks to run, e.g. click-button,enter-text (default: "+strings.Join(eval.DefaultMiniWoBTasks, ",")+")")
	fs.StringVar(&o.siteHost, "site-host", "127.0.0.1", "address of this machine the task sites (and MiniWoB++ pages) are served on; remote browsers (--cdp-url) must be able to reach it")
	fs.Var(&o.seeds, "seeds", "episode seeds for each MiniWoB++ task: a list (1,2,3) or a range (1-10); default 1-3")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage:
  webagent eval [flags] [TASK_FILES_OR_DIRS...]
  webagent eval compare OLD/report.json NEW/report.json

Runs task suites and writes report.json, report.md and report.html. With no
task files it runs the built-in suites; with no model configured it uses the
bundled reference model, offline. A task's own limits take precedence over
the bound flags. Exit status: 0 all passed, 1 some failed, 2 usage, 130
interrupted (the partial report is still written).

Flags:
`)
		printFlags(fs) // cliflags.go
	}
	return fs, o
}

func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) > 0 && args[0] == "compare" {
		return cmdCompare(args[1:], stdout)
	}
	if len(args) > 0 && closest(args[0], []string{"compare"}) != "" {
		if _, err := os.Stat(args[0]); err != nil {
			return exitUsage, usagef("%q is neither a task file nor a command of eval; did you mean 'webagent eval compare OLD NEW'?", args[0])
		}
	}
	fs, o := evalFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if err := o.common.validate(); err != nil {
		return exitUsage, err
	}
	if o.workers < 1 {
		return exitUsage, usagef("--workers is %d; it must be at least 1", o.workers)
	}
	for _, u := range o.cdpURLs {
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "ws" && pu.Scheme != "wss" && pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return exitUsage, usagef("--cdp-url %q is not a DevTools address; use e.g. http://127.0.0.1:9222", u)
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(o.siteHost, "0"))
	if err != nil {
		return exitUsage, usagef("--site-host %q: cannot serve on it: %v", o.siteHost, err)
	}
	ln.Close()
	if err := o.modelFlags.validate(); err != nil {
		return exitUsage, err
	}
	modes := 0
	for _, on := range []bool{o.faults, o.miniwob != "", len(pos) > 0} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return exitUsage, usagef("--faults, --miniwob and task files are separate runs; give one of them")
	}
	log := o.logger(stderr)

	// The model: the reference model unless one is configured.
	cfg := o.modelFlags.config(log)
	var model agent.Model
	modelName := eval.ReferenceModel
	if !o.faults && (cfg.Model != "" || o.baseURL != "" || os.Getenv("OPENAI_BASE_URL") != "") {
		client, err := newModel(ctx, cfg)
		if err != nil {
			if ctx.Err() != nil {
				return exitInterrupted, err
			}
			return exitUsage, err
		}
		defer client.CloseIdleConnections()
		model, modelName = client, client.Model()
	}

	var jobs []eval.Job
	switch {
	case o.faults:
		jobs = eval.FaultJobs()
		modelName = "scripted (faults)"
	case o.miniwob != "":
		if model == nil {
			return exitUsage, usagef("--miniwob needs a model (--model, --base-url): the reference model cannot play MiniWoB++ tasks")
		}
		seeds, err := parseSeeds(o.seeds)
		if err != nil {
			return exitUsage, err
		}
		names := []string(o.miniwobTasks)
		if len(names) == 0 {
			names = eval.DefaultMiniWoBTasks
		}
		mw, err := eval.NewMiniWoB(o.miniwob, o.siteHost)
		if err != nil {
			return exitUsage, usagef("--miniwob: %v", err)
		}
		defer mw.Close()
		if jobs, err = mw.Jobs(names, seeds); err != nil {
			return exitUsage, usagef("--miniwob-tasks: %v", err)
		}
	default:
		tasks, err := loadTasks(pos)
		if err != nil {
			return exitUsage, err
		}
		if tasks, err = filterTasks(tasks, o.suites, o.tasks); err != nil {
			return exitUsage, err
		}
		if model == nil {
			for _, t := range tasks {
				if t.Reference == nil {
					return exitUsage, usagef("%s:%d: task %q has no reference solution, which the bundled reference model plays; measure a model on it with --model", t.File, t.Line, t.ID)
				}
			}
		}
		jobs = eval.TaskJobs(tasks)
	}

	// MiniWoB++ episodes have their own default bound, unless
	// --max-iterations is given.
	maxIterations := o.maxIterations
	if o.miniwob != "" && !flagSet(fs, "max-iterations") {
		maxIterations = eval.MiniWoBMaxIterations
	}

	check := func() error { return checkLocalBrowser(ctx, o.chrome) }
	if len(o.cdpURLs) > 0 {
		check = func() error { return checkRemoteBrowsers(ctx, o.cdpURLs, log, stderr) }
	}
	if err := check(); err != nil { // evalpreflight.go
		if ctx.Err() != nil {
			return exitInterrupted, err
		}
		return exitUsage, err
	}
	out := o.out
	if out == "" {
		out = filepath.Join("eval-out", time.Now().Format("20060102-150405"))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return exitUsage, usagef("--out %s: %v", out, err)
	}
	tty := false
	if f, ok := stderr.(*os.File); ok {
		tty = isatty.IsTerminal(f.Fd())
	}
	bar := eval.NewBar(stderr, len(jobs), tty)
	runner := eval.NewRunner(eval.Config{
		Workers: o.workers, Model: model, ModelName: modelName, CDPURLs: o.cdpURLs,
		Browser:  o.browserOptions(log, o.traces),
		Options:  o.loopOptions(maxIterations), // run.go
		SiteHost: o.siteHost, OutDir: out, Trace: o.traces, Progress: bar, Logger: log,
	})

	fmt.Fprintf(stderr, "eval: %d runs, %d workers, model %s, writing %s\n", len(jobs), runner.Config().Workers, modelName, out)
	rep := runner.Run(ctx, jobs)
	bar.Finish()
	if err := rep.WriteAll(out); err != nil {
		return exitFailed, fmt.Errorf("writing the report: %w", err)
	}
	if o.json {
		data, _ := os.ReadFile(filepath.Join(out, "report.json"))
		_, _ = stdout.Write(data)
	}
	fmt.Fprintf(stderr, "%d of %d passed in %.1fs; report: %s\n", rep.Passed(), len(rep.Runs), float64(rep.DurationMS)/1000, filepath.Join(out, "report.html"))
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "interrupted: partial report, %d of %d runs made\n", len(rep.Runs), rep.Planned)
		return exitInterrupted, nil
	case rep.Passed() == len(rep.Runs) && len(rep.Runs) > 0:
		return exitOK, nil
	default:
		return exitFailed, nil
	}
}

// loadTasks loads the task files, or the built-in suites when none is
// given. A bad file is a usage error naming the file and line.
func loadTasks(paths []string) ([]*suite.Task, error) {
	if len(paths) == 0 {
		tasks, err := suite.Builtin()
		if err != nil {
			return nil, fmt.Errorf("the built-in suites: %w", err)
		}
		return tasks, nil
	}
	var all []*suite.Task
	seen := map[string]string{}
	for _, p := range paths {
		tasks, err := suite.Load(p)
		if err != nil {
			var es suite.Errors
			if errors.As(err, &es) {
				return nil, usagef("bad task file:\n%v", es)
			}
			return nil, usagef("%v", err)
		}
		for _, t := range tasks {
			if prev, ok := seen[t.ID]; ok {
				return nil, usagef("%s:%d: task %q is also defined in %s", t.File, t.Line, t.ID, prev)
			}
			seen[t.ID] = fmt.Sprintf("%s:%d", t.File, t.Line)
		}
		all = append(all, tasks...)
	}
	return all, nil
}

func filterTasks(tasks []*suite.Task, suites, ids []string) ([]*suite.Task, error) {
	var out []*suite.Task
	known := map[string]bool{}
	knownIDs := map[string]bool{}
	for _, t := range tasks {
		known[t.Suite] = true
		knownIDs[t.ID] = true
		if (len(suites) == 0 || slices.Contains(suites, t.Suite)) && (len(ids) == 0 || slices.Contains(ids, t.ID)) {
			out = append(out, t)
		}
	}
	for _, s := range suites {
		if !known[s] {
			var names []string
			for n := range known {
				names = append(names, n)
			}
			slices.Sort(names)
			return nil, usagef("--suite %q: no such suite; the suites are %s", s, strings.Join(names, ", "))
		}
	}
	for _, id := range ids {
		if !knownIDs[id] {
			return nil, usagef("--task %q: no such task", id)
		}
	}
	if len(out) == 0 {
		return nil, usagef("no task matches --suite %s --task %s", strings.Join(suites, ","), strings.Join(ids, ","))
	}
	return out, nil
}

// parseSeeds reads "1,2,5" and ranges "1-10"; default 1-3.
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

func cmdCompare(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("eval compare", flag.ContinueOnError)
	minDelta := fs.Duration("min-time-change", 500*time.Millisecond, "report a task's time change only above this (and above 25%)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: webagent eval compare [flags] OLD/report.json NEW/report.json\n"+
			"       webagent eval compare OLD_TRACE_DIR NEW_TRACE_DIR\n\n"+
			"Lists regressions (passed before, failed now), improvements, and changes in time and tokens.\n"+
			"Exit status 1 when there is a regression.\n"+
			"Given two traces of the same task, prints the first step where they differ (exit status 1 when they do).\n\nFlags:\n")
		printFlags(fs) // cliflags.go
	}
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 2 {
		return exitUsage, usagef("compare takes two reports: webagent eval compare OLD/report.json NEW/report.json")
	}
	if isTrace(pos[0]) && isTrace(pos[1]) {
		return compareTraces(pos[0], pos[1], stdout) // tracecmd.go
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
