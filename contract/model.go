package contract

import (
	"context"
	"encoding/json"
)

// Model decides the next step: given the conversation and the tools on
// offer, it returns the assistant's reply. It is the only thing the loop
// needs from a language model; package llm implements it over any
// OpenAI-compatible chat-completions endpoint.
//
// Complete must return promptly once ctx is done. Its error should wrap the
// provider's message; the loop reports it as LLM_ERROR.
type Model interface {
	Complete(ctx context.Context, req Request) (Reply, error)
}

// ModelFunc adapts an ordinary function to the Model interface.
type ModelFunc func(ctx context.Context, req Request) (Reply, error)

// Complete calls f(ctx, req).
func (f ModelFunc) Complete(ctx context.Context, req Request) (Reply, error) { return f(ctx, req) }

// Role is the author of a message.
type Role string

// The roles of a chat conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one turn of the conversation.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message makes.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Failed marks a tool message whose call failed or was refused (the
	// user's policy, a person's no, a vendor's action not carried out):
	// a client marks it as its API marks a failed tool result (the
	// Messages API's is_error, the Gemini API's "error" key). A call not
	// run because an earlier call of its reply failed, or the page
	// changed or navigated under it, is not failed: nothing was wrong
	// with it, and its text says why it did not run.
	Failed bool `json:"failed,omitempty"`
	// Images are screenshots (PNG or JPEG) shown with a user message
	// (vision), or returned by a native tool's call (a tool message).
	Images [][]byte `json:"-"`
	// Acknowledged are, on a native tool's result, the safety checks of
	// its call that a person allowed (ToolCall.SafetyChecks).
	Acknowledged []SafetyCheck `json:"acknowledged,omitempty"`
	// Browser is, on a native tool's result, the browser's state after
	// the call: a browser tool reports its tabs, a computer tool the
	// active tab's address (Gemini's computer use sends it back).
	Browser *BrowserState `json:"browser,omitempty"`
}

// ToolCall is one function call requested by the model. Arguments is the raw
// JSON text the model produced; it may be malformed.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Extra is provider-specific data attached to the call that must be
	// sent back with it in later turns (Gemini's thought signature in
	// "extra_content"). The loop keeps it with the call and never reads it.
	Extra json.RawMessage `json:"extra,omitempty"`
	// Native, set on a call of a vendor's own tool (Request.Native), is
	// what it asks, in order; Name is then the vendor's tool or member
	// name and Arguments its input, for the record.
	Native []NativeAction `json:"native,omitempty"`
	// Toolset is the vendor's name of the tool set a native call belongs
	// to ("computer"), sent back with it.
	Toolset string `json:"toolset,omitempty"`
	// SafetyChecks are the vendor's warnings about a native call, which a
	// person must allow before it runs.
	SafetyChecks []SafetyCheck `json:"safety_checks,omitempty"`
}

// ToolDef describes a tool offered to the model. Parameters is a JSON Schema
// object.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is what the loop sends to the model at each iteration.
type Request struct {
	Messages []Message
	Tools    []ToolDef
	// Native, when set, declares the vendor's own tool set beside Tools
	// (--tools native); the client maps it to its API's tool.
	Native *NativeTool
	// CacheKey, when set, is the same for requests that share a prefix
	// (the rules and the tools): a provider that routes by it (OpenAI's
	// prompt_cache_key) serves that prefix from one cache.
	CacheKey string
}

// Reply is the model's answer: text, tool calls, or both.
type Reply struct {
	Content   string
	ToolCalls []ToolCall
	Usage     Usage
	// Reasoning is the model's thinking text when the provider streams it
	// apart (reasoning_content, reasoning). It is recorded in the step, not
	// sent back to the model.
	Reasoning string
}

// Usage counts tokens as reported by the provider.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// CachedTokens is the part of PromptTokens the provider read from its
	// prompt cache (OpenAI's prompt_tokens_details.cached_tokens,
	// DeepSeek's prompt_cache_hit_tokens), which it bills at a lower
	// price; 0 when it says nothing.
	CachedTokens int `json:"cached_tokens,omitempty"`
	// PrefixTokens is the part of PromptTokens that repeats the start of
	// the previous request of the run: what a provider's prompt cache
	// could have served. The agent estimates it (four bytes a token).
	PrefixTokens int `json:"prefix_tokens,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
		CachedTokens:     u.CachedTokens + v.CachedTokens,
		PrefixTokens:     u.PrefixTokens + v.PrefixTokens,
	}
}
