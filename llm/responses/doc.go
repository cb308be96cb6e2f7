// Package responses implements [contract.Model] over OpenAI's Responses API
// (POST /v1/responses) with the official SDK, github.com/openai/openai-go/v3,
// and behaves as package llm's chat-completions client does.
//
// A request is stateless (store:false): the loop sends the whole
// conversation each time. The leading system messages become
// instructions, a later one a developer message; user messages go as input
// messages with their images as input_image data URLs; a reply's function
// calls as function_call items with their call_id, the results as
// function_call_output items. Neither function_call_output nor
// computer_call_output has a field for a failed call: a failed or refused
// call's output text says so (it starts "error:", or is a JSON object whose
// "error" names the code), and for a computer call the user message after
// its computer_call_output reads "The computer call ID failed: ..."
// instead of "... did: ...". Tools are offered as type "function" with
// their JSON Schema (strict off). prompt_cache_key is Config.PromptCacheKey
// or, when empty, a hash of the model, the instructions and the first user
// message, stable for the steps of one task.
//
// Reasoning is kept: the request includes "reasoning.encrypted_content",
// and the reasoning items of a reply (which can be sent back under
// store:false only with their encrypted content) ride in the Extra of the
// reply's first tool call and go back as input items before its calls in
// every later request. Their summary text is the reply's Reasoning. A reply
// without a tool call keeps no items. Config.NoReasoningItems leaves the
// include out for a model that refuses it.
//
// The stream's events are read as the API reference documents them:
// response.output_item.added/.done, response.output_text.delta,
// response.function_call_arguments.delta/.done,
// response.reasoning_summary_text.delta, response.completed (usage, cached
// and reasoning tokens), response.incomplete, response.failed and error. A
// stream that ends without response.completed, or fails, gives no reply.
//
// The bounds are llm's: the caller's context bounds everything, retries
// included; Config.Inactivity ends a stream (or a wait for its headers)
// silent that long, with an error matching watchdog.ErrTimeout; 429, 5xx and
// refused or reset connections are retried before the stream starts, with a
// jittered back-off that honours Retry-After, and a transient failure in the
// stream sends the request again. The SDK's own retries are off. Errors the
// server answers are *llm.Error values with llm's kinds and hints, so the
// loop's codes are the same as with chat completions (401 → LLM_ERROR at
// once).
package responses
