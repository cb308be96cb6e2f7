package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/webagent/webagent/contract"
)

// extra is what a tool call carries in contract.ToolCall.Extra: the
// thinking blocks of its reply, sent back verbatim (signature included)
// at the head of that assistant turn.
type extra struct {
	Thinking []thinkingBlock `json:"anthropic_thinking,omitempty"`
}

type thinkingBlock struct {
	Type      string `json:"type"` // "thinking" or "redacted_thinking"
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// params maps the loop's request to the API's: system messages joined
// into system, the rest into alternating user and assistant turns, and
// cache_control breakpoints after the last tool, on the system prompt and
// in the messages (markCache).
func (c *Client) params(req contract.Request) (sdk.MessageNewParams, error) {
	p := sdk.MessageNewParams{Model: sdk.Model(c.cfg.Model), MaxTokens: int64(c.cfg.MaxTokens)}
	if c.cfg.ThinkingBudget > 0 {
		p.Thinking = sdk.ThinkingConfigParamOfEnabled(int64(c.cfg.ThinkingBudget))
	}
	for _, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, sdk.ToolUnionParam{OfTool: tool})
	}
	if n := len(p.Tools); n > 0 {
		p.Tools[n-1].OfTool.CacheControl = sdk.NewCacheControlEphemeralParam()
	}
	if req.Native != nil {
		var native sdk.ToolUnionParam
		switch req.Native.Kind {
		case contract.NativeComputer:
			native = computerTool()
		case contract.NativeBrowser:
			native = browserTool()
		default:
			return p, fmt.Errorf("the Messages API has no native tool %q; it has %q and %q", req.Native.Kind, contract.NativeComputer, contract.NativeBrowser)
		}
		p.Tools = append([]sdk.ToolUnionParam{native}, p.Tools...)
	}
	var system []string
	toolsets := map[string]string{} // a native call's id: its toolset, which its result names too
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			if tc.Toolset != "" {
				toolsets[tc.ID] = tc.Toolset
			}
		}
		if m.Role == contract.RoleSystem {
			if s := strings.TrimSpace(m.Content); s != "" {
				system = append(system, m.Content)
			}
			continue
		}
		p.Messages = appendMessage(p.Messages, m, toolsets[m.ToolCallID])
	}
	if len(system) > 0 {
		p.System = []sdk.TextBlockParam{{Text: strings.Join(system, "\n\n"), CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	if len(p.Messages) == 0 || p.Messages[0].OfUser == nil {
		p.Messages = append([]sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("(start)"))}, p.Messages...)
	}
	markCache(p.Messages)
	return p, nil
}

// toolParam maps a tool: its JSON Schema becomes input_schema.
func toolParam(t contract.ToolDef) (*sdk.ToolParam, error) {
	var schema map[string]any
	if len(t.Parameters) > 0 {
		if err := json.Unmarshal(t.Parameters, &schema); err != nil {
			return nil, fmt.Errorf("tool %q: its parameters are not a JSON object: %w", t.Name, err)
		}
	}
	in := sdk.ToolInputSchemaParam{Properties: schema["properties"], ExtraFields: map[string]any{}}
	if in.Properties == nil {
		in.Properties = map[string]any{}
	}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				in.Required = append(in.Required, s)
			}
		}
	}
	for k, v := range schema {
		if k != "properties" && k != "required" && k != "type" {
			in.ExtraFields[k] = v
		}
	}
	tool := &sdk.ToolParam{Name: t.Name, InputSchema: in}
	if t.Description != "" {
		tool.Description = sdk.String(t.Description)
	}
	return tool, nil
}

