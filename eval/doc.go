// Package eval benchmarks webagent on task suites: it runs tasks in
// parallel workers, each in a fresh browser context with its own site and
// model server, checks the outcome (answer, URL, page, the site's
// server-side state) and writes reports ([Report]).
//
// A [Runner] ([NewRunner]) runs jobs ([Job]), made by [TaskJobs],
// [FaultJobs] or [MiniWoB.Jobs], and returns their [Report].
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
