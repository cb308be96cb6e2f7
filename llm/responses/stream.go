package responses

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
)

// assembler joins a stream's events into a reply.
type assembler struct {
	text      strings.Builder
	reasoning strings.Builder
	sawText   bool
	sawThink  bool
	calls     map[int64]*contract.ToolCall
	order     []int64
	kept      []json.RawMessage // reasoning items with their encrypted content
	usage     contract.Usage
	thinking  int64 // reasoning tokens, a part of the output tokens
	done      bool
}

// read reads the stream to its end: response.completed (or incomplete)
// gives the reply; response.failed and error events give an *llm.Error.
func (c *Client) read(stream *ssestream.Stream[responses.ResponseStreamEventUnion], attempt int) (contract.Reply, error) {
	a := &assembler{calls: map[int64]*contract.ToolCall{}}
	for !a.done && stream.Next() {
		if err := c.event(a, stream.Current(), attempt); err != nil {
			return contract.Reply{}, err
		}
	}
	if err := stream.Err(); err != nil {
		var se *ssestream.StreamError
		if errors.As(err, &se) { // an event whose data holds an "error" object
			return contract.Reply{}, llm.ProviderError(0, se.Event.Data, c.cfg.APIKey, attempt)
		}
		return contract.Reply{}, err
	}
	if !a.done {
		return contract.Reply{}, &llm.Error{Kind: llm.KindProviderDown, Retryable: true, Attempts: attempt,
			Message: "the stream ended before response.completed"}
	}
	if a.thinking > 0 {
		c.log.Debug("reasoning tokens, counted in the completion tokens", "reasoning_tokens", a.thinking)
	}
	return a.reply(), nil
}

// event applies one event to the reply being assembled.
func (c *Client) event(a *assembler, ev responses.ResponseStreamEventUnion, attempt int) error {
	switch ev.Type {
	case "response.output_item.added", "response.output_item.done":
		return a.item(ev.OutputIndex, ev.Item, ev.Type == "response.output_item.done")
	case "response.output_text.delta", "response.refusal.delta":
		a.sawText = true
		a.text.WriteString(ev.Delta)
	case "response.function_call_arguments.delta":
		a.call(ev.OutputIndex).Arguments += ev.Delta
	case "response.function_call_arguments.done":
		a.call(ev.OutputIndex).Arguments = ev.Arguments
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		a.sawThink = true
		a.reasoning.WriteString(ev.Delta)
	case "response.reasoning_summary_part.done":
		a.reasoning.WriteString("\n\n")
	case "response.completed", "response.incomplete":
		a.done = true
		a.setUsage(ev.Response.Usage)
		if r := ev.Response.IncompleteDetails.Reason; r != "" {
			c.log.Warn("the model's response is incomplete", "reason", r)
			if r == "content_filter" {
				return &llm.Error{Kind: llm.KindRefused, Attempts: attempt, Message: "the response is incomplete: content_filter"}
			}
		}
	case "response.failed":
		body, _ := json.Marshal(map[string]any{"error": map[string]any{
			"code": ev.Response.Error.Code, "message": ev.Response.Error.Message}})
		return llm.ProviderError(0, body, c.cfg.APIKey, attempt)
	case "error":
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"code": ev.Code, "message": ev.Message}})
		return llm.ProviderError(0, body, c.cfg.APIKey, attempt)
	}
	return nil
}

// item takes an output item as it starts or ends: a function call's name
// and call_id, a message's text when no delta gave it, a reasoning item
// to keep.
func (a *assembler) item(index int64, item responses.ResponseOutputItemUnion, done bool) error {
	switch item.Type {
	case "function_call":
		fc := item.AsFunctionCall()
		call := a.call(index)
		call.ID, call.Name = cmp.Or(fc.CallID, fc.ID), fc.Name
		if done || fc.Arguments != "" {
			call.Arguments = fc.Arguments
		}
	case "computer_call":
		if !done {
			return nil
		}
		tc, err := computerCall(item.RawJSON())
		if err != nil {
			return err
		}
		*a.call(index) = tc
	case "message":
		if done && !a.sawText {
			for _, part := range item.Content {
				if part.Type == "output_text" {
					a.text.WriteString(part.Text)
				}
			}
		}
	case "reasoning":
		if !done {
			return nil
		}
		r := item.AsReasoning()
		if !a.sawThink {
			for _, s := range r.Summary {
				a.reasoning.WriteString(s.Text + "\n\n")
			}
		}
		// With store:false only an item with its encrypted content can
		// be sent back; an id alone names nothing the server kept.
		if r.EncryptedContent != "" {
			a.kept = append(a.kept, json.RawMessage(item.RawJSON()))
		}
	}
	return nil
}

// call is the function call at an output index.
func (a *assembler) call(index int64) *contract.ToolCall {
	call, ok := a.calls[index]
	if !ok {
		call = &contract.ToolCall{}
		a.calls[index] = call
		a.order = append(a.order, index)
	}
	return call
}

func (a *assembler) setUsage(u responses.ResponseUsage) {
	a.usage = contract.Usage{PromptTokens: int(u.InputTokens), CompletionTokens: int(u.OutputTokens),
		TotalTokens: int(u.TotalTokens), CachedTokens: int(u.InputTokensDetails.CachedTokens)}
	if a.usage.TotalTokens == 0 {
		a.usage.TotalTokens = a.usage.PromptTokens + a.usage.CompletionTokens
	}
	a.thinking = u.OutputTokensDetails.ReasoningTokens
}

// reply is the assembled reply; the first call carries the reasoning
// items kept.
func (a *assembler) reply() contract.Reply {
	r := contract.Reply{Content: a.text.String(), Reasoning: strings.TrimSpace(a.reasoning.String()), Usage: a.usage}
	for i, idx := range a.order {
		call := *a.calls[idx]
		if call.ID == "" {
			call.ID = fmt.Sprintf("call_%d", idx)
		}
		if i == 0 && len(a.kept) > 0 {
			var x extra // a computer call's item is kept there too
			_ = json.Unmarshal(call.Extra, &x)
			x.Reasoning = a.kept
			call.Extra, _ = json.Marshal(x)
		}
		r.ToolCalls = append(r.ToolCalls, call)
	}
	return r
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