// appendMessage adds one of the loop's messages. A tool result and the
// user message after it share one user turn, tool_result blocks first.
func appendMessage(msgs []sdk.MessageParam, m contract.Message, toolset string) []sdk.MessageParam {
	if m.Role == contract.RoleAssistant {
		return append(msgs, sdk.NewAssistantMessage(assistantBlocks(m)...))
	}
	var blocks []sdk.ContentBlockParamUnion
	if m.Role == contract.RoleTool {
		blocks = []sdk.ContentBlockParamUnion{toolResult(m, toolset)}
	} else {
		if strings.TrimSpace(m.Content) != "" {
			blocks = append(blocks, sdk.NewTextBlock(m.Content))
		}
		for _, img := range m.Images {
			blocks = append(blocks, imageBlock(img))
		}
		if len(blocks) == 0 {
			blocks = append(blocks, sdk.NewTextBlock("(no text)"))
		}
	}
	n := len(msgs)
	if n == 0 || msgs[n-1].OfUser == nil {
		return append(msgs, sdk.NewUserMessage(blocks...))
	}
	last := msgs[n-1].OfUser
	if m.Role == contract.RoleTool {
		i := 0 // after the results already there, before any text
		for i < len(last.Content) && last.Content[i].OfToolResult != nil {
			i++
		}
		last.Content = append(last.Content[:i], append(blocks, last.Content[i:]...)...)
		return msgs
	}
	last.Content = append(last.Content, blocks...)
	return msgs
}

// assistantBlocks are the thinking blocks kept with the first call, the
// text, then the tool_use blocks.
func assistantBlocks(m contract.Message) []sdk.ContentBlockParamUnion {
	var blocks []sdk.ContentBlockParamUnion
	if len(m.ToolCalls) > 0 && len(m.ToolCalls[0].Extra) > 0 {
		var x extra
		if json.Unmarshal(m.ToolCalls[0].Extra, &x) == nil {
			for _, t := range x.Thinking {
				if t.Type == "redacted_thinking" {
					blocks = append(blocks, sdk.NewRedactedThinkingBlock(t.Data))
				} else {
					blocks = append(blocks, sdk.NewThinkingBlock(t.Signature, t.Thinking))
				}
			}
		}
	}
	if strings.TrimSpace(m.Content) != "" {
		blocks = append(blocks, sdk.NewTextBlock(m.Content))
	}
	for _, tc := range m.ToolCalls {
		var input any = map[string]any{}
		var obj map[string]any
		if json.Unmarshal([]byte(tc.Arguments), &obj) == nil && obj != nil {
			input = json.RawMessage(tc.Arguments)
		}
		b := sdk.NewToolUseBlock(tc.ID, input, tc.Name)
		if tc.Toolset != "" {
			b.OfToolUse.ToolsetName = sdk.String(tc.Toolset)
		}
		blocks = append(blocks, b)
	}
	if len(blocks) == 0 {
		blocks = append(blocks, sdk.NewTextBlock("(no reply)"))
	}
	return blocks
}

// toolResult is a tool message as a tool_result block: its text, then its
// images; is_error when its call failed or was refused.
func toolResult(m contract.Message, toolset string) sdk.ContentBlockParamUnion {
	text := m.Content
	if strings.TrimSpace(text) == "" {
		text = "(no output)"
	}
	r := sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID,
		Content: []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: text}}}}
	if toolset != "" {
		r.ToolsetName = sdk.String(toolset)
	}
	if m.Failed {
		r.IsError = sdk.Bool(true)
	}
	if m.Browser != nil && toolset == browserToolset { // a computer tool's result has no browser_state
		r.Content = append(r.Content, browserState(m.Browser))
	}
	for _, img := range m.Images {
		r.Content = append(r.Content, sdk.ToolResultBlockParamContentUnion{OfImage: imageBlock(img).OfImage})
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &r}
}

// imageBlock is an image as a base64 block, its type read from its bytes.
func imageBlock(img []byte) sdk.ContentBlockParamUnion {
	mime := http.DetectContentType(img)
	switch mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		mime = "image/png"
	}
	return sdk.NewImageBlockBase64(mime, base64.StdEncoding.EncodeToString(img))
}
