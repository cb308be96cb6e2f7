// Package llm implements [contract.Model] (agent.Model is an alias of it)
// over any OpenAI-compatible chat-completions endpoint: OpenAI itself, or a local server such as
// Ollama (http://localhost:11434/v1), vLLM (:8000/v1) or llama.cpp's server
// (:8080/v1). A request without an API key sends no Authorization header.
//
// Every completion is streamed. Requests are go-openai's request type
// (with temperature, top_p and max_tokens as pointers, so that 0 is sent,
// and each tool call's provider data, Gemini's thought signature, sent
// back). The stream is read by this package's own SSE reader, not
// go-openai's, which loses what many servers send: SSE comments before an
// error chunk, llama.cpp's "error:" field, error objects in ordinary
// chunks, failure finish reasons, arguments sent as a JSON object, null
// IDs, reasoning text. Tool-call fragments are reassembled by index; a
// call whose arguments repeat themselves keeps the first JSON value; a
// reply that fails mid-stream is dropped whole, never acted on. Calls
// written as JSON in the text are recognised, and ToolModePrompt (also
// chosen automatically when a server refuses tools) describes the tools in
// the prompt instead.
//
// Three bounds apply to a call to Complete:
//   - the caller's context (the agent's iteration deadline) bounds
//     everything, retries and back-off sleeps included; when it ends the
//     connection is closed and the error matches ctx's error;
//   - the inactivity window (Config.Inactivity) ends a stream after which
//     nothing has arrived for that long, response headers included; the
//     error matches watchdog.ErrTimeout. A stream that keeps sending is left
//     to the caller's deadline;
//   - retries: 429, 5xx and connection failures are retried before the
//     stream starts, with jittered exponential back-off that honours
//     Retry-After. Once a 2xx response has arrived nothing is retried.
//
// Errors from the server, before or inside the stream, are *Error values
// with the provider's status and verbatim message (an API key of 8
// characters or more removed) and a Kind with a hint; ErrUnauthorized,
// ErrUnreachable, ErrRateLimited, ErrContextTooLarge, ErrToolsUnsupported
// and ErrConfig classify them for errors.Is. A transient error inside the
// stream is sent again like a 5xx.
package llm
