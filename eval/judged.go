package eval

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval/dataset"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/judge"
	"github.com/webagent/webagent/price"
)

// Runs of a dataset's tasks, which have no checks: the agent plays the
// task on its live site, then a judge (Config.Judge) decides from the
// run's trace whether it was done.

// Judge decides a run without checks from its trajectory; package
// judge's *Judge is one. It must return within its own bound, and never
// fail: a verdict it cannot reach is judge.Unscored.
type Judge interface {
	Judge(ctx context.Context, t judge.Trajectory) judge.Verdict
}

// DatasetJobs returns a job for each task of a dataset (package
// eval/dataset, aliased as DatasetTask).
func DatasetJobs(tasks []DatasetTask) []Job {
	jobs := make([]Job, len(tasks))
	for i, t := range tasks {
		jobs[i] = Job{
			Suite: t.Dataset, ID: t.ID, Key: t.Dataset + "/" + t.ID, Retry: true,
			Run: func(ctx context.Context, env *Env) (report.Run, error) { return runJudged(ctx, env, t) },
		}
	}
	return jobs
}

// Repeat returns each job k times, as tries 1 to k (Run.Repeat): all the
// first tries, then all the second ones, so that an eval stopped early
// has tried every task as often as it could. k <= 1 returns jobs as
// they are.
func Repeat(jobs []Job, k int) []Job {
	if k <= 1 {
		return jobs
	}
	out := make([]Job, 0, len(jobs)*k)
	for try := 1; try <= k; try++ {
		for _, j := range jobs {
			inner := j.Run
			j.Key = fmt.Sprintf("%s@%d", j.Key, try)
			j.Run = func(ctx context.Context, env *Env) (report.Run, error) {
				run, err := inner(ctx, env)
				run.Repeat = try
				return run, err
			}
			out = append(out, j)
		}
	}
	return out
}

// runJudged runs one dataset task: the agent from the task's URL, its
// trace, then the judge on the trace.
func runJudged(ctx context.Context, env *Env, t DatasetTask) (report.Run, error) {
	start := time.Now()
	cfg := env.Config
	run := report.Run{ID: t.ID, Suite: t.Dataset, Kind: report.KindDataset, URL: t.URL, Site: t.Site, Level: t.Level,
		HumanLabel: t.HumanLabel, Checks: []CheckResult{}, Steps: []report.Step{}}
	if t.Rubric != nil {
		run.Rubric = &report.Rubric{Text: t.Rubric.Text, Weights: t.Rubric.Weights, Canary: t.Rubric.Canary}
	}
	if cfg.Model == nil {
		run.Code, run.Message = report.CodeHarnessError, "a dataset's task needs a model to measure: the reference model plays only tasks with a reference solution"
		return run, nil
	}
	task := agent.Task{URL: t.URL, Instruction: t.Instruction}
	opts := append([]agent.Option{agent.WithLogger(cfg.Logger)}, cfg.Options...)
	tw := startTrace(env, t.Dataset+"/"+t.ID, task)
	if tw != nil {
		opts = append(opts, agent.WithTracer(tw))
	}
	a, err := agent.New(env.Browser, cfg.Model, opts...)
	if err != nil {
		endTrace(ctx, env, tw, nil, &run)
		run.Code, run.Message = report.CodeHarnessError, err.Error()
		return run, nil
	}
	res := a.Run(ctx, task)
	fillResult(&run, res)
	endTrace(ctx, env, tw, res, &run)
	run.CostUSD = costOf(cfg.Prices, cfg.ModelName, run.Tokens)
	run.Input = inputCostOf(cfg.Prices, cfg.ModelName, run.Tokens)
	if ctx.Err() == nil {
		run.Screenshot = saveScreenshot(ctx, env)
	}
	run.DurationMS = time.Since(start).Milliseconds()
	if res.Code != agent.CodeCanceled && ctx.Err() == nil {
		judgeRun(ctx, cfg.Judge, cfg.OutDir, &run)
	}
	return run, brokenBrowser(res.Err)
}

// judgeRun asks the judge about a run from its trace and applies the
// verdict. Without a judge, or a trace, the run is unscored, saying why.
func judgeRun(ctx context.Context, j Judge, outDir string, run *report.Run) {
	var v judge.Verdict
	switch {
	case j == nil:
		v = judge.Verdict{Outcome: judge.Unscored, Why: "not judged: no judge was given (--judge-model); judge later with webagent eval judge DIR"}
	case run.Trace == "" || outDir == "":
		v = judge.Verdict{Outcome: judge.Unscored, Why: "not judged: the run has no trace to judge from (traces are off)"}
	default:
		tr, err := judge.FromTrace(filepath.Join(outDir, filepath.FromSlash(run.Trace)))
		if err != nil {
			v = judge.Verdict{Outcome: judge.Unscored, Why: "not judged: " + err.Error()}
			break
		}
		run.Blocked = 0
		for _, s := range tr.Steps {
			run.Blocked += len(s.Blocked)
		}
		if run.Rubric != nil {
			tr.Rubric = &judge.Rubric{Text: run.Rubric.Text, Items: run.Rubric.Items()}
		}
		v = j.Judge(ctx, tr)
		scoreRubric(run, &v, tr)
	}
	applyVerdict(run, v)
}

