package anthropic

import (
	"encoding/json"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/llm"
)

// Claude's browser use tool, the client toolset browser_toolset_20260801
// (GA on the Messages API): one tools[] entry without a name; its members
// (navigate, read_page, find, form_input, left_click by coordinate or
// ref, screenshot, the tabs, ...) come as tool_use blocks with
// "toolset_name": "browser", and each is answered by a tool_result of that
// toolset holding a text, a browser_state block (the tabs) and, for a
// screenshot, the picture. Its refs are webagent's own.

// browserToolset is the toolset's name in tool_use and tool_result.
const browserToolset = "browser"

// browserTool is the toolset's entry in tools[], with its default members.
func browserTool() sdk.ToolUnionParam {
	return sdk.ToolUnionParam{OfBrowserToolset20260801: &sdk.BrowserToolset20260801Param{}}
}

// browserInput is the union of the browser members' inputs.
type browserInput struct {
	memberInput
	Target *struct {
		Type string  `json:"type"`
		Ref  string  `json:"ref"`
		X    float64 `json:"x"`
		Y    float64 `json:"y"`
	} `json:"target"`
	StartTarget *struct{ X, Y float64 } `json:"start_target"`
	URL         string                  `json:"url"`
	Ref         string                  `json:"ref"` // read_page: a part of the page
	Query       string                  `json:"query"`
	Value       any                     `json:"value"`
	TabID       string                  `json:"tab_id"`
	Modifiers   string                  `json:"modifiers"`
}

// browserAction reads a browser member's call as a neutral action: the
// computer's members with a target (a coordinate or a ref), and the
// browser's own.
func browserAction(name, input string) contract.NativeAction {
	var in browserInput
	if json.Unmarshal([]byte(input), &in) != nil {
		return contract.NativeAction{Vendor: name}
	}
	// The members the computer shares, read as its own from a coordinate.
	shared, _ := json.Marshal(in.memberInput)
	na := computerAction(name, string(shared))
	if t := in.Target; t != nil {
		if t.Type == "ref" || t.Ref != "" {
			na.Ref = t.Ref
		} else {
			na.At = &contract.Point{X: t.X, Y: t.Y}
		}
	}
	if in.Modifiers != "" {
		na.Key = llm.XdotoolKey(in.Modifiers)
	}
	switch name {
	case "left_click_drag":
		if in.StartTarget != nil && na.At != nil {
			na.Path, na.At = []contract.Point{{X: in.StartTarget.X, Y: in.StartTarget.Y}, *na.At}, nil
		}
	case "hover":
		na.Kind = contract.NativeMove
	case "navigate":
		na.Kind, na.URL = contract.NativeNavigate, in.URL
	case "read_page":
		na.Kind, na.Ref = contract.NativeReadPage, in.Ref
	case "get_page_text":
		na.Kind = contract.NativePageText
	case "find":
		na.Kind, na.Text = contract.NativeFind, in.Query
	case "form_input":
		na.Kind = contract.NativeFormInput
		switch v := in.Value.(type) {
		case string:
			na.Text = v
		default:
			raw, _ := json.Marshal(v)
			na.Text = string(raw)
		}
	case "scroll_to":
		na.Kind = contract.NativeScrollTo
	case "list_tabs":
		na.Kind, na.Op = contract.NativeTabs, contract.TabsList
	case "switch_tab":
		na.Kind, na.Op, na.Tab = contract.NativeTabs, contract.TabsSwitch, in.TabID
	case "close_tab":
		na.Kind, na.Op, na.Tab = contract.NativeTabs, contract.TabsClose, in.TabID
	case "new_tab":
		na.Kind, na.Op = contract.NativeTabs, "new"
	}
	return na
}

// browserState is the tabs as a browser_state block of a tool_result.
func browserState(s *contract.BrowserState) sdk.ToolResultBlockParamContentUnion {
	b := sdk.BrowserStateBlockParam{Tabs: []sdk.BrowserStateTabEntryParam{}}
	for _, t := range s.Tabs {
		e := sdk.BrowserStateTabEntryParam{TabID: t.ID, Title: t.Title, URL: t.URL}
		if t.Active {
			e.Active = sdk.Bool(true)
		}
		b.Tabs = append(b.Tabs, e)
	}
	return sdk.ToolResultBlockParamContentUnion{OfBrowserState: &b}
}
