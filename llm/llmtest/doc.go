// Package llmtest runs a small OpenAI-compatible chat-completions server on
// the loopback interface. It streams scripted replies exactly as OpenAI does
// (server-sent events with tool-call fragments, a usage chunk and [DONE]) and
// injects the faults a real provider produces: rate limits, server errors,
// refused keys, connection resets, malformed chunks, streams that stall
// before or after the headers, and streams that drip forever.
//
// It is used by the tests of package llm and by the command's offline demo,
// so it does not depend on package testing.
//
// A Responder decides each reply; Script replays fixed turns in order:
//
//	srv, err := llmtest.Start(llmtest.Script(
//		llmtest.Turn{ToolCalls: []llmtest.Call{llmtest.ToolCall("click", map[string]string{"ref": "e3"})}},
//		llmtest.Turn{Text: "done"},
//	))
//	if err != nil { ... }
//	defer srv.Close()
//	// point an OpenAI client at srv.BaseURL()
//
// Every chat request is recorded (see Recorded) so a test can check what the
// client sent and whether it went away when it should have.
package llmtest