// scoreRubric scores a rubric run from its findings with the weights the
// judge never saw; a canary in the agent's output or suspected reward
// hacking scores zero (and fails the run). An unscored verdict leaves no
// score.
func scoreRubric(run *report.Run, v *judge.Verdict, tr judge.Trajectory) {
	run.Score, run.Zeroed = nil, ""
	if run.Rubric == nil || !v.Scored() {
		return
	}
	score := judge.Score(v.Findings, run.Rubric.Weights)
	output := tr.Answer + "\n" + run.Answer
	for _, s := range tr.Steps {
		output += "\n" + strings.Join(s.Actions, "\n")
	}
	switch {
	case run.Rubric.Canary != "" && strings.Contains(output, run.Rubric.Canary):
		score, run.Zeroed = 0, "the task's canary string shows in the agent's output"
	case v.Flags != nil && v.Flags.RewardHacking:
		score, run.Zeroed = 0, "the judge suspects reward hacking"
	}
	if run.Zeroed != "" {
		v.Outcome = judge.Failure
	}
	run.Score = &score
}

// applyVerdict sets a run's outcome from its verdict: success as the
// judge says (whatever the agent claimed), JUDGED_FAILURE when the agent
// called done but the judge disagrees, UNSCORED without a verdict.
func applyVerdict(run *report.Run, v judge.Verdict) {
	run.Judge = &v
	code := run.AgentCode
	if code == "" {
		code = run.Code
	}
	if run.AgentMessage == "" {
		run.AgentMessage = run.Message
	}
	note := ""
	switch v.Outcome {
	case judge.Success:
		run.Success, run.Code = true, string(agent.CodeSuccess)
		note = "judged a success: " + v.Reasons
	case judge.Failure:
		run.Success, run.Code = false, code
		if code == string(agent.CodeSuccess) {
			run.Code = report.CodeJudgedFailure
		}
		note = "judged a failure: " + v.Reasons
	default:
		run.Success, run.Code = false, report.CodeUnscored
		note = "unscored: " + v.Why
	}
	run.Message = note
	if code != string(agent.CodeSuccess) && run.AgentMessage != "" {
		// What ended the agent's run stays in view.
		run.Message = code + ": " + run.AgentMessage + "; " + note
	}
}

// costOf is what usage cost with model, or nil when it has no price.
func costOf(prices *price.Table, model string, usage contract.Usage) *float64 {
	if prices == nil {
		return nil
	}
	if c, ok := prices.Cost(model, usage); ok {
		return &c
	}
	return nil
}

// inputCostOf is what usage's prompt tokens cost at model's input and
// cached input prices (report.InputCost), or nil when it has no price.
func inputCostOf(prices *price.Table, model string, usage contract.Usage) *report.InputCost {
	p, ok := prices.Lookup(model)
	if !ok {
		return nil
	}
	return report.NewInputCost(usage, p.Input, p.CachedInput)
}

// JudgeReport judges again, from their traces under dir, the runs of a
// finished eval that have no checks, workers at a time, and returns the
// report with the new verdicts (the runs' outcomes changed to match).
// Runs that never ran (a harness error, a cancel) are left as they are.
// progress, when not nil, is told about each run judged.
func JudgeReport(ctx context.Context, dir string, rep *Report, j Judge, judgeName string, workers int, progress Progress) *Report {
	workers = max(1, workers)
	var idx []int
	for i, run := range rep.Runs {
		if run.Kind == report.KindDataset && run.Code != report.CodeHarnessError && run.AgentCode != string(agent.CodeCanceled) {
			idx = append(idx, i)
		}
	}
	queue := make(chan int, len(idx))
	for _, i := range idx {
		queue <- i
	}
	close(queue)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range min(workers, max(1, len(idx))) {
		wg.Go(func() {
			for i := range queue {
				if ctx.Err() != nil {
					continue
				}
				run := rep.Runs[i]
				if progress != nil {
					mu.Lock()
					progress.Begin(run.Key())
					mu.Unlock()
				}
				judgeRun(ctx, j, dir, &run)
				mu.Lock()
				rep.Runs[i] = run
				if progress != nil {
					progress.Done(run)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	rep.Judge = judgeName
	return rep
}

// LoadDataset reads a dataset file (see package eval/dataset):
// kind is "webvoyager" or "online-mind2web".
func LoadDataset(kind, path string) ([]DatasetTask, error) { return dataset.Load(kind, path) }

// SelectDataset keeps the tasks of the filter's sites and levels; a site
// or level no task has is an error naming those there are.
func SelectDataset(tasks []DatasetTask, f DatasetFilter) ([]DatasetTask, error) {
	return dataset.Select(tasks, f)
}

// SampleDataset returns n tasks chosen with seed, in their order in the
// set (all of them when n is 0 or at least their number).
func SampleDataset(tasks []DatasetTask, n int, seed uint64) []DatasetTask {
	return dataset.Sample(tasks, n, seed)
}

// DatasetNames are the datasets LoadDataset reads.
func DatasetNames() []string { return dataset.Names() }
