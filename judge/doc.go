// Package judge decides whether a web agent did its task when no check
// can: the WebJudge method of Online-Mind2Web (Xue et al., 2025) with any
// OpenAI-compatible model.
//
// A [Judge] ([New]) reads a [Trajectory] (the task, the factual history of
// the agent's actions, each step's screenshot or page text, the requests
// --read-only stopped) in three steps:
//
//  1. key points: the model lists what the task explicitly requires;
//  2. key steps: each step's screenshot (with [Config.Vision]) or page
//     text is scored 1 to 5 for how much it shows of what the task needs;
//     those scoring at least [Config.Threshold] are chosen (at most
//     [Config.MaxShots]);
//  3. verdict: from the key points, the action history and the chosen
//     steps, the model ends its answer with "Status: success" or
//     "Status: failure".
//
// The agent's own final answer is shown as what it is, a claim to check
// against the evidence, never as evidence. The [Verdict] keeps the key
// points, every step's score and reason, which were chosen, the verdict
// and its reasons, the calls' tokens and time.
//
// A judge that fails (an error from the model, a reply without a
// verdict) or runs past [Config.Timeout] leaves the trajectory
// [Unscored], saying why: a broken judge never fails a task. The bound
// is the judge's own: [Judge.Judge] returns within it even when the
// model never answers.
//
// [FromTrace] makes a Trajectory of a trace written by package trace
// (webagent run --trace, or each run of webagent eval), whose text is
// already masked: no secret reaches the judge.
package judge
