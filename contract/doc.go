// Package contract is what the agent loop says to its browser and to its
// model: the types both sides speak and the rules they share, in one small
// package that imports nothing of webagent's, as database/sql/driver is for
// database/sql.
//
// The loop (package agent) consumes two interfaces, [Browser] and [Model].
// Package browser implements Browser with Chromium, package llm implements
// Model over any OpenAI-compatible endpoint; both import only this package,
// so neither depends on the loop, and an embedder can supply either.
//
// The page side:
//
//   - [Action] is one action the model asked for, and [Action.Validate] the
//     rules of its fields, checked by the loop's parser of model calls and
//     again by a Browser before it acts;
//   - [Outcome] is what an action did, [Snapshot] the page as the model
//     sees it, [ActionError] a failure the model can correct;
//   - [NavigationPolicy] says where the browser may go ([Confiner]);
//   - [PageStater], [Screenshotter] and [Recoverer] are what a browser may
//     offer besides; [ConsoleEntry] and [NetEntry] are what it recorded for a
//     trace ([Activity]).
//
// The model side: [Request], [Message], [ToolCall], [ToolDef], [Reply] and
// [Usage].
//
// Package agent keeps aliases of these names (agent.Action is
// contract.Action), so code written against agent keeps compiling.
package contract
