package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/webagent/webagent/eval"
	"github.com/webagent/webagent/eval/report"
)

// evalJudgeOpts are the flags of eval judge.
type evalJudgeOpts struct {
	judge    judgeFlags
	model    modelFlags // the endpoint and key the judge shares by default
	prices   string
	workers  int
	logLevel string
	json     bool
}

// evalJudgeFlags is the flag set of eval judge.
func evalJudgeFlags() (*flag.FlagSet, *evalJudgeOpts) {
	o := &evalJudgeOpts{}
	fs := flag.NewFlagSet("eval judge", flag.ContinueOnError)
	o.judge.register(fs)
	fs.StringVar(&o.model.baseURL, "base-url", "", "the endpoint the judge uses unless --judge-base-url is given (default $OPENAI_BASE_URL)")
	fs.StringVar(&o.model.apiKey, "api-key", "", "the key for --base-url (default $OPENAI_API_KEY)")
	fs.StringVar(&o.prices, "prices", "", "a price file whose rows add to or override the built-in table (for the judge's cost)")
	fs.IntVar(&o.workers, "workers", eval.DefaultWorkers(), "runs judged at once")
	fs.StringVar(&o.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn, error or disabled")
	fs.BoolVar(&o.json, "json", false, "print the new report.json on stdout")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: webagent eval judge --judge-model MODEL [flags] DIR

Judges again, from their traces, the runs of the eval in DIR that have no
checks (a dataset's), without running the agent, and rewrites DIR's
report.json, report.md and report.html with the new verdicts. Exit status:
0 when every run passed, 1 otherwise, 2 usage.

Flags:
`)
		printFlags(fs)
	}
	return fs, o
}

// cmdEvalJudge judges a finished eval again from its traces, without
// running the agent, and rewrites its reports.
func cmdEvalJudge(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs, o := evalJudgeFlags()
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return exitUsage, err
	}
	dir, rep, err := o.validate(pos)
	if err != nil {
		return exitUsage, err
	}
	c := common{logLevel: o.logLevel}
	log := c.logger(stderr)
	of := openWebFlags{judge: o.judge, prices: o.prices}
	if err := of.loadPrices(); err != nil {
		return exitUsage, err
	}
	jd, client, err := of.newJudge(ctx, o.model.config(log), log)
	if err != nil {
		return startExit(ctx), err
	}
	defer client.CloseIdleConnections()
	bar := eval.NewBar(stderr, judgeable(rep), isTerminal(stderr))
	fmt.Fprintf(stderr, "eval judge: %d runs to judge with %s, writing %s\n", judgeable(rep), o.judge.model, dir)
	rep = eval.JudgeReport(ctx, dir, rep, jd, o.judge.model, o.workers, bar)
	bar.Finish()
	exportDatasets(rep, dir, stderr)
	if err := rep.WriteAll(dir); err != nil {
		return exitFailed, fmt.Errorf("writing the report: %w", err)
	}
	if o.json {
		data, _ := os.ReadFile(filepath.Join(dir, "report.json"))
		_, _ = stdout.Write(data)
	}
	fmt.Fprintln(stderr, report.Headline(rep.Summarize()))
	switch {
	case ctx.Err() != nil:
		return exitInterrupted, nil
	case rep.Passed() == len(rep.Runs) && len(rep.Runs) > 0:
		return exitOK, nil
	}
	return exitFailed, nil
}

// validate checks the flags and reads DIR's report.
func (o *evalJudgeOpts) validate(pos []string) (string, *eval.Report, error) {
	switch {
	case o.judge.model == "":
		return "", nil, usagef("eval judge needs --judge-model: the model that judges, e.g. --judge-model o4-mini")
	case len(pos) != 1:
		return "", nil, usagef("eval judge takes the folder of one eval: webagent eval judge --judge-model MODEL DIR")
	case o.workers < 1:
		return "", nil, usagef("--workers is %d; it must be at least 1", o.workers)
	case o.judge.timeout <= 0:
		return "", nil, usagef("--judge-timeout is %s; give a positive duration such as 5m", o.judge.timeout)
	}
	c := common{logLevel: o.logLevel}
	if err := c.validateLogLevel(); err != nil {
		return "", nil, err
	}
	dir := pos[0]
	rep, err := report.Load(filepath.Join(dir, "report.json"))
	if err != nil {
		return "", nil, usagef("%v (eval judge takes the folder an eval wrote, with its report.json and traces/)", err)
	}
	if judgeable(rep) == 0 {
		return "", nil, usagef("%s: no run to judge: only the runs of a dataset's tasks (webagent eval --dataset) have no checks and can be judged", dir)
	}
	return dir, rep, nil
}

// judgeable counts the runs eval judge would judge.
func judgeable(rep *eval.Report) int {
	n := 0
	for _, r := range rep.Runs {
		if r.Kind == report.KindDataset && r.Code != report.CodeHarnessError && r.AgentCode != "CANCELED" {
			n++
		}
	}
	return n
}
