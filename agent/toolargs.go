package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/webagent/webagent/contract"
)

// args are the arguments of every tool as the model sends them; a tool's
// props say which ones it takes. The browser action's own arguments decode
// straight into the embedded Action.
type args struct {
	contract.Action
	Submit    flexBool `json:"submit"`
	X         *int     `json:"x"`
	Y         *int     `json:"y"`
	ToX       *int     `json:"to_x"`
	ToY       *int     `json:"to_y"`
	Points    string   `json:"points"`
	Add       []string `json:"add"`
	TimeoutMS *int     `json:"timeout_ms"`
	Answer    string   `json:"answer"`
	Reason    string   `json:"reason"`
	Question  string   `json:"question"`
	// PageTool and Arguments are page_tool's name and arguments (its
	// name is the page tool's, not the action's).
	PageTool  string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Code      string          `json:"code"` // script's program
	// From, Subject and WaitMS are read_email's.
	From    string    `json:"from"`
	Subject string    `json:"subject"`
	WaitMS  *int      `json:"wait_ms"`
	Full    *flexBool `json:"full"` // snapshot's
}

// flexBool is a boolean that also takes "true" and "false", as some models
// send them.
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	switch string(bytes.Trim(data, `"`)) {
	case "true":
		*b = true
	case "false", "null", "":
		*b = false
	default:
		return &json.UnmarshalTypeError{Value: string(data)}
	}
	return nil
}

// call is a parsed tool call.
type call struct {
	tool   *tool
	id     string // the tool call's id
	args   args
	action contract.Action // the browser action (page tools)
	budget time.Duration   // the tool's budget for this call
	raw    json.RawMessage // the arguments as decode returned them (tool.params)
}

// parse decodes and validates a tool call. Its error message is written for
// the model.
func (ts *toolset) parse(tc contract.ToolCall) (call, error) {
	t, ok := ts.byName[tc.Name]
	if !ok {
		names := slices.Sorted(maps.Keys(ts.byName))
		return call{}, fmt.Errorf("unknown tool %q; the tools are: %s", tc.Name, strings.Join(names, ", "))
	}
	raw := strings.TrimSpace(tc.Arguments)
	if raw == "" {
		raw = "{}"
	}
	if t.decode != nil {
		checked, err := t.decode(json.RawMessage(raw))
		if err != nil {
			return call{}, err
		}
		return call{tool: t, budget: t.budget, raw: checked}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &fields); err != nil {
		return call{}, fmt.Errorf("the arguments of %s are not a valid JSON object (%v); send e.g. %s", t.name, err, example(t))
	}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		p, ok := t.prop(k)
		if !ok {
			return call{}, fmt.Errorf("%s has no argument %q; send e.g. %s", t.name, k, example(t))
		}
		var s string
		if p.enum != nil && json.Unmarshal(fields[k], &s) == nil && s != "" && !slices.Contains(p.enum, s) {
			return call{}, fmt.Errorf("%s %q is not one of %s", k, s, strings.Join(p.enum, ", "))
		}
	}
	for _, r := range t.required {
		if v := string(fields[r]); v == "" || v == "null" || v == `""` {
			return call{}, fmt.Errorf("%s needs the argument %q; send e.g. %s", t.name, r, example(t))
		}
	}
	c := call{tool: t, budget: t.budget}
	if err := json.Unmarshal([]byte(raw), &c.args); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			k := te.Field[strings.LastIndex(te.Field, ".")+1:]
			p, _ := t.prop(k)
			return call{}, fmt.Errorf("argument %q of %s must be %s", k, t.name, typeWords[p.typ])
		}
		return call{}, fmt.Errorf("the arguments of %s could not be read (%v); send e.g. %s", t.name, err, example(t))
	}
	c.action = c.args.Action
	c.action.Name, c.action.Submit, c.action.Options = t.name, bool(c.args.Submit), c.args.Add
	if t.name == contract.ActPageTool {
		c.action.Tool, c.action.Arguments = c.args.PageTool, objectArg(c.args.Arguments)
	}
	if err := c.setPoints(); err != nil {
		return call{}, err
	}
	if t.check != nil {
		if err := t.check(&c); err != nil {
			return call{}, err
		}
	}
	if t.do == nil && t.end == nil {
		// A browser action: the rules of its fields, which the browser
		// checks again.
		if err := c.action.Validate(); err != nil {
			return call{}, err
		}
	}
	return c, nil
}

