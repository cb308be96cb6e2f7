package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/webagent/webagent/contract"
)

// CustomTool is a function of the embedding program that the model may
// call, beside the browser's tools: a name, a JSON Schema for its
// arguments and the function. It runs under its own Budget, enforced like
// every tool's by the dispatcher (and the operation timeout above it), so a
// function that ignores its context is abandoned and the model told.
type CustomTool struct {
	// Name is how the model calls it: letters, digits, '_' and '-', at
	// most 64, not the name of a built-in tool.
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// Parameters is the JSON Schema of the arguments, an object schema;
	// nil for a tool without arguments. Calls whose arguments break it are
	// refused with the reason before Run is called.
	Parameters json.RawMessage
	// Budget bounds one call; DefaultCustomToolBudget if 0. It must be
	// below the operation timeout.
	Budget time.Duration
	// Run performs a call. Its text goes back to the model; an error goes
	// back as a failed call (counted in the error budget) and the task
	// goes on. ctx ends at the budget.
	Run func(ctx context.Context, args json.RawMessage) (string, error)
	// RunPage, set instead of Run, performs a call whose work is page
	// calls (a routine, package routine): each call it makes through page
	// is a call of the run, made as a script's are (see PageCaller). It
	// runs under the script's bound (ScriptBudget, within the
	// iteration's), not Budget.
	RunPage func(ctx context.Context, args json.RawMessage, page PageCaller) (string, error)
}

// DefaultCustomToolBudget is a CustomTool's budget when it sets none.
const DefaultCustomToolBudget = 30 * time.Second

// WithTools offers the model the program's own tools.
func WithTools(tools ...CustomTool) Option {
	return func(c *config) { c.custom = append(c.custom, tools...) }
}

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// customTools turns the configured CustomTools into tool records, or says
// what is wrong with one.
func (c *config) buildCustomTools() ([]*tool, error) {
	builtin := newToolset(true, time.Second, true).byName
	seen := map[string]bool{}
	var out []*tool
	for _, ct := range c.custom {
		switch {
		case !toolNameRE.MatchString(ct.Name):
			return nil, fmt.Errorf("agent: custom tool name %q: use 1 to 64 letters, digits, '_' or '-'", ct.Name)
		case builtin[ct.Name] != nil:
			return nil, fmt.Errorf("agent: custom tool %q has the name of a built-in tool; choose another", ct.Name)
		case seen[ct.Name]:
			return nil, fmt.Errorf("agent: two custom tools are named %q", ct.Name)
		case ct.Run == nil && ct.RunPage == nil:
			return nil, fmt.Errorf("agent: custom tool %q has no Run function", ct.Name)
		case ct.Run != nil && ct.RunPage != nil:
			return nil, fmt.Errorf("agent: custom tool %q has both Run and RunPage; give one", ct.Name)
		case ct.Budget < 0:
			return nil, fmt.Errorf("agent: custom tool %q: the budget %s is negative", ct.Name, ct.Budget)
		}
		seen[ct.Name] = true
		budget := ct.Budget
		if budget == 0 {
			budget = DefaultCustomToolBudget
		}
		if ct.RunPage != nil {
			budget = ScriptBudget
		} else if c.lim.OperationTimeout > 0 && budget >= c.lim.OperationTimeout {
			return nil, fmt.Errorf("agent: custom tool %q: its budget %s must be below the operation timeout %s, the backstop above every tool", ct.Name, budget, c.lim.OperationTimeout)
		}
		params := ct.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
		}
		rs, err := compileParams(params)
		if err != nil {
			return nil, fmt.Errorf("agent: custom tool %q: %w", ct.Name, err)
		}
		fn := ct.Run
		t := &tool{name: ct.Name, desc: ct.Description, budget: budget, local: true, params: params,
			decode: func(raw json.RawMessage) (json.RawMessage, error) {
				var v any
				if err := json.Unmarshal(raw, &v); err != nil {
					return nil, fmt.Errorf("the arguments of %s are not JSON: %v", ct.Name, err)
				}
				if err := rs.Validate(v); err != nil {
					return nil, fmt.Errorf("the arguments of %s do not match its schema: %s", ct.Name, strings.TrimPrefix(err.Error(), "validating root: "))
				}
				return raw, nil
			},
			do: func(ctx context.Context, _ *run, c call, _ *iterOut) (contract.Outcome, error) {
				text, err := fn(ctx, c.raw)
				if err != nil {
					if ctx.Err() != nil {
						return contract.Outcome{}, ctx.Err()
					}
					var ae *contract.ActionError
					if errors.As(err, &ae) {
						return contract.Outcome{}, ae
					}
					return contract.Outcome{}, &contract.ActionError{Msg: err.Error(), Err: err}
				}
				return contract.Outcome{Text: text}, nil
			}}
		if ct.RunPage != nil {
			t.local, t.do = false, pageToolRun(ct.RunPage)
		}
		out = append(out, t)
	}
	return out, nil
}

// compileParams checks a tool's parameter schema: an object schema.
func compileParams(raw json.RawMessage) (*jsonschema.Resolved, error) {
	s, err := compileAnswerSchema(raw)
	if err != nil {
		return nil, errors.New(strings.Replace(err.Error(), "the answer schema", "the parameters' schema", 1))
	}
	var top struct {
		Type any `json:"type"`
	}
	_ = json.Unmarshal(raw, &top)
	if top.Type != "object" {
		return nil, errors.New(`the parameters' schema must have "type": "object"`)
	}
	return s.resolved, nil
}

// add offers one more tool.
func (ts *toolset) add(t *tool) {
	ts.byName[t.name] = t
	ts.defs = append(ts.defs, t.def())
}

// addCustom offers the custom tools after the built-in ones.
func (ts *toolset) addCustom(tools []*tool) {
	for _, t := range tools {
		ts.byName[t.name] = t
		ts.defs = append(ts.defs, t.def())
	}
}
