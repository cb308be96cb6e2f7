package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
)

// assembler rebuilds a reply from the stream's events, block by index.
type assembler struct {
	blocks  map[int64]*block
	order   []int64
	usage   sdk.MessageDeltaUsage
	stop    string
	stopped bool // message_stop arrived
}

type block struct {
	typ, id, name   string
	toolset         string // a toolset member's family ("computer")
	text, json      strings.Builder
	signature, data string
	input           any // the input of content_block_start, if no delta follows
}

// add takes one event.
func (a *assembler) add(ev sdk.MessageStreamEventUnion) {
	if a.blocks == nil {
		a.blocks = map[int64]*block{}
	}
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		a.usage = sdk.MessageDeltaUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadInputTokens: u.CacheReadInputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens}
	case "content_block_start":
		cb := ev.ContentBlock
		b := &block{typ: cb.Type, id: cb.ID, name: cb.Name, toolset: cb.ToolsetName, signature: cb.Signature, data: cb.Data, input: cb.Input}
		b.text.WriteString(cb.Text)
		b.text.WriteString(cb.Thinking)
		if _, seen := a.blocks[ev.Index]; !seen {
			a.order = append(a.order, ev.Index)
		}
		a.blocks[ev.Index] = b
	case "content_block_delta":
		b := a.blocks[ev.Index]
		if b == nil {
			return
		}
		d := ev.Delta
		switch d.Type {
		case "text_delta":
			b.text.WriteString(d.Text)
		case "thinking_delta":
			b.text.WriteString(d.Thinking)
		case "signature_delta":
			b.signature += d.Signature
		case "input_json_delta":
			b.json.WriteString(d.PartialJSON)
		}
	case "message_delta":
		a.stop = string(ev.Delta.StopReason)
		u := ev.Usage // cumulative; input counts only when sent
		a.usage.OutputTokens = u.OutputTokens
		if u.InputTokens > 0 {
			a.usage.InputTokens = u.InputTokens
		}
		if u.CacheReadInputTokens > 0 {
			a.usage.CacheReadInputTokens = u.CacheReadInputTokens
		}
		if u.CacheCreationInputTokens > 0 {
			a.usage.CacheCreationInputTokens = u.CacheCreationInputTokens
		}
	case "message_stop":
		a.stopped = true
	}
}

// reply is the assembled reply. A stream cut before message_stop, or a
// refusal, is an error, and its partial calls are dropped.
func (a *assembler) reply(attempts int) (contract.Reply, error) {
	if !a.stopped {
		return contract.Reply{}, &llm.Error{Kind: llm.KindProviderDown, Retryable: true, Attempts: attempts,
			Message: "the stream ended before message_stop; its partial reply was discarded"}
	}
	if a.stop == "refusal" {
		return contract.Reply{}, &llm.Error{Kind: llm.KindRefused, Attempts: attempts, Code: "refusal",
			Message: "the reply ended with stop_reason \"refusal\"; its partial output was discarded"}
	}
	var r contract.Reply
	var text, reasoning strings.Builder
	var x extra
	for _, i := range a.order {
		b := a.blocks[i]
		switch b.typ {
		case "text":
			text.WriteString(b.text.String())
		case "thinking":
			reasoning.WriteString(b.text.String())
			x.Thinking = append(x.Thinking, thinkingBlock{Type: b.typ, Thinking: b.text.String(), Signature: b.signature})
		case "redacted_thinking":
			x.Thinking = append(x.Thinking, thinkingBlock{Type: b.typ, Data: b.data})
		case "tool_use":
			tc := contract.ToolCall{ID: b.id, Name: b.name, Arguments: b.arguments(), Toolset: b.toolset}
			switch b.toolset {
			case computerToolset:
				tc.Native = []contract.NativeAction{computerAction(b.name, tc.Arguments)}
			case browserToolset:
				tc.Native = []contract.NativeAction{browserAction(b.name, tc.Arguments)}
			}
			r.ToolCalls = append(r.ToolCalls, tc)
		}
	}
	if len(r.ToolCalls) > 0 && len(x.Thinking) > 0 {
		raw, err := json.Marshal(x)
		if err != nil {
			return contract.Reply{}, fmt.Errorf("keeping the thinking blocks: %w", err)
		}
		r.ToolCalls[0].Extra = raw
	}
	r.Content, r.Reasoning = text.String(), reasoning.String()
	u := a.usage
	prompt := int(u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens)
	r.Usage = contract.Usage{PromptTokens: prompt, CompletionTokens: int(u.OutputTokens),
		TotalTokens: prompt + int(u.OutputTokens), CachedTokens: int(u.CacheReadInputTokens)}
	return r, nil
}

// arguments are the call's input: the input_json deltas joined, else the
// input of its start, else {}.
func (b *block) arguments() string {
	if s := strings.TrimSpace(b.json.String()); s != "" {
		return s
	}
	if b.input != nil {
		if raw, err := json.Marshal(b.input); err == nil && string(raw) != "null" {
			return string(raw)
		}
	}
	return "{}"
}
