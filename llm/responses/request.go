package responses

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/webagent/webagent/contract"
)

// extra is what a tool call carries in contract.ToolCall.Extra: the
// reasoning items of the reply it came in, sent back before the reply's
// function calls in every later request (the first call of a reply
// carries them).
type extra struct {
	Reasoning []json.RawMessage `json:"openai_reasoning,omitempty"`
	// ComputerCall is a computer call's computer_call item, whole.
	ComputerCall json.RawMessage `json:"openai_computer_call,omitempty"`
}

// buildParams turns the loop's conversation into a Responses request:
// the leading system messages become instructions, a later one a
// developer message; user messages with their images (input_image, a data
// URL), assistant text, function_call items (after the reasoning items
// kept with them) and function_call_output items.
func (c *Client) buildParams(req contract.Request) (responses.ResponseNewParams, error) {
	p := responses.ResponseNewParams{
		Model: shared.ResponsesModel(c.cfg.Model),
		Store: param.NewOpt(false),
	}
	var instructions []string
	var items responses.ResponseInputParam
	firstUser := ""
	leading := true
	computer := map[string]bool{} // the ids of computer calls, whose results are computer_call_output
	var latest []byte             // the latest image of the conversation
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			computer[tc.ID] = computer[tc.ID] || tc.Toolset == computerToolset
		}
		if m.Role == contract.RoleSystem && leading {
			instructions = append(instructions, m.Content)
			continue
		}
		leading = false
		switch m.Role {
		case contract.RoleSystem:
			items = append(items, responses.ResponseInputItemParamOfMessage(m.Content, responses.EasyInputMessageRoleDeveloper))
		case contract.RoleUser:
			if firstUser == "" {
				firstUser = m.Content
			}
			items = append(items, userMessage(m))
		case contract.RoleAssistant:
			more, err := assistantItems(m)
			if err != nil {
				return p, err
			}
			items = append(items, more...)
		case contract.RoleTool:
			if computer[m.ToolCallID] {
				items = append(items, computerOutput(m, latest)...)
			} else {
				items = append(items, toolOutput(m))
			}
		default:
			return p, fmt.Errorf("message of unknown role %q", m.Role)
		}
		if n := len(m.Images); n > 0 {
			latest = m.Images[n-1]
		}
	}
	if len(instructions) > 0 {
		p.Instructions = param.NewOpt(strings.Join(instructions, "\n\n"))
	}
	p.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: items}
	if req.Native != nil {
		tool, err := c.computerTool(req.Native)
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, tool)
	}
	for _, t := range req.Tools {
		var schema map[string]any
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return p, fmt.Errorf("the parameters of tool %q are not a JSON object: %w", t.Name, err)
			}
		}
		tool := responses.ToolParamOfFunction(t.Name, schema, false)
		if t.Description != "" {
			tool.OfFunction.Description = param.NewOpt(t.Description)
		}
		p.Tools = append(p.Tools, tool)
	}
	c.sampling(&p)
	key := c.cfg.PromptCacheKey
	if key == "" {
		h := sha256.Sum256([]byte(c.cfg.Model + "\x00" + p.Instructions.Value + "\x00" + firstUser))
		key = "webagent-" + hex.EncodeToString(h[:12])
	}
	p.PromptCacheKey = param.NewOpt(key)
	return p, nil
}

// sampling sets the sampling and reasoning settings of the Config.
func (c *Client) sampling(p *responses.ResponseNewParams) {
	if c.cfg.Temperature != nil {
		p.Temperature = param.NewOpt(float64(*c.cfg.Temperature))
	}
	if c.cfg.TopP != nil {
		p.TopP = param.NewOpt(float64(*c.cfg.TopP))
	}
	if c.cfg.MaxTokens != nil {
		p.MaxOutputTokens = param.NewOpt(int64(*c.cfg.MaxTokens))
	}
	if c.cfg.ReasoningEffort != "" {
		p.Reasoning = shared.ReasoningParam{Effort: shared.ReasoningEffort(c.cfg.ReasoningEffort), Summary: shared.ReasoningSummaryAuto}
	}
	if !c.cfg.NoReasoningItems {
		p.Include = []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent}
	}
}

// userMessage is a user message: its text, then its images.
func userMessage(m contract.Message) responses.ResponseInputItemUnionParam {
	if len(m.Images) == 0 {
		return responses.ResponseInputItemParamOfMessage(m.Content, responses.EasyInputMessageRoleUser)
	}
	var parts responses.ResponseInputMessageContentListParam
	if m.Content != "" {
		parts = append(parts, responses.ResponseInputContentParamOfInputText(m.Content))
	}
	for _, img := range m.Images {
		part := responses.ResponseInputContentParamOfInputImage(responses.ResponseInputImageDetailAuto)
		part.OfInputImage.ImageURL = param.NewOpt(dataURL(img))
		parts = append(parts, part)
	}
	return responses.ResponseInputItemParamOfMessage(parts, responses.EasyInputMessageRoleUser)
}

// assistantItems are an assistant message's items: its text, the
// reasoning items its first call kept, its function calls.
func assistantItems(m contract.Message) ([]responses.ResponseInputItemUnionParam, error) {
	var items []responses.ResponseInputItemUnionParam
	for i, call := range m.ToolCalls {
		if i > 0 || len(call.Extra) == 0 {
			continue
		}
		var x extra
		if err := json.Unmarshal(call.Extra, &x); err != nil {
			continue // another API's data: nothing of ours
		}
		for _, raw := range x.Reasoning {
			var item responses.ResponseReasoningItem
			if err := json.Unmarshal(raw, &item); err != nil {
				return nil, fmt.Errorf("a kept reasoning item is unreadable: %w", err)
			}
			rp := item.ToParam()
			items = append(items, responses.ResponseInputItemUnionParam{OfReasoning: &rp})
		}
	}
	if m.Content != "" {
		items = append(items, responses.ResponseInputItemParamOfMessage(m.Content, responses.EasyInputMessageRoleAssistant))
	}
	for _, call := range m.ToolCalls {
		if call.Toolset != computerToolset {
			items = append(items, responses.ResponseInputItemParamOfFunctionCall(call.Arguments, call.ID, call.Name))
			continue
		}
		var x extra
		if err := json.Unmarshal(call.Extra, &x); err != nil || len(x.ComputerCall) == 0 {
			return nil, fmt.Errorf("computer call %s lacks its computer_call item", call.ID)
		}
		item, err := computerItemParam(x.ComputerCall)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	return items, nil
}

// toolOutput is a tool result: its text, or text and images.
func toolOutput(m contract.Message) responses.ResponseInputItemUnionParam {
	var item responses.ResponseInputItemUnionParam
	if len(m.Images) == 0 {
		item = responses.ResponseInputItemParamOfFunctionCallOutput(m.Content)
	} else {
		list := responses.ResponseFunctionCallOutputItemListParam{
			{OfInputText: &responses.ResponseInputTextContentParam{Text: m.Content}},
		}
		for _, img := range m.Images {
			list = append(list, responses.ResponseFunctionCallOutputItemUnionParam{
				OfInputImage: &responses.ResponseInputImageContentParam{ImageURL: param.NewOpt(dataURL(img))}})
		}
		item = responses.ResponseInputItemParamOfFunctionCallOutput(list)
	}
	item.OfFunctionCallOutput.CallID = param.NewOpt(m.ToolCallID)
	return item
}

// dataURL is an image as a data URL of its sniffed type.
func dataURL(img []byte) string {
	typ := http.DetectContentType(img)
	if !strings.HasPrefix(typ, "image/") {
		typ = "image/png"
	}
	return "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(img)
}
