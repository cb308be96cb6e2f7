package responses

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
)

// OpenAI's computer tool in the Responses API: {"type":"computer"} in
// tools (or the older computer_use_preview with the display's size), a
// computer_call output item with its actions (a batch; the preview's one
// action) and pending_safety_checks, answered by a computer_call_output
// item holding a computer_screenshot and the acknowledged_safety_checks.
// A computer_call_output carries no text: the result's text follows it as
// a user message. With store:false the computer_call item itself is sent
// back, kept whole in the call's Extra.

// computerToolset is the Toolset of a computer call.
const computerToolset = "computer"

// computerTool is the tools[] entry of the declared native tool.
func (c *Client) computerTool(n *contract.NativeTool) (responses.ToolUnionParam, error) {
	if n.Kind != contract.NativeComputer {
		return responses.ToolUnionParam{}, fmt.Errorf("the Responses API has no native tool %q; it has %q", n.Kind, contract.NativeComputer)
	}
	if c.cfg.ComputerPreview {
		return responses.ToolUnionParam{OfComputerUsePreview: &responses.ComputerUsePreviewToolParam{
			DisplayWidth: int64(n.Width), DisplayHeight: int64(n.Height), Environment: "browser"}}, nil
	}
	return responses.ToolUnionParam{OfComputer: &responses.ComputerToolParam{}}, nil
}

