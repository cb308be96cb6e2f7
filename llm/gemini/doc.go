// Package gemini implements [contract.Model] over Google's Gemini API
// (POST models/{model}:streamGenerateContent?alt=sse) with the official
// SDK, google.golang.org/genai, and behaves as package llm's
// chat-completions client does.
//
// A request is stateless: the loop sends the whole conversation each
// time. The leading system messages become systemInstruction; user
// messages user turns of text and inlineData images; an assistant message
// a model turn; tool results functionResponse parts of a user turn
// ({"output": text}, or {"error": text} for a call that failed or was
// refused, as the API marks an error; a tool's images as inline data of
// the response).
// Consecutive messages of one role are one turn. Tools are offered as
// functionDeclarations with their JSON Schema (parametersJsonSchema).
//
// Reasoning is kept: with Config.ThinkingLevel or ThinkingBudget the
// request asks for the thoughts' summaries (includeThoughts), which are
// the reply's Reasoning; the reply's parts as the API sent them (thoughts,
// text, calls, each thoughtSignature) ride in the Extra of its first tool
// call and go back whole as its model turn, as the API requires during
// function calling. A call the API gave no id gets one for the loop; its
// functionResponse names the function only, as the API's did.
//
// With Request.Native of kind contract.NativeComputer the request
// declares Gemini's computer use tool (ENVIRONMENT_BROWSER): its
// predefined functions (click_at, type_text_at, scroll_document,
// navigate, ...) are read as contract.NativeActions, their 0-999 grid
// scaled to the display's pixels; a safety_decision that requires
// confirmation is a contract.SafetyCheck, acknowledged with
// safety_acknowledgement "true"; each result goes back with the page's
// url and the screenshot.
//
// The bounds are llm's: the caller's context bounds everything, retries
// included; Config.Inactivity ends a stream (or a wait for its headers)
// silent that long, with an error matching watchdog.ErrTimeout; 429, 5xx
// and refused or reset connections are retried before the stream starts
// (llm/internal/httpretry's Doer sends the SDK's requests), with a
// jittered back-off that honours Retry-After, and a stream that breaks
// off, ends without its finishReason or fails with a transient error is
// sent again. The SDK's own retries and its automatic continuation are
// off. Errors are *llm.Error values with llm's kinds and hints: the API's
// 400 API_KEY_INVALID is llm.KindAuth and matches llm.ErrUnauthorized, as
// a 401 does with the other APIs. The key goes in the x-goog-api-key
// header, never in a URL, an error or a log line.
package gemini
