// Package anthropic implements [contract.Model] over the Anthropic Messages
// API (POST /v1/messages) with the official SDK,
// github.com/anthropics/anthropic-sdk-go, so that the loop talks to Claude
// in its own API instead of an OpenAI-compatible shim.
//
// It behaves as package llm's chat client does:
//   - every reply is streamed (message_start, content_block_start, _delta
//     and _stop with text, input_json and thinking deltas, message_delta,
//     message_stop, ping, error) and assembled into a contract.Reply: text,
//     tool_use blocks as contract.ToolCall values, thinking as
//     Reply.Reasoning;
//   - thinking blocks and their signatures travel with the reply's first
//     tool call (contract.ToolCall.Extra) and are sent back at the head of
//     that assistant turn, as the API requires during tool use;
//   - tool results go back as tool_result blocks in a user turn, images
//     (the agent's screenshots) as base64 image blocks, is_error true for
//     a call that failed or was refused (contract.Message.Failed);
//   - the system prompt is sent as system, and the tools and the system
//     prompt carry cache_control breakpoints, a constant prefix the
//     provider may cache; usage counts cache reads as
//     contract.Usage.CachedTokens;
//   - 429, 5xx and 529 (overloaded_error) are retried before the stream
//     starts, honouring retry-after, with each attempt under its own
//     inactivity window (Config.Inactivity); a stream that goes silent ends
//     with an error matching watchdog.ErrTimeout;
//   - errors are *llm.Error values classified as llm classifies them
//     (llm.KindAuth for 401 and 403, llm.KindRateLimit, llm.KindProviderDown,
//     ...), so errors.Is(err, llm.ErrUnauthorized) and the loop's codes are
//     the same whichever API the model speaks.
//
// The key is sent as x-api-key with the anthropic-version header; it never
// appears in an error or a log line.
package anthropic