var typeWords = map[string]string{"string": "a string", "boolean": "true or false", "integer": "a whole number", "array": "a list of strings", "object": "a JSON object"}

// objectArg is an object argument as the model sent it, or the object a
// string holds (some models send objects as JSON text).
func objectArg(raw json.RawMessage) json.RawMessage {
	var s string
	if json.Unmarshal(raw, &s) == nil && strings.HasPrefix(strings.TrimSpace(s), "{") {
		return json.RawMessage(s)
	}
	return raw
}

// setPoints reads the pointer arguments into the action: x and y, to_x and
// to_y. The rules of the points (a ref or a point, not both) are the
// action's (contract.Action.Validate).
func (c *call) setPoints() error {
	pair := func(xk, yk string, x, y *int) (*contract.Point, error) {
		switch {
		case x == nil && y == nil:
			return nil, nil
		case x == nil || y == nil:
			return nil, fmt.Errorf("%s needs both %s and %s", c.tool.name, xk, yk)
		}
		return &contract.Point{X: float64(*x), Y: float64(*y)}, nil
	}
	var err error
	if c.action.At, err = pair("x", "y", c.args.X, c.args.Y); err != nil {
		return err
	}
	c.action.To, err = pair("to_x", "to_y", c.args.ToX, c.args.ToY)
	return err
}

// What some tools read from their arguments beyond the action's fields.

// waitSlack is what the wait tool's budget adds to the time asked for, so
// that the wait itself, not its budget, ends it.
const waitSlack = time.Second

// waitBudget gives a wait call the time it asks for (Validate checks it is
// at most contract.MaxWait), and a little more.
func waitBudget(c *call) error {
	ms := min(max(int64(c.action.MS), 0), contract.MaxWait.Milliseconds())
	c.budget = time.Duration(ms)*time.Millisecond + waitSlack
	return nil
}

// readPoints reads mouse_path's points.
func readPoints(c *call) error {
	var err error
	c.action.Path, err = parsePoints(c.args.Points)
	return err
}

// waitForBudget gives a wait_for call its timeout_ms (10 s by default, at
// most contract.MaxWait).
func waitForBudget(c *call) error {
	switch ms := c.args.TimeoutMS; {
	case ms == nil:
		c.budget = 10 * time.Second
	case *ms <= 0:
		return fmt.Errorf("timeout_ms must be positive")
	default:
		c.budget = min(time.Duration(*ms)*time.Millisecond, contract.MaxWait)
	}
	return nil
}

// parsePoints parses "10,20 30,40": x,y pairs separated by spaces (or
// semicolons).
func parsePoints(s string) ([]contract.Point, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ';' || r == '\t' || r == '\n' })
	var out []contract.Point
	for _, f := range fields {
		f = strings.Trim(f, "()[]")
		xs, ys, ok := strings.Cut(f, ",")
		x, errx := strconv.ParseFloat(strings.TrimSpace(xs), 64)
		y, erry := strconv.ParseFloat(strings.TrimSpace(ys), 64)
		if !ok || errx != nil || erry != nil {
			return nil, fmt.Errorf("point %q is not x,y: give points as x,y pairs separated by spaces, e.g. \"10,20 60,20 60,70\"", f)
		}
		out = append(out, contract.Point{X: x, Y: y})
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("points needs at least two x,y points separated by spaces, e.g. \"10,20 60,20\"")
	}
	return out, nil
}

// example is a call of t with its required arguments, for error messages.
func example(t *tool) string {
	args := map[string]any{}
	for _, r := range t.required {
		switch r {
		case "ref":
			args[r] = "e12"
		case "url":
			args[r] = "https://example.org/"
		case "files":
			args[r] = []string{"photo.jpg"}
		case "op":
			args[r] = contract.TabsList
		case "ms":
			args[r] = 1000
		default:
			args[r] = "..."
		}
	}
	b, _ := json.Marshal(args)
	return string(b)
}
