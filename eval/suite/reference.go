package suite

import (
	"fmt"
	"strings"
)

// Reference is a task's reference solution: turns of steps that a scripted
// model (ReferencePolicy) plays against the agent, naming elements by role
// and name rather than by ref.
type Reference struct {
	Turns []Turn
}

// Turn is one line of a reference: the steps sent in one model reply.
type Turn struct {
	// Line is the turn's line in the task file; Source is the line as
	// written.
	Line   int
	Source string
	Steps  []Step
	// Until, when set, repeats the turn until the text appears in the
	// observation (not at all if it is there already), at most MaxRepeats
	// times.
	Until string
}

// MaxRepeats bounds how often a turn with "until" is repeated.
const MaxRepeats = 25

// Step is one tool call of a reference (or an "expect", which makes none).
type Step struct {
	Verb string
	// Role and Name identify the target element of a verb that takes one;
	// Role "" matches any role. Partial matches names containing Name.
	Role    string
	Name    string
	Partial bool
	// Scope restricts the target to the element nearest the line holding
	// this text (`in "Blue mug"`, `in the row of "Blue mug"`).
	Scope string
	// Args holds the verb's operands by argument name ("text", "option",
	// "key", "direction", "url", "answer", "reason"); Flags its bare
	// words ("submit").
	Args  map[string]string
	Flags map[string]bool
	// Not is set for `expect no "text"`.
	Not bool
}

// argSpec is one positional operand of a verb.
type argSpec struct {
	name  string
	words []string // bare words accepted instead of a quoted string
}

// verbSpec describes a verb of the reference grammar. Adding a tool to the
// grammar is adding an entry to verbs.
type verbSpec struct {
	tool   string    // the tool called; "" for a step the policy checks itself
	target bool      // takes [ROLE] "NAME", sent as the "ref" argument
	args   []argSpec // quoted operands after the target, in order
	flags  []string  // bare words that set a boolean argument to true
	final  bool      // ends the task: must be the reference's last step
}

var verbs = map[string]verbSpec{
	"click":  {tool: "click", target: true},
	"type":   {tool: "type", target: true, args: []argSpec{{name: "text"}}, flags: []string{"submit"}},
	"select": {tool: "select", target: true, args: []argSpec{{name: "option"}}},
	"press":  {tool: "press", args: []argSpec{{name: "key"}}},
	"scroll": {tool: "scroll", args: []argSpec{{name: "direction", words: []string{"up", "down", "left", "right"}}}},
	"goto":   {tool: "goto", args: []argSpec{{name: "url"}}},
	"back":   {tool: "back"},
	"done":   {tool: "done", args: []argSpec{{name: "answer"}}, final: true},
	"fail":   {tool: "fail", args: []argSpec{{name: "reason"}}, final: true},
	"expect": {args: []argSpec{{name: "text"}}},
}

// keywords cannot be roles.
var keywords = map[string]bool{"in": true, "until": true, "no": true, "submit": true}

// refLine is one line of reference text and its line in the file.
type refLine struct {
	line int
	text string
}

// parseReference parses reference lines. Blank lines and lines starting
// with '#' are skipped.
func parseReference(lines []refLine) (*Reference, []lineError) {
	ref := &Reference{}
	var errs []lineError
	for _, l := range lines {
		src := strings.TrimSpace(l.text)
		if src == "" || strings.HasPrefix(src, "#") {
			continue
		}
		turn, err := parseTurn(src)
		if err != nil {
			errs = append(errs, lineError{l.line, err.Error()})
			continue
		}
		turn.Line, turn.Source = l.line, src
		ref.Turns = append(ref.Turns, turn)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if len(ref.Turns) == 0 {
		return nil, []lineError{{0, "the reference has no steps"}}
	}
	for i, t := range ref.Turns {
		for j, s := range t.Steps {
			if verbs[s.Verb].final && (i != len(ref.Turns)-1 || j != len(t.Steps)-1) {
				errs = append(errs, lineError{t.Line, fmt.Sprintf("%s must be the reference's last step", s.Verb)})
			}
		}
	}
	last := ref.Turns[len(ref.Turns)-1]
	if lastStep := last.Steps[len(last.Steps)-1]; !verbs[lastStep.Verb].final {
		errs = append(errs, lineError{last.Line, `the reference must end with done "ANSWER" (or fail "REASON")`})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return ref, nil
}

// lineError is a parse error at a line of the file (0: the field's line).
type lineError struct {
	line int
	msg  string
}

// parseTurn parses one line: steps separated by ';'.
func parseTurn(src string) (Turn, error) {
	toks, err := tokenize(src)
	if err != nil {
		return Turn{}, err
	}
	var t Turn
	var cur []token
	flush := func() error {
		if len(cur) == 0 {
			return fmt.Errorf("empty step (two ';' in a row, or a ';' at an end)")
		}
		st, until, err := parseStep(cur)
		if err != nil {
			return err
		}
		if until != "" {
			if t.Until != "" {
				return fmt.Errorf("a line can have only one until")
			}
			t.Until = until
		}
		t.Steps = append(t.Steps, st)
		cur = nil
		return nil
	}
	for _, tok := range toks {
		if tok.kind == tSemi {
			if err := flush(); err != nil {
				return Turn{}, err
			}
			continue
		}
		cur = append(cur, tok)
	}
	if err := flush(); err != nil {
		return Turn{}, err
	}
	acted := false
	for _, s := range t.Steps {
		switch {
		case s.Verb == "expect" && acted:
			return Turn{}, fmt.Errorf(`expect must come before the line's actions: it checks the page the line starts on`)
		case s.Verb != "expect":
			acted = true
		}
		if verbs[s.Verb].final && t.Until != "" {
			return Turn{}, fmt.Errorf("%s cannot be repeated with until", s.Verb)
		}
	}
	if t.Until != "" && !acted {
		return Turn{}, fmt.Errorf("until needs an action to repeat")
	}
	return t, nil
}

func verbList() string {
	names := make([]string, 0, len(verbs))
	for _, v := range []string{"click", "type", "select", "press", "scroll", "goto", "back", "expect", "done", "fail"} {
		if _, ok := verbs[v]; ok {
			names = append(names, v)
		}
	}
	for v := range verbs {
		if !contains(names, v) {
			names = append(names, v)
		}
	}
	return strings.Join(names, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
