package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/eval/dataset"
	"github.com/webagent/webagent/judge"
	"github.com/webagent/webagent/llm"
	"github.com/webagent/webagent/price"
)

// openWebFlags are eval's flags for the benchmarks of the open web: a
// dataset and its filters, repeats, the judge, prices and budgets.
type openWebFlags struct {
	dataset       string
	sites, levels listFlag
	sample        int
	sampleSeed    int64
	repeat        int
	judge         judgeFlags
	prices        string
	maxCost       float64
	maxEvalCost   float64

	// Set by validate.
	tasks []eval.DatasetTask
	table *price.Table
}

// judgeFlags choose the judge's model, shared by eval and eval judge.
type judgeFlags struct {
	model, baseURL, apiKey string
	vision                 bool
	timeout                time.Duration
}

func (j *judgeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&j.model, "judge-model", "", "the model that judges runs without checks (a dataset's), WebJudge's way; any OpenAI-compatible model, e.g. o4-mini")
	fs.StringVar(&j.baseURL, "judge-base-url", "", "the judge's OpenAI-compatible endpoint (default the measured model's, --base-url or $OPENAI_BASE_URL)")
	fs.StringVar(&j.apiKey, "judge-api-key", "", "the judge's API key (default $WEBAGENT_JUDGE_API_KEY; the measured model's key only when the judge uses its endpoint)")
	fs.BoolVar(&j.vision, "judge-vision", true, "show the judge each step's screenshot; --judge-vision=false for a judge model that takes no images: it reads each step's page text instead")
	fs.DurationVar(&j.timeout, "judge-timeout", judge.DefaultTimeout, "bound on judging one run, every judge call included; a judge still deciding then leaves the run unscored")
}

func (b *openWebFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.dataset, "dataset", "", "read the task file in a benchmark's published format: "+strings.Join(eval.DatasetNames(), " or ")+"; its tasks have no checks: a judge scores them (--judge-model)")
	fs.Var(&b.sites, "site", "with --dataset, only the tasks of these sites (WebVoyager's web_name, Online-Mind2Web's website host; repeatable, or a comma list)")
	fs.Var(&b.levels, "level", "with --dataset online-mind2web, only the tasks of these levels: easy, medium, hard (repeatable, or a comma list)")
	fs.IntVar(&b.sample, "sample", 0, "with --dataset, run N tasks chosen at random (reproducibly: --sample-seed) from those kept; 0 runs all")
	fs.Int64Var(&b.sampleSeed, "sample-seed", 1, "the seed of --sample (default 1; --seed, the model's sampling seed, also seeds the sample when --sample-seed is not given)")
	fs.IntVar(&b.repeat, "repeat", 1, "run each task this many times; the report adds pass@k and pass^k")
	b.judge.register(fs)
	fs.StringVar(&b.prices, "prices", "", "a price file (YAML: prices: [{model, input, cached_input, output, date, source}], US dollars per million tokens) whose rows add to or override the built-in table")
	fs.Float64Var(&b.maxCost, "max-cost", 0, "end a task whose running cost passes this many US dollars (code COST_LIMIT); needs a price for the model")
	fs.Float64Var(&b.maxEvalCost, "max-eval-cost", 0, "stop starting runs once the eval's runs (their judge included) cost this many US dollars, and report what ran")
}

// validate checks the flags and reads the files they name (the dataset,
// the prices) before anything runs: a problem is a usage error naming the
// file and line. files are eval's positional arguments; o the other flags.
func (b *openWebFlags) validate(fs *flag.FlagSet, o *evalOpts, files []string) error {
	checks := []func() error{
		func() error { return b.validateNumbers() },
		func() error { return b.loadPrices() },
		func() error { return b.validateJudge(o) },
		func() error { return b.loadDataset(fs, o, files) },
	}
	for _, c := range checks {
		if err := c(); err != nil {
			return err
		}
	}
	return nil
}

