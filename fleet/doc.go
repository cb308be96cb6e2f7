// Package fleet runs webagent tasks and eval episodes on Temporal workers,
// past one machine.
//
// A task is a workflow ([TaskWorkflow]); its whole run, browser and all, is
// one activity on whichever worker takes it from the shared task queue, so
// the browser lives on that worker alone. The activity heartbeats while it
// runs and at each iteration: a worker that dies misses its heartbeats and
// the run starts again on another worker with a fresh browser, up to the
// restarts the submitter allows. What must later reach the machine that
// holds the browser (a person's answer to ask_human, a cancel) goes to that
// worker's own task queue (Temporal's worker-specific queue pattern), which
// the run names when it starts.
//
// An eval episode is a workflow too ([EpisodeWorkflow]) whose id is made
// from the eval, the task and the attempt: an eval started again with the
// same arguments finds the episodes that finished and runs only the rest
// ([RunEval]).
//
// Workflow history holds inputs and results. Neither ever carries a model
// key or a secret value: a task names its secrets and the worker resolves
// them from its own configuration; results are masked as [agent.Result]s
// always are.
//
// A worker with a live view server (WorkerConfig.Live) gives every task
// run a live view (package liveview): a person watches the run, answers
// its questions and takes it over. The view's URLs carry its tokens and
// never enter Temporal in the clear: the submitter sends a public key with
// the task ([NewLiveKey], Task.LiveKey), the worker seals the URLs to it,
// and only the submitter reads them ([Client.Live]).
//
// The parts:
//   - [Worker]: a process's worker, its browsers and its model (worker.go).
//   - [TaskWorkflow], [EpisodeWorkflow]: the workflows (workflow.go).
//   - the activities that run on workers (activities.go).
//   - [Client]: submit, status, cancel, answer (client.go).
//   - the live view of a run, its URLs sealed for the submitter (live.go).
//   - [RunEval]: an eval whose episodes run on the fleet (eval.go).
package fleet
