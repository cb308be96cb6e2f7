// Package llm implements agent.Model over any OpenAI-compatible
// chat-completions endpoint: OpenAI itself, or a local server such as
// Ollama (http://localhost:11434/v1), vLLM (:8000/v1) or llama.cpp's server
// (:8080/v1). A request without an API key sends no Authorization header.
//
// Every completion is streamed. Tool-call fragments are reassembled by
// index, text is kept and the usage of the final chunk is recorded.
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
// Errors from the server are *Error values with the provider's status and
// message; ErrUnauthorized, ErrUnreachable, ErrRateLimited and ErrConfig
// classify them for errors.Is.
package llm
