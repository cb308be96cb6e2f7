package eval

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/cache"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/suite"
	"github.com/webagent/webagent/price"
)

// ReferenceModel is the model name reported for the bundled reference
// model.
const ReferenceModel = "reference"

// The APIs Config.API reaches the reference model by.
const (
	APIChat      = "chat"
	APIAnthropic = "anthropic"
	APIResponses = "responses"
	APIGemini    = "gemini"
)

// Config configures a Runner.
type Config struct {
	// Workers is how many runs go on at once; 0 means DefaultWorkers().
	Workers int
	// Model is the model measured. nil uses the bundled reference model:
	// for each task a [modelserver.Server] on 127.0.0.1 that plays the
	// task's reference solution, reached over HTTP by an llm client.
	Model contract.Model
	// ModelName is reported; "reference" when Model is nil.
	ModelName string
	// API is how the reference model is reached when Model is nil: "" or
	// APIChat (chat completions), APIAnthropic (the Messages API),
	// APIResponses (OpenAI's Responses API) or APIGemini (Google's Gemini
	// API).
	API string
	// Native offers the model its vendor's tool set of this kind
	// (agent.WithNativeTools: contract.NativeBrowser, ...) in place of
	// webagent's tools; "" keeps webagent's. With the reference model it
	// needs an API whose vendor has that tool (APIAnthropic for
	// contract.NativeBrowser), where the reference plays its solution in
	// that tool's actions.
	Native string
	// Browser is the template of every browser launched: ChromePath,
	// Headful, Logger. Its CDPURL is ignored; see CDPURLs.
	Browser browser.Options
	// CDPURLs is a pool of remote browsers. When set, worker i attaches
	// to CDPURLs[i % len] for each run (a tab of its own, in a fresh
	// browser context) and a retry goes to the next one. When empty, each
	// worker starts a local headless Chromium and each run attaches to it
	// the same way; a worker whose Chromium died starts a new one.
	CDPURLs []string
	// LaunchPerRun launches a Chromium for each run instead of one per
	// worker with a fresh browser context per run (slower: about 1s more
	// per run on a 2-core machine). Ignored with CDPURLs.
	LaunchPerRun bool
	// Options are agent options applied to every run, before a task's own
	// limits (which take precedence).
	Options []agent.Option
	// SiteHost is the address the task sites are served on, and at which
	// the browsers reach them; "" means 127.0.0.1. Remote browsers on other
	// machines (CDPURLs) need an address of this machine they can reach.
	SiteHost string
	// OutDir receives the final screenshots, under shots/. Empty takes
	// none.
	OutDir string
	// Trace writes a trace of each task run under OutDir/traces/ (a
	// [trace.Writer] as the run's tracer), linked from the report; without
	// OutDir it writes none. Browser.RecordActivity adds the console and
	// network to it.
	Trace bool
	// Cache, when set, keeps the first successful run of each task and
	// replays it on the next runs, asking the model only where the page
	// differs (package cache); each run's report says how much came from
	// it (Run.Replay).
	Cache *cache.Cache
	// Progress is told about runs as they start and end; nil tells no
	// one.
	Progress Progress
	// Logger receives the harness's diagnostics; nil logs nothing.
	Logger *slog.Logger

	// Judge decides the runs of tasks without checks (a dataset's) from
	// their traces (Trace must be set); JudgeName is reported. Without one
	// such runs are unscored.
	Judge     Judge
	JudgeName string
	// Prices turn each run's tokens into money (Run.CostUSD) for the
	// model ModelName; nil, or a model it has no price for, reports
	// tokens only.
	Prices *price.Table
	// MaxCost, when above 0, is the eval's budget in US dollars: once the
	// runs that ended (the judge's cost included) have cost that much, no
	// new run starts; the report lists the rest in NotRun and says why in
	// Stopped. Runs under way finish.
	MaxCost float64
}

// Progress follows a run of the harness. Its methods are called from the
// workers' goroutines, one at a time.
type Progress interface {
	Begin(key string)
	Done(run Run)
}

// DefaultWorkers fits the worker count to the machine: one per CPU, at
// most 4 (each run has a Chromium of its own), at least 1.
func DefaultWorkers() int {
	return max(1, min(runtime.NumCPU(), 4))
}

