package agent

import (
	"errors"
	"slices"
	"time"

	"github.com/webagent/webagent/contract"
)

// PageTool is one of the tools that act on the page, as another front end
// (an MCP server) offers it: its definition and its time budget. Calls
// decode with ParseAction and run with a Browser's Do.
type PageTool struct {
	Def    contract.ToolDef
	Budget time.Duration
	// Params are the tool's arguments in the order the tool declares them
	// (ref first where it has one), as Def.Parameters describes them: for
	// a front end that takes them by position (webagent browser).
	Params []Param
}

// Param is one argument of a page tool.
type Param struct {
	Name string
	// Type is its JSON Schema type: string, integer, number, boolean or
	// array (of strings).
	Type     string
	Required bool
	Desc     string
}

// PageTools returns the tools that act on the page, in the order the loop
// offers them: not done, fail, ask_human or screenshot.
func PageTools() []PageTool {
	var out []PageTool
	for _, t := range tools {
		if !t.local {
			pt := PageTool{Def: t.def(), Budget: t.budget}
			for _, p := range t.props {
				pt.Params = append(pt.Params, Param{Name: p.name, Type: p.typ, Required: slices.Contains(t.required, p.name), Desc: p.desc})
			}
			out = append(out, pt)
		}
	}
	return out
}

var pageTools = newToolset(false, 0, false)

// ParseAction decodes a call of a page tool, with the checks the loop
// makes, into the Action a Browser performs and the call's budget (which
// wait and wait_for take from their arguments). Its error is written for a
// model: what is wrong and an example.
func ParseAction(name, arguments string) (contract.Action, time.Duration, error) {
	return parsePage(pageTools, name, arguments)
}

func parsePage(ts *toolset, name, arguments string) (contract.Action, time.Duration, error) {
	c, err := ts.parse(contract.ToolCall{Name: name, Arguments: arguments})
	if err != nil {
		return contract.Action{}, 0, err
	}
	if c.tool.local {
		return contract.Action{}, 0, errors.New(name + " is not a page tool")
	}
	return c.action, c.budget, nil
}

// recordedTools are the page tools as any run may have offered them: type
// without a ref too (vision marks).
var recordedTools = func() *toolset {
	ts := newToolset(false, 0, false)
	ts.typeAtFocus()
	return ts
}()

// ParseRecordedAction is ParseAction for a call a run made and recorded,
// in any of the forms a run offers its tools in (under vision marks, type
// without a ref, which types where the focus is).
func ParseRecordedAction(name, arguments string) (contract.Action, time.Duration, error) {
	return parsePage(recordedTools, name, arguments)
}