// computerItem is what this client reads of a computer_call item.
type computerItem struct {
	ID      string           `json:"id"`
	CallID  string           `json:"call_id"`
	Action  *computerAction  `json:"action"`
	Actions []computerAction `json:"actions"`
	Checks  []struct {
		ID      string `json:"id"`
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"pending_safety_checks"`
}

type computerAction struct {
	Type    string   `json:"type"`
	Button  string   `json:"button"`
	X       *float64 `json:"x"`
	Y       *float64 `json:"y"`
	Keys    []string `json:"keys"`
	Path    []struct{ X, Y float64 }
	ScrollX int    `json:"scroll_x"`
	ScrollY int    `json:"scroll_y"`
	Text    string `json:"text"`
}

// computerCall reads a finished computer_call item as a native call.
func computerCall(raw string) (contract.ToolCall, error) {
	var it computerItem
	if err := json.Unmarshal([]byte(raw), &it); err != nil {
		return contract.ToolCall{}, fmt.Errorf("a computer_call item is unreadable: %w", err)
	}
	acts := it.Actions
	if len(acts) == 0 && it.Action != nil {
		acts = []computerAction{*it.Action}
	}
	tc := contract.ToolCall{ID: it.CallID, Name: computerToolset, Toolset: computerToolset}
	if tc.ID == "" {
		tc.ID = it.ID
	}
	args, _ := json.Marshal(acts)
	tc.Arguments = string(args)
	for _, a := range acts {
		tc.Native = append(tc.Native, a.native())
	}
	if len(tc.Native) == 0 {
		tc.Native = []contract.NativeAction{{Vendor: "(no action)"}}
	}
	for _, sc := range it.Checks {
		tc.SafetyChecks = append(tc.SafetyChecks, contract.SafetyCheck{ID: sc.ID, Code: sc.Code, Message: sc.Message})
	}
	x, err := json.Marshal(extra{ComputerCall: json.RawMessage(raw)})
	if err != nil {
		return contract.ToolCall{}, err
	}
	tc.Extra = x
	return tc, nil
}

// vendorAction is how an action of one type reads: the neutral kind it
// is, and what of it fills the action besides its x and y.
type vendorAction struct {
	kind string
	read func(a computerAction, na *contract.NativeAction)
}

// vendorActions are the computer tool's actions this client carries out,
// by type: adding one is adding its record.
var vendorActions = map[string]vendorAction{
	"click":        {contract.NativeClick, readClick},
	"double_click": {kind: contract.NativeDoubleClick},
	"move":         {kind: contract.NativeMove},
	"drag": {contract.NativeDrag, func(a computerAction, na *contract.NativeAction) {
		for _, p := range a.Path {
			na.Path = append(na.Path, contract.Point{X: p.X, Y: p.Y})
		}
	}},
	"scroll": {contract.NativeScroll, func(a computerAction, na *contract.NativeAction) { na.ScrollX, na.ScrollY = a.ScrollX, a.ScrollY }},
	"type":   {contract.NativeType, func(a computerAction, na *contract.NativeAction) { na.Text = a.Text }},
	"keypress": {contract.NativeKey, func(a computerAction, na *contract.NativeAction) {
		na.Key = llm.KeyList(a.Keys)
	}},
	"wait":       {contract.NativeWait, func(_ computerAction, na *contract.NativeAction) { na.MS = 1000 }},
	"screenshot": {kind: contract.NativeScreenshot},
}

// readClick reads a click's button (wheel is middle) and the keys held.
func readClick(a computerAction, na *contract.NativeAction) {
	na.Button = a.Button
	if a.Button == "wheel" {
		na.Button = "middle"
	}
	if len(a.Keys) > 0 {
		na.Key = llm.KeyList(a.Keys)
	}
}

// native is the action in webagent's words. A type this client does not
// know keeps its name as the kind, which the loop refuses with the list of
// those it carries out.
func (a computerAction) native() contract.NativeAction {
	na := contract.NativeAction{Vendor: a.Type}
	if a.X != nil && a.Y != nil {
		na.At = &contract.Point{X: *a.X, Y: *a.Y}
	}
	v, ok := vendorActions[a.Type]
	if !ok {
		na.Kind = a.Type
		return na
	}
	na.Kind = v.kind
	if v.read != nil {
		v.read(a, &na)
	}
	return na
}

// computerItemParam is a kept computer_call item, to send back.
func computerItemParam(raw json.RawMessage) (responses.ResponseInputItemUnionParam, error) {
	var item responses.ResponseComputerToolCall
	if err := json.Unmarshal(raw, &item); err != nil {
		return responses.ResponseInputItemUnionParam{}, fmt.Errorf("a kept computer_call item is unreadable: %w", err)
	}
	p := item.ToParam()
	return responses.ResponseInputItemUnionParam{OfComputerCall: &p}, nil
}

// computerOutput is a native call's result: the screenshot (the latest
// of the conversation when the result has none, as for a call not run),
// the checks a person acknowledged, then its text as a user message,
// which says "failed" for a call that failed or was refused: a
// computer_call_output has no field for it.
func computerOutput(m contract.Message, latest []byte) []responses.ResponseInputItemUnionParam {
	img := latest
	if len(m.Images) > 0 {
		img = m.Images[len(m.Images)-1]
	}
	out := responses.ResponseInputItemComputerCallOutputParam{CallID: m.ToolCallID}
	if img != nil {
		out.Output.ImageURL = param.NewOpt(dataURL(img))
	}
	for _, sc := range m.Acknowledged {
		ack := responses.ResponseInputItemComputerCallOutputAcknowledgedSafetyCheckParam{ID: sc.ID}
		if sc.Code != "" {
			ack.Code = param.NewOpt(sc.Code)
		}
		if sc.Message != "" {
			ack.Message = param.NewOpt(sc.Message)
		}
		out.AcknowledgedSafetyChecks = append(out.AcknowledgedSafetyChecks, ack)
	}
	items := []responses.ResponseInputItemUnionParam{{OfComputerCallOutput: &out}}
	if text := strings.TrimSpace(m.Content); text != "" {
		did := " did: "
		if m.Failed {
			did = " failed: " // the item has no error field: the message says it
		}
		items = append(items, responses.ResponseInputItemParamOfMessage("The computer call "+m.ToolCallID+did+text, responses.EasyInputMessageRoleUser))
	}
	return items
}
