// Package modelserver is a scripted OpenAI-compatible model: a small
// chat-completions server on the loopback interface whose replies a
// [Responder] decides. It streams them exactly as OpenAI does (server-sent
// events with tool-call fragments, a usage chunk and [DONE]) and injects the
// faults a real provider produces: rate limits, server errors, refused keys,
// connection resets, malformed chunks, streams that stall before or after
// the headers, and streams that drip forever.
//
// It has two uses.
//
// It is the server behind the eval harness's reference model: `webagent
// eval` without a model, and `webagent demo`, start one per task with a
// Responder that plays the task's reference solution, and the agent talks
// to it over HTTP through package llm like any other model. That is why it
// is a product package that does not depend on package testing.
//
// It is also a helper for an embedder's own tests, as net/http/httptest is
// for HTTP clients: start a server, script the model's turns, inject the
// faults you want your code to survive, and point the BaseURL of package
// llm's Config at [Server.BaseURL]:
//
//	srv, err := modelserver.Start(modelserver.Script(
//		modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]string{"ref": "e3"})}},
//		modelserver.Turn{Fault: modelserver.RateLimited, RetryAfter: time.Second},
//		modelserver.Turn{Text: "done"},
//	))
//	if err != nil { ... }
//	defer srv.Close()
//	model, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), Model: "scripted"})
//
// [Script] replays fixed turns in order; a [ResponderFunc] answers from the
// request it gets ([ChatRequest.LastTool], [FindRef] to find an element's
// ref in the page snapshot the agent sent). Every chat request is recorded
// ([Server.Requests], [Server.WaitRequest]) so a test can check what the
// client sent and whether it went away when it should have. Example shows
// it all end to end.
//
// It also serves the Anthropic Messages API (POST /v1/messages, streamed;
// package llm/anthropic's BaseURL is [Server.BaseURL]): the same Responder
// answers it, the request read into a [ChatRequest], and for a request
// that declares Claude's browser use toolset the Turn's calls of
// webagent's click, type, select, press, scroll, goto and back are sent as
// that toolset's members, by ref ([ToolsetBrowser]). Faults there are
// answered as Messages API errors. `webagent eval --api anthropic --tools
// browser` plays the built-in suites this way; OpenAI's Responses API
// (POST /v1/responses, streamed, stateless) is served the same way, for
// `webagent eval --api responses`.
//
// For a model that answers in coordinates ([ToolsetComputer]: Claude's
// computer use toolset, OpenAI's computer tool; or chat completions whose
// observations carry the in-view line of vision marks) the calls by ref
// are sent as gestures at the points the latest observation gives for the
// refs: computer members, one computer_call of actions, or UI-TARS text
// actions.
package modelserver