func (b *openWebFlags) validateNumbers() error {
	switch {
	case b.repeat < 1:
		return usagef("--repeat is %d; it must be at least 1", b.repeat)
	case b.sample < 0:
		return usagef("--sample is %d; give a number of tasks, or 0 for all", b.sample)
	case b.maxCost < 0:
		return usagef("--max-cost is %g; give a positive number of US dollars, e.g. 0.50, or 0 for no limit", b.maxCost)
	case b.maxEvalCost < 0:
		return usagef("--max-eval-cost is %g; give a positive number of US dollars, e.g. 20, or 0 for no limit", b.maxEvalCost)
	case b.judge.timeout <= 0:
		return usagef("--judge-timeout is %s; give a positive duration such as 5m", b.judge.timeout)
	}
	return nil
}

// loadPrices reads the built-in table and --prices.
func (b *openWebFlags) loadPrices() error {
	b.table = price.Default()
	if b.prices == "" {
		return nil
	}
	mine, err := price.Load(b.prices)
	if err != nil {
		return usagef("--prices: %v", err)
	}
	b.table = b.table.Merge(mine)
	return nil
}

func (b *openWebFlags) validateJudge(o *evalOpts) error {
	j := b.judge
	if j.model == "" && (j.baseURL != "" || j.apiKey != "") {
		return usagef("--judge-base-url and --judge-api-key need --judge-model: name the model that judges")
	}
	if j.model != "" && !o.traces {
		return usagef("--judge-model judges each run from its trace: leave out --trace=false")
	}
	if o.fleet.temporal.addr != "" && (j.model != "" || b.dataset != "" || b.maxCost > 0 || b.maxEvalCost > 0 || b.repeat > 1 || o.browser.readOnly) {
		return usagef("--dataset, --judge-model, --repeat, --read-only and the cost limits run here, not on Temporal workers: leave out --temporal")
	}
	if j.model != "" && (o.faults || o.miniwob != "") {
		return usagef("--judge-model judges a dataset's tasks (--dataset); the fault suite and MiniWoB++ have their own checks")
	}
	return nil
}

// loadDataset reads --dataset's file and keeps the tasks of --site,
// --level and --sample.
func (b *openWebFlags) loadDataset(fs *flag.FlagSet, o *evalOpts, files []string) error {
	if b.dataset == "" {
		for _, f := range []string{"site", "level", "sample", "sample-seed"} {
			if flagSet(fs, f) {
				return usagef("--%s chooses among a dataset's tasks: give --dataset NAME FILE too", f)
			}
		}
		return nil
	}
	if !slices.Contains(eval.DatasetNames(), b.dataset) {
		hint := ""
		if near := closest(b.dataset, eval.DatasetNames()); near != "" {
			hint = fmt.Sprintf("; did you mean %q?", near)
		}
		return usagef("--dataset %q is not a dataset webagent reads%s the datasets are %s", b.dataset, hint, strings.Join(eval.DatasetNames(), ", "))
	}
	switch {
	case len(files) != 1:
		return usagef("--dataset %s reads one file: webagent eval --dataset %s FILE (got %d)", b.dataset, b.dataset, len(files))
	case o.faults || o.miniwob != "" || len(o.suites) > 0 || len(o.tasks) > 0:
		return usagef("--dataset runs a dataset's tasks; --faults, --miniwob, --suite and --task are for other runs")
	}
	tasks, err := eval.LoadDataset(b.dataset, files[0])
	var de *dataset.Error
	switch {
	case errors.As(err, &de):
		return usagef("bad dataset file: %v", err)
	case err != nil:
		return usagef("%v", err)
	}
	if tasks, err = eval.SelectDataset(tasks, eval.DatasetFilter{Sites: b.sites, Levels: b.levels}); err != nil {
		return usagef("%v", err)
	}
	seed := b.sampleSeed
	if !flagSet(fs, "sample-seed") && o.seed != nil {
		seed = int64(*o.seed)
	}
	b.tasks = eval.SampleDataset(tasks, b.sample, uint64(seed))
	return nil
}