// Job is one run the harness makes.
type Job struct {
	Suite, ID string
	// Key identifies the run (see [Run.Key]).
	Key string
	// Retry allows one more attempt when the run's browser died.
	Retry bool
	// StorageState is a Playwright storage-state file loaded into the
	// job's browser (its tab's browser context) before it runs.
	StorageState string
	// Run performs the job with the browser it is given. The error, if
	// any, is the reason the browser died (browser.ErrCrashed or
	// ErrDisconnected), which may earn a retry.
	Run func(ctx context.Context, env *Env) (Run, error)
}

// Env is what a Job runs with.
type Env struct {
	Browser *browser.Browser
	// BrowserName is "local" or the CDP URL.
	BrowserName string
	// CDPURL is the DevTools address of the browser the tab is in, when
	// known.
	CDPURL string
	Config *Config
	// Shot is the screenshot file the run should save, relative to
	// Config.OutDir.
	Shot string
	// Trace is the folder of the run's trace, relative to Config.OutDir.
	Trace string
}

// Runner runs jobs on parallel workers.
type Runner struct {
	cfg Config
}

// NewRunner returns a Runner.
func NewRunner(cfg Config) *Runner {
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ModelName == "" {
		cfg.ModelName = ReferenceModel
		if cfg.Model != nil {
			cfg.ModelName = "custom"
		}
	}
	return &Runner{cfg: cfg}
}

// Config returns the runner's configuration, defaults filled in.
func (r *Runner) Config() Config { return r.cfg }

// TaskJobs returns a job for each task.
func TaskJobs(tasks []*Task) []Job {
	jobs := make([]Job, len(tasks))
	for i, t := range tasks {
		jobs[i] = Job{
			Suite: t.Suite, ID: t.ID, Key: t.Suite + "/" + t.ID, Retry: true, StorageState: t.StorageState,
			Run: func(ctx context.Context, env *Env) (report.Run, error) { return runTask(ctx, env, t) },
		}
	}
	return jobs
}

