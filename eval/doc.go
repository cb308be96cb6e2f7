// Package eval benchmarks webagent on task suites: it runs tasks in
// parallel workers, each in a fresh browser context with its own site and
// model server, checks the outcome (answer, URL, page, the site's
// server-side state) and writes reports (package eval/report).
//
// Without a model it uses the reference model (eval/suite), an
// OpenAI-compatible server on loopback that follows each task's reference
// solution, so the whole stack is exercised offline. It also runs the fault
// suite (Faults), MiniWoB++ tasks from a user's checkout, and the
// built-in demo (StartDemo).
package eval
