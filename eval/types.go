package eval

import (
	"github.com/webagent/webagent/eval/dataset"
	"github.com/webagent/webagent/eval/report"
	"github.com/webagent/webagent/eval/sites"
	"github.com/webagent/webagent/eval/suite"
)

// The types of the harness's API. They are defined in packages under
// internal/ (the report writer, the task loader, the built-in sites); these
// aliases let an embedder name every type that [Runner], [Job], [Progress]
// and [Demo] take or return.

// Report is the result of [Runner.Run]: one entry per run, and the writers
// of report.json, report.md and report.html ([Report.WriteAll]).
type Report = report.Report

// Run is one task run of a [Report]: its outcome, checks, tokens and steps.
type Run = report.Run

// Step summarizes one iteration of a [Run].
type Step = report.Step

// CheckResult is the outcome of one of a task's checks in a [Run].
type CheckResult = suite.CheckResult

// Task is one eval task as loaded from a task file; [TaskJobs] makes a
// [Job] of each.
type Task = suite.Task

// Check is one condition a [Task]'s outcome must meet.
type Check = suite.Check

// Bank is the demo's online-banking site ([Demo.Bank]).
type Bank = sites.Bank

// DatasetTask is one task of an open-web benchmark (WebVoyager,
// Online-Mind2Web) as [LoadDataset] reads it; [DatasetJobs] makes a [Job]
// of each.
type DatasetTask = dataset.Task

// DatasetFilter keeps a dataset's tasks of some sites and levels
// ([SelectDataset]).
type DatasetFilter = dataset.Filter

// Summary is what a [Report]'s runs add up to: rates with 95% intervals,
// pass@k, the judge's agreement with people, the cost.
type Summary = report.Summary

// Codes the harness adds to the agent's codes in [Run.Code].
const (
	// CodeChecksFailed: the agent called done, but a check failed.
	CodeChecksFailed = report.CodeChecksFailed
	// CodeHarnessError: the run could not be set up (site, model server,
	// browser launch).
	CodeHarnessError = report.CodeHarnessError
	// CodeJudgedFailure: the agent called done, but the judge found the
	// task not done.
	CodeJudgedFailure = report.CodeJudgedFailure
	// CodeUnscored: a run without checks that has no verdict (no judge,
	// or one that failed or ran out of time); counted apart, never in a
	// rate.
	CodeUnscored = report.CodeUnscored
)
