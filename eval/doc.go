// Package eval benchmarks webagent on task suites: it runs tasks in
// parallel workers, each in a fresh browser context with its own site and
// model server, checks the outcome (answer, URL, page, the site's
// server-side state) and writes reports ([Report]).
//
// A [Runner] ([NewRunner]) runs jobs ([Job]), made by [TaskJobs],
// [FaultJobs], [MiniWoB.Jobs] or [DatasetJobs] (and tried several times
// with [Repeat]), and returns their [Report].
//
// A dataset's tasks (WebVoyager, Online-Mind2Web: [LoadDataset]) have no
// checks: a [Judge] (package judge's WebJudge) decides each run from its
// trace, and [JudgeReport] judges a finished eval again. [Config.Prices]
// prices every run and [Config.MaxCost] is the eval's budget.
//
// Without a model it uses the reference model, an OpenAI-compatible server
// on loopback that follows each task's reference solution, so the whole
// stack is exercised offline. It also runs the fault suite ([Faults]),
// MiniWoB++ tasks from a user's checkout, and the built-in demo
// ([StartDemo]).
//
// Eval is the harness behind `webagent eval`; its API follows the
// command's needs. The task loader, the report writer and the built-in
// sites live under internal/; the types of theirs that this API uses are
// aliased here ([Report], [Run], [Task], ...).
package eval
