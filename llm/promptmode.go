package llm

import (
	"encoding/json"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Tool modes, Config.ToolMode.
const (
	// ToolModeAuto sends tools natively and switches to prompt mode for
	// good when the server refuses them (the default).
	ToolModeAuto = "auto"
	// ToolModeNative sends tools natively, never falling back.
	ToolModeNative = "native"
	// ToolModePrompt describes the tools in the system message and reads
	// the calls from the reply's text, for models without tool support.
	ToolModePrompt = "prompt"
)

// promptMessages rewrites a conversation for a server without tools: the
// tools are described in the system message, the assistant's calls are
// written back as the tagged JSON the model is asked to write, and tool
// results become user messages.
func promptMessages(req contract.Request) []contract.Message {
	var b strings.Builder
	b.WriteString("\n\n# Tools\nYou call tools by writing, for each call, one line:\n" +
		"<tool_call>{\"name\": \"TOOL\", \"arguments\": {…}}</tool_call>\n" +
		"Write nothing else but a short thought before the calls. The tools, with the JSON Schema of their arguments:\n")
	for _, t := range req.Tools {
		params := string(t.Parameters)
		if params == "" {
			params = "{}"
		}
		b.WriteString("- " + t.Name + ": " + t.Description + "\n  arguments: " + params + "\n")
	}
	names := map[string]string{} // call ID → tool name
	out := make([]contract.Message, 0, len(req.Messages)+1)
	sawSystem := false
	for _, m := range req.Messages {
		switch {
		case m.Role == contract.RoleSystem && !sawSystem:
			sawSystem = true
			m.Content += b.String()
		case m.Role == contract.RoleAssistant && len(m.ToolCalls) > 0:
			var txt strings.Builder
			txt.WriteString(m.Content)
			for _, tc := range m.ToolCalls {
				names[tc.ID] = tc.Name
				args := json.RawMessage(tc.Arguments)
				if !json.Valid(args) {
					args = json.RawMessage("{}")
				}
				call, _ := json.Marshal(struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				}{tc.Name, args})
				if txt.Len() > 0 {
					txt.WriteString("\n")
				}
				txt.WriteString("<tool_call>" + string(call) + "</tool_call>")
			}
			m = contract.Message{Role: contract.RoleAssistant, Content: txt.String()}
		case m.Role == contract.RoleTool:
			m = contract.Message{Role: contract.RoleUser, Content: "Result of " + names[m.ToolCallID] + ": " + m.Content}
		}
		out = append(out, m)
	}
	if !sawSystem {
		out = append([]contract.Message{{Role: contract.RoleSystem, Content: strings.TrimSpace(b.String())}}, out...)
	}
	return out
}

// toolsDropped reports whether a reply to a request with tools, sent
// natively, shows that the server left them out of the model's prompt: no
// call, and fewer prompt tokens than the messages and the tools would
// take even packed tightly (six bytes a token of text, twelve of the
// tools' JSON; a tokenizer takes three to four, a provider that renders
// tools compactly about half their JSON). It is a guess from the usage
// the server reports, so it only tells (at level info). llama.cpp's server does this
// with --jinja for a model whose chat template has no tools section
// (SmolLM2's): it accepts the tools and renders none of them.
func toolsDropped(req contract.Request, reply contract.Reply) bool {
	if len(req.Tools) == 0 || len(reply.ToolCalls) > 0 || reply.Usage.PromptTokens == 0 {
		return false
	}
	msgBytes, toolBytes := 0, 0
	for _, m := range req.Messages {
		msgBytes += len(m.Content)
	}
	for _, t := range req.Tools {
		toolBytes += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return reply.Usage.PromptTokens < msgBytes/6+toolBytes/12
}