// Run runs the jobs and returns the report. When ctx is cancelled the runs
// in progress end as CANCELED, the jobs not started are listed in NotRun
// and the report is marked Partial; Run returns once every browser, site
// and model server it started is gone.
func (r *Runner) Run(ctx context.Context, jobs []Job) *Report {
	rep := &report.Report{
		Version: report.Version, Started: time.Now(), Model: r.cfg.ModelName, Judge: r.cfg.JudgeName,
		Workers: r.cfg.Workers, Planned: len(jobs), Runs: []report.Run{},
	}
	budget := &budget{max: r.cfg.MaxCost}
	results := make([]*report.Run, len(jobs))
	queue := make(chan int, len(jobs))
	for i := range jobs {
		queue <- i
	}
	close(queue)
	var wg sync.WaitGroup
	var mu sync.Mutex // serializes Progress
	for w := range min(r.cfg.Workers, max(len(jobs), 1)) {
		wg.Go(func() {
			wk := &worker{id: w}
			defer wk.close(ctx)
			for i := range queue {
				if ctx.Err() != nil || budget.spent() {
					continue
				}
				if r.cfg.Progress != nil {
					mu.Lock()
					r.cfg.Progress.Begin(jobs[i].Key)
					mu.Unlock()
				}
				more := func() bool { return len(queue) > 0 }
				run := r.runJob(ctx, wk, jobs[i], more)
				results[i] = &run
				budget.add(run)
				if r.cfg.Progress != nil {
					mu.Lock()
					r.cfg.Progress.Done(run)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for i, res := range results {
		if res == nil {
			rep.NotRun = append(rep.NotRun, jobs[i].Key)
			continue
		}
		rep.Runs = append(rep.Runs, *res)
	}
	rep.Partial = len(rep.NotRun) > 0 || ctx.Err() != nil
	if budget.spent() && len(rep.NotRun) > 0 {
		rep.Stopped = fmt.Sprintf("the eval's cost, $%.4f, reached its budget of $%.4f (--max-eval-cost): %d of %d runs were not started",
			budget.total(), budget.max, len(rep.NotRun), len(jobs))
	}
	rep.Finished = time.Now()
	rep.DurationMS = rep.Finished.Sub(rep.Started).Milliseconds()
	return rep
}

// runJob makes one or two attempts at a job, each with a browser of its
// own.
func (r *Runner) runJob(ctx context.Context, wk *worker, job Job, more func() bool) report.Run {
	var run report.Run
	for attempt := 1; ; attempt++ {
		var err error
		run, err = r.attempt(ctx, wk, wk.id+attempt-1, job, more)
		run.Attempts = attempt
		dead := errors.Is(err, browser.ErrCrashed) || errors.Is(err, browser.ErrDisconnected)
		if !dead || !job.Retry || attempt == 2 || ctx.Err() != nil {
			return run
		}
		r.cfg.Logger.Warn("the browser died; retrying the task once with a new one", "task", job.Key, "browser", run.Browser, "error", err)
	}
}

func (r *Runner) attempt(ctx context.Context, wk *worker, slot int, job Job, more func() bool) (report.Run, error) {
	start := time.Now()
	fail := func(code, msg string) report.Run {
		return report.Run{Suite: job.Suite, ID: job.ID, Kind: "task", Code: code, Message: msg,
			DurationMS: time.Since(start).Milliseconds(), Checks: []suite.CheckResult{}, Steps: []report.Step{}}
	}
	opts := r.cfg.Browser
	opts.CDPURL = ""
	name := "local"
	lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	switch {
	case len(r.cfg.CDPURLs) > 0:
		opts.CDPURL = r.cfg.CDPURLs[slot%len(r.cfg.CDPURLs)]
		name = opts.CDPURL
		opts.Isolated = true
	case !r.cfg.LaunchPerRun:
		if wk.chrome != nil && !wk.chrome.Alive() {
			wk.close(ctx)
		}
		if wk.chrome == nil {
			c, err := browser.StartServer(lctx, opts)
			if err != nil {
				if ctx.Err() != nil {
					return fail(string(agent.CodeCanceled), "canceled while starting the browser"), nil
				}
				return fail(report.CodeHarnessError, "starting Chromium: "+err.Error()), nil
			}
			wk.chrome = c
		}
		opts.CDPURL = wk.chrome.URL
		opts.Isolated = true
	}
	t0 := time.Now()
	b := wk.take(opts.CDPURL)
	if job.StorageState != "" {
		// A browser prefetched without the job's state will not do.
		if b != nil {
			wk.closeLater(b)
			b = nil
		}
		opts.StorageState = job.StorageState
	}
	var err error
	if b == nil {
		b, err = browser.Launch(lctx, opts)
	}
	cancel()
	launched := time.Since(t0)
	if err == nil && more() && ctx.Err() == nil {
		wk.prefetch(ctx, opts)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fail(string(agent.CodeCanceled), "canceled while starting the browser"), nil
		}
		run := fail(report.CodeHarnessError, fmt.Sprintf("starting the browser (%s): %v", name, err))
		run.Browser = name
		// A remote browser that cannot be reached counts as dead: the
		// retry goes to the next one in the pool.
		return run, fmt.Errorf("%w: %v", browser.ErrDisconnected, err)
	}
	defer func() {
		r.cfg.Logger.Debug("browser", "task", job.Key, "launch", launched)
		wk.closeLater(b)
	}()
	env := &Env{Browser: b, BrowserName: name, CDPURL: opts.CDPURL, Config: &r.cfg, Shot: shotName(job.Key), Trace: traceName(job.Key)}
	run, err := job.Run(ctx, env)
	run.Browser = name
	if err != nil && wk.chrome != nil && (errors.Is(err, browser.ErrDisconnected) || !wk.chrome.Alive()) {
		// The worker's Chromium is gone or unreachable: the next run
		// gets a new one.
		wk.closeLater(b)
		wk.close(ctx)
	}
	return run, err
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func shotName(key string) string {
	return "shots/" + strings.Trim(unsafeName.ReplaceAllString(key, "_"), "_") + ".png"
}

// budget adds up what the eval's finished runs cost (Config.MaxCost).
type budget struct {
	max float64
	mu  sync.Mutex
	usd float64
}

func (b *budget) add(run report.Run) {
	usd, _ := run.Spent()
	b.mu.Lock()
	b.usd += usd
	b.mu.Unlock()
}

func (b *budget) total() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.usd
}

// spent reports whether the budget is used up.
func (b *budget) spent() bool { return b.max > 0 && b.total() >= b.max }
