package suite

import (
	"encoding/json"
	"fmt"
	"regexp"
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

type tokKind int

const (
	tWord tokKind = iota
	tString
	tPartial // ~"text"
	tSemi
)

type token struct {
	kind tokKind
	text string
}

func (t token) String() string {
	switch t.kind {
	case tString:
		return fmt.Sprintf("%q", t.text)
	case tPartial:
		return fmt.Sprintf("~%q", t.text)
	case tSemi:
		return "';'"
	}
	return t.text
}

// tokenize splits a line into words, quoted strings (JSON escapes), ~"…"
// and ';'. A '#' outside quotes starts a comment.
func tokenize(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '#':
			return toks, nil
		case c == ';':
			toks = append(toks, token{kind: tSemi})
			i++
		case c == '"' || c == '~' && i+1 < len(s) && s[i+1] == '"':
			kind := tString
			if c == '~' {
				kind, i = tPartial, i+1
			}
			end := i + 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, fmt.Errorf("the string starting at column %d is not closed with \"", i+1)
			}
			var v string
			if err := json.Unmarshal([]byte(s[i:end+1]), &v); err != nil {
				return nil, fmt.Errorf("bad string %s: use JSON escapes such as \\\" and \\\\", s[i:end+1])
			}
			toks = append(toks, token{kind: kind, text: v})
			i = end + 1
		case isWordByte(c):
			end := i
			for end < len(s) && isWordByte(s[end]) {
				end++
			}
			toks = append(toks, token{kind: tWord, text: s[i:end]})
			i = end
		default:
			return nil, fmt.Errorf("unexpected %q at column %d (quote names and text with \")", c, i+1)
		}
	}
	return toks, nil
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
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

// parseStep parses one step's tokens. It returns the step and its until
// text, if any.
func parseStep(toks []token) (Step, string, error) {
	if toks[0].kind != tWord {
		return Step{}, "", fmt.Errorf("a step starts with a verb (%s), not %s", verbList(), toks[0])
	}
	verb := strings.ToLower(toks[0].text)
	spec, ok := verbs[verb]
	if !ok {
		return Step{}, "", fmt.Errorf("unknown verb %q; the verbs are %s", toks[0].text, verbList())
	}
	st := Step{Verb: verb, Args: map[string]string{}}
	rest := toks[1:]
	next := func() (token, bool) {
		if len(rest) == 0 {
			return token{}, false
		}
		t := rest[0]
		rest = rest[1:]
		return t, true
	}
	if verb == "expect" && len(rest) > 0 && rest[0].kind == tWord && strings.EqualFold(rest[0].text, "no") {
		st.Not = true
		rest = rest[1:]
	}
	if spec.target {
		if len(rest) >= 2 && rest[0].kind == tWord && !keywords[strings.ToLower(rest[0].text)] && (rest[1].kind == tString || rest[1].kind == tPartial) {
			st.Role = strings.ToLower(rest[0].text)
			rest = rest[1:]
		}
		t, ok := next()
		if !ok || t.kind != tString && t.kind != tPartial {
			got := "nothing"
			if ok {
				got = t.String()
			}
			return Step{}, "", fmt.Errorf(`%s needs the element's name in quotes, as in %s "Sign in" or %s button "Sign in"; got %s`, verb, verb, verb, got)
		}
		st.Name, st.Partial = t.text, t.kind == tPartial
		if strings.TrimSpace(st.Name) == "" && !st.Partial {
			return Step{}, "", fmt.Errorf("%s needs a non-empty element name", verb)
		}
	}
	for _, a := range spec.args {
		t, ok := next()
		switch {
		case ok && t.kind == tString:
		case ok && t.kind == tWord && contains(a.words, strings.ToLower(t.text)):
			t.text = strings.ToLower(t.text)
		default:
			got := "nothing"
			if ok {
				got = t.String()
			}
			hint := "a quoted string"
			if len(a.words) > 0 {
				hint = strings.Join(a.words, ", ")
			}
			return Step{}, "", fmt.Errorf("%s needs its %s (%s); got %s", verb, a.name, hint, got)
		}
		if err := checkTemplates(t.text); err != nil {
			return Step{}, "", fmt.Errorf("%s %s: %v", verb, a.name, err)
		}
		st.Args[a.name] = t.text
	}
	var until string
	for len(rest) > 0 {
		t, _ := next()
		w := strings.ToLower(t.text)
		switch {
		case t.kind == tWord && w == "in" && spec.target:
			// in "X" | in the row of "X" | in row of "X"
			for len(rest) > 0 && rest[0].kind == tWord && contains([]string{"the", "row", "of"}, strings.ToLower(rest[0].text)) {
				rest = rest[1:]
			}
			s, ok := next()
			if !ok || s.kind != tString {
				return Step{}, "", fmt.Errorf(`in needs the quoted text of the row or container, as in in "Blue mug"`)
			}
			if st.Scope != "" {
				return Step{}, "", fmt.Errorf("a step can have only one in")
			}
			st.Scope = s.text
		case t.kind == tWord && w == "until":
			s, ok := next()
			if !ok || s.kind != tString {
				return Step{}, "", fmt.Errorf(`until needs the quoted text to wait for, as in until "Lighthouse in fog"`)
			}
			if until != "" {
				return Step{}, "", fmt.Errorf("a line can have only one until")
			}
			until = s.text
		case t.kind == tWord && contains(spec.flags, w):
			if st.Flags == nil {
				st.Flags = map[string]bool{}
			}
			st.Flags[w] = true
		default:
			extra := ""
			if spec.target {
				extra = `, in "TEXT"`
			}
			for _, f := range spec.flags {
				extra += ", " + f
			}
			return Step{}, "", fmt.Errorf("unexpected %s in a %s step (after the operands it takes only: until \"TEXT\"%s)", t, verb, extra)
		}
	}
	return st, until, nil
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

// Templates in step text: {{/REGEX/}} is replaced by the first match of
// REGEX in the latest observation (its first group when it has one).
var templateRe = regexp.MustCompile(`\{\{/(.*?)/\}\}`)

func checkTemplates(s string) error {
	for _, m := range templateRe.FindAllStringSubmatch(s, -1) {
		if _, err := regexp.Compile(m[1]); err != nil {
			return fmt.Errorf("bad pattern in {{/%s/}}: %v", m[1], err)
		}
	}
	if strings.Contains(templateRe.ReplaceAllString(s, ""), "{{") {
		return fmt.Errorf(`"{{" starts no template; write {{/REGEX/}} to insert text matched on the page`)
	}
	return nil
}

// expand fills the templates of s from the observation.
func expand(s, obs string) (string, error) {
	var err error
	out := templateRe.ReplaceAllStringFunc(s, func(m string) string {
		pat := templateRe.FindStringSubmatch(m)[1]
		re := regexp.MustCompile(pat) // checked at load
		sub := re.FindStringSubmatch(obs)
		switch {
		case sub == nil:
			if err == nil {
				err = fmt.Errorf("nothing on the page matches /%s/", pat)
			}
			return m
		case len(sub) > 1:
			return sub[1]
		default:
			return sub[0]
		}
	})
	return out, err
}
