package eval

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/internal/eval/report"
	"github.com/webagent/webagent/internal/eval/sites"
	"github.com/webagent/webagent/internal/eval/suite"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/modelserver"
)

// ReferenceModel is the model name reported for the bundled reference
// model.
const ReferenceModel = "reference"

// Config configures a Runner.
type Config struct {
	// Workers is how many runs go on at once; 0 means DefaultWorkers().
	Workers int
	// Model is the model measured. nil uses the bundled reference model:
	// for each task a [modelserver.Server] on 127.0.0.1 that plays the
	// task's reference solution, reached over HTTP by an llm client.
	Model agent.Model
	// ModelName is reported; "reference" when Model is nil.
	ModelName string
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
	// Progress is told about runs as they start and end; nil tells no
	// one.
	Progress Progress
	// Logger receives the harness's diagnostics; nil logs nothing.
	Logger *slog.Logger
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
		Version: report.Version, Started: time.Now(), Model: r.cfg.ModelName,
		Workers: r.cfg.Workers, Planned: len(jobs), Runs: []report.Run{},
	}
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
			defer wk.close()
			for i := range queue {
				if ctx.Err() != nil {
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
	rep.Finished = time.Now()
	rep.DurationMS = rep.Finished.Sub(rep.Started).Milliseconds()
	return rep
}

// worker is one worker's browsers: its local Chromium, started on first
// use; the tab for its next run, opened while the current run goes on;
// and the tabs being closed in the background.
type worker struct {
	id     int
	chrome *browser.Server
	spare  chan spareTab
	bg     sync.WaitGroup
}

type spareTab struct {
	b   *browser.Browser
	err error
	cdp string
}

// prefetch opens the tab for the next run in the background.
func (w *worker) prefetch(ctx context.Context, opts browser.Options) {
	ch := make(chan spareTab, 1)
	w.spare = ch
	go func() {
		lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		b, err := browser.Launch(lctx, opts)
		ch <- spareTab{b, err, opts.CDPURL}
	}()
}

// take returns the prefetched tab if it is in the browser at cdp.
func (w *worker) take(cdp string) *browser.Browser {
	if w.spare == nil {
		return nil
	}
	s := <-w.spare
	w.spare = nil
	if s.err == nil && s.cdp == cdp {
		return s.b
	}
	if s.b != nil {
		w.closeLater(s.b)
	}
	return nil
}

func (w *worker) closeLater(b *browser.Browser) { w.bg.Go(func() { _ = b.Close() }) }

// close closes every tab and the worker's Chromium, and waits for them.
func (w *worker) close() {
	if b := w.take(""); b != nil {
		_ = b.Close()
	}
	w.bg.Wait()
	if w.chrome != nil {
		w.chrome.Close()
		w.chrome = nil
	}
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
			wk.close()
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
		wk.close()
	}
	return run, err
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func shotName(key string) string {
	return "shots/" + strings.Trim(unsafeName.ReplaceAllString(key, "_"), "_") + ".png"
}

// runTask runs one suite task: its site on 127.0.0.1, its model, the agent,
// then the checks and a final screenshot.
func runTask(ctx context.Context, env *Env, t *suite.Task) (report.Run, error) {
	start := time.Now()
	cfg := env.Config
	run := report.Run{ID: t.ID, Suite: t.Suite, Kind: "task", Checks: []suite.CheckResult{}, Steps: []report.Step{}}
	harnessFail := func(err error) (report.Run, error) {
		run.Code, run.Message = report.CodeHarnessError, err.Error()
		run.DurationMS = time.Since(start).Milliseconds()
		return run, nil
	}

	var siteBase string
	var site interface{ State() map[string]any }
	if t.Site != "" {
		s, err := sites.New(t.Site)
		if err != nil {
			return harnessFail(err)
		}
		srv, err := serveOn(cfg.SiteHost, s)
		if err != nil {
			return harnessFail(err)
		}
		defer srv.Close()
		site, siteBase = s, srv.URL
	}
	model := cfg.Model
	if model == nil {
		m, closeModel, err := referenceModel(suite.ReferencePolicy(t, siteBase))
		if err != nil {
			return harnessFail(err)
		}
		defer closeModel()
		model = m
	}
	opts := append(append([]agent.Option{agent.WithLogger(cfg.Logger)}, cfg.Options...), t.AgentOptions()...)
	tw := startTrace(env, t.Suite+"/"+t.ID, t.AgentTask(siteBase))
	if tw != nil {
		opts = append(opts, agent.WithTracer(tw))
	}
	a, err := agent.New(env.Browser, model, opts...)
	if err != nil {
		endTrace(ctx, env, tw, nil, &run)
		return harnessFail(err)
	}
	res := a.Run(ctx, t.AgentTask(siteBase))
	fillResult(&run, res)
	endTrace(ctx, env, tw, res, &run)
	ran := time.Now()

	if res.Code != agent.CodeCanceled && ctx.Err() == nil {
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		run.Checks = checkSettled(cctx, t, res, env.Browser, site, res.Code == agent.CodeSuccess)
		cancel()
		if res.Code == agent.CodeSuccess {
			run.Success = suite.Passed(run.Checks)
			if !run.Success {
				run.Code = report.CodeChecksFailed
				run.Message = firstFailure(run.Checks)
			}
		}
	}
	checked := time.Now()
	if ctx.Err() == nil {
		run.Screenshot = saveScreenshot(ctx, env)
	}
	run.DurationMS = time.Since(start).Milliseconds()
	cfg.Logger.Debug("task timing", "task", t.ID, "setup_and_agent", ran.Sub(start), "checks", checked.Sub(ran),
		"screenshot", time.Since(checked))
	return run, brokenBrowser(res.Err)
}

// checkSettle is how long the checks of a task the agent finished may take
// to pass: a page reports to its server, or updates itself, a moment after
// the last action, and on a loaded machine that moment can be long.
const checkSettle = 2 * time.Second

// checkSettled runs the task's checks; when settle is set and some fail,
// it runs them again, every 200ms, for up to checkSettle.
func checkSettled(ctx context.Context, t *suite.Task, res *agent.Result, b *browser.Browser, site interface{ State() map[string]any }, settle bool) []suite.CheckResult {
	deadline := time.Now().Add(checkSettle)
	for {
		in := suite.CheckInput{Answer: res.Answer, Page: newPage(ctx, b, res)}
		if site != nil {
			in.State = site.State()
		}
		results := t.Check(ctx, in)
		if !settle || suite.Passed(results) || time.Now().After(deadline) {
			return results
		}
		select {
		case <-ctx.Done():
			return results
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// fillResult copies the agent's result into run.
func fillResult(run *report.Run, res *agent.Result) {
	run.Code, run.AgentCode = string(res.Code), string(res.Code)
	run.Success = res.Code == agent.CodeSuccess
	run.Message, run.Answer = res.Message, res.Answer
	run.Iterations, run.Tokens = res.Iterations, res.Usage
	run.Steps = report.Steps(res.Steps)
}

func firstFailure(cs []suite.CheckResult) string {
	for _, c := range cs {
		if !c.Pass {
			return fmt.Sprintf("check %s (line %d) failed: %s", c.Check, c.Line, c.Message)
		}
	}
	return "no checks"
}

// brokenBrowser returns err when it says the browser died.
func brokenBrowser(err error) error {
	if errors.Is(err, browser.ErrCrashed) || errors.Is(err, browser.ErrDisconnected) {
		return err
	}
	return nil
}

// referenceModel starts a [modelserver.Server] answering with p and returns
// an llm client for it, and a func that stops both.
func referenceModel(p modelserver.Responder) (agent.Model, func(), error) {
	srv, err := modelserver.Start(p)
	if err != nil {
		return nil, nil, err
	}
	client, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: ReferenceModel, Inactivity: 30 * time.Second})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return client, func() {
		client.CloseIdleConnections()
		srv.Close()
	}, nil
}

// loopback is an HTTP server on a free port, of 127.0.0.1 by default.
type loopback struct {
	URL string
	srv *http.Server
	ln  net.Listener
}

// serveOn serves h on a free port of host ("" is 127.0.0.1).
func serveOn(host string, h http.Handler) (*loopback, error) {
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", host, err)
	}
	l := &loopback{URL: "http://" + ln.Addr().String(), srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}, ln: ln}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// Close stops the server and every connection, hanging handlers included
// (their request contexts end).
func (l *loopback) Close() { _ = l.srv.Close() }

// checkPage adapts the browser to suite.Page.
type checkPage struct {
	b   *browser.Browser
	url string
}

func newPage(ctx context.Context, b *browser.Browser, res *agent.Result) *checkPage {
	p := &checkPage{b: b}
	for i := len(res.Steps) - 1; i >= 0 && p.url == ""; i-- {
		p.url = res.Steps[i].URL
	}
	if v, err := p.Eval(ctx, "location.href"); err == nil {
		if s, ok := v.(string); ok && s != "" {
			p.url = s
		}
	}
	return p
}

func (p *checkPage) URL() string { return p.url }

func (p *checkPage) Eval(ctx context.Context, js string) (any, error) { return evalJS(ctx, p.b, js) }

// evalJS evaluates a JavaScript expression in the browser's page.
func evalJS(ctx context.Context, b *browser.Browser, js string) (any, error) {
	return b.Eval(ctx, js)
}

// saveScreenshot saves the page as env.Shot under the output directory
// and returns its name, or "" when none was taken.
func saveScreenshot(ctx context.Context, env *Env) string {
	if env.Config.OutDir == "" || env.Shot == "" {
		return ""
	}
	sc, ok := any(env.Browser).(agent.Screenshotter)
	if !ok {
		return ""
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	png, err := sc.Screenshot(sctx)
	if err != nil {
		env.Config.Logger.Debug("final screenshot", "error", err)
		return ""
	}
	path := filepath.Join(env.Config.OutDir, filepath.FromSlash(env.Shot))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return ""
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return ""
	}
	return env.Shot
}