// datasetJobs returns a job for each of the dataset's tasks kept by validate.
func (b *openWebFlags) datasetJobs() []eval.Job { return eval.DatasetJobs(b.tasks) }

// costFunc is the price of model's usage, or an error saying how to give
// one.
func (b *openWebFlags) costFunc(flagName, model string) (func(contract.Usage) float64, error) {
	p, ok := b.table.Lookup(model)
	if !ok {
		return nil, usagef("%s needs a price for the model %q, and the price table has none; add a row for it with --prices FILE "+
			"(prices: [{model: %s, input: 2.00, output: 8.00}], US dollars per million tokens)", flagName, model, model)
	}
	return p.Cost, nil
}

// newJudge starts the judge's model client (checking that its endpoint
// answers) and returns the judge; nil without --judge-model. agentCfg is
// the measured model's configuration, whose endpoint the judge uses by
// default.
func (b *openWebFlags) newJudge(ctx context.Context, agentCfg llm.Config, log *slog.Logger) (*judge.Judge, *llm.Client, error) {
	j := b.judge
	if j.model == "" {
		return nil, nil, nil
	}
	cfg := llm.Config{Model: j.model, BaseURL: agentCfg.BaseURL, Logger: log, Inactivity: min(llm.DefaultInactivity, j.timeout)}
	switch {
	case j.baseURL != "":
		cfg.BaseURL = j.baseURL
		cfg.APIKey = os.Getenv("WEBAGENT_JUDGE_API_KEY")
	default:
		cfg.APIKey = agentCfg.APIKey
	}
	if j.apiKey != "" {
		cfg.APIKey = j.apiKey
	} else if k := os.Getenv("WEBAGENT_JUDGE_API_KEY"); k != "" {
		cfg.APIKey = k
	}
	if cfg.BaseURL == "" {
		return nil, nil, usagef("--judge-model %s: no endpoint for the judge; pass --judge-base-url (or --base-url, which it shares by default)", j.model)
	}
	client, err := newModel(ctx, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("the judge: %w", err)
	}
	var cost func(contract.Usage) (float64, bool)
	if p, ok := b.table.Lookup(j.model); ok {
		cost = func(u contract.Usage) (float64, bool) { return p.Cost(u), true }
	}
	jd, err := judge.New(judge.Config{Model: client, ModelName: j.model, Vision: j.vision, Timeout: j.timeout, Cost: cost})
	if err != nil {
		client.CloseIdleConnections()
		return nil, nil, usagef("%v", err)
	}
	return jd, client, nil
}

// openWebRun is what the open-web flags add to an eval: agent options
// (the cost limit) and the judge.
type openWebRun struct {
	options []agent.Option
	judge   eval.Judge
}

// openWeb sets up --max-cost, --max-eval-cost and the judge for an eval
// of the model modelName, and returns what releases them.
// A model without a price for a budget is a usage error.
func (o *evalOpts) openWeb(ctx context.Context, log *slog.Logger, modelName string) (openWebRun, func(), error) {
	var run openWebRun
	b := &o.open
	if b.maxCost > 0 {
		cost, err := b.costFunc("--max-cost", modelName)
		if err != nil {
			return run, nil, err
		}
		run.options = append(run.options, agent.WithMaxCost(b.maxCost, cost))
	}
	if b.maxEvalCost > 0 {
		if _, err := b.costFunc("--max-eval-cost", modelName); err != nil {
			return run, nil, err
		}
		if b.judge.model != "" {
			if _, err := b.costFunc("--max-eval-cost (for the judge)", b.judge.model); err != nil {
				return run, nil, err
			}
		}
	}
	jd, client, err := b.newJudge(ctx, o.modelFlags.config(log), log)
	if err != nil {
		return run, nil, err
	}
	if jd == nil {
		return run, func() {}, nil
	}
	run.judge = jd
	return run, client.CloseIdleConnections, nil
}
