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

// parseStep parses one step's tokens: the verb, its target element, its
// operands, then its modifiers (in, until, flags). It returns the step and
// its until text, if any.
func parseStep(toks []token) (Step, string, error) {
	verb, spec, err := stepVerb(toks[0])
	if err != nil {
		return Step{}, "", err
	}
	p := &stepParser{verb: verb, spec: spec, rest: toks[1:]}
	st := Step{Verb: verb, Args: map[string]string{}}
	if verb == "expect" && p.skipWord("no") {
		st.Not = true
	}
	if spec.target {
		if err := p.target(&st); err != nil {
			return Step{}, "", err
		}
	}
	for _, a := range spec.args {
		text, err := p.operand(a)
		if err != nil {
			return Step{}, "", err
		}
		st.Args[a.name] = text
	}
	until, err := p.modifiers(&st)
	if err != nil {
		return Step{}, "", err
	}
	return st, until, nil
}

// stepVerb reads the verb a step starts with.
func stepVerb(t token) (string, verbSpec, error) {
	if t.kind != tWord {
		return "", verbSpec{}, fmt.Errorf("a step starts with a verb (%s), not %s", verbList(), t)
	}
	verb := strings.ToLower(t.text)
	spec, ok := verbs[verb]
	if !ok {
		return "", verbSpec{}, fmt.Errorf("unknown verb %q; the verbs are %s", t.text, verbList())
	}
	return verb, spec, nil
}

// stepParser reads the tokens of one step after its verb.
type stepParser struct {
	verb string
	spec verbSpec
	rest []token
}

// next takes the next token; ok is false when there is none.
func (p *stepParser) next() (t token, ok bool) {
	if len(p.rest) == 0 {
		return token{}, false
	}
	t, p.rest = p.rest[0], p.rest[1:]
	return t, true
}

// skipWord takes the next token if it is the bare word w (in any case).
func (p *stepParser) skipWord(w string) bool {
	if len(p.rest) > 0 && p.rest[0].kind == tWord && strings.EqualFold(p.rest[0].text, w) {
		p.rest = p.rest[1:]
		return true
	}
	return false
}

// tokenOrNothing names a token taken by next in a message: "nothing" when there
// was none.
func tokenOrNothing(t token, ok bool) string {
	if !ok {
		return "nothing"
	}
	return t.String()
}

// target reads the target element, [ROLE] "NAME" or [ROLE] ~"TEXT", into
// st.
func (p *stepParser) target(st *Step) error {
	if p.startsWithRole() {
		st.Role = strings.ToLower(p.rest[0].text)
		p.rest = p.rest[1:]
	}
	t, ok := p.next()
	if !ok || t.kind != tString && t.kind != tPartial {
		return fmt.Errorf(`%s needs the element's name in quotes, as in %s "Sign in" or %s button "Sign in"; got %s`, p.verb, p.verb, p.verb, tokenOrNothing(t, ok))
	}
	st.Name, st.Partial = t.text, t.kind == tPartial
	if strings.TrimSpace(st.Name) == "" && !st.Partial {
		return fmt.Errorf("%s needs a non-empty element name", p.verb)
	}
	return nil
}

// startsWithRole reports whether the next tokens are a role (a bare word
// that is no keyword) followed by a name.
func (p *stepParser) startsWithRole() bool {
	if len(p.rest) < 2 {
		return false
	}
	role, name := p.rest[0], p.rest[1]
	return role.kind == tWord && !keywords[strings.ToLower(role.text)] && (name.kind == tString || name.kind == tPartial)
}

// operand reads the operand a: a quoted string, or one of its bare words.
func (p *stepParser) operand(a argSpec) (string, error) {
	t, ok := p.next()
	switch {
	case ok && t.kind == tString:
	case ok && t.kind == tWord && contains(a.words, strings.ToLower(t.text)):
		t.text = strings.ToLower(t.text)
	default:
		hint := "a quoted string"
		if len(a.words) > 0 {
			hint = strings.Join(a.words, ", ")
		}
		return "", fmt.Errorf("%s needs its %s (%s); got %s", p.verb, a.name, hint, tokenOrNothing(t, ok))
	}
	if err := checkTemplates(t.text); err != nil {
		return "", fmt.Errorf("%s %s: %v", p.verb, a.name, err)
	}
	return t.text, nil
}

// modifiers reads what may follow the operands: `in "TEXT"` (for a verb
// with a target), `until "TEXT"` and the verb's flags. It returns the until
// text.
func (p *stepParser) modifiers(st *Step) (until string, err error) {
	for len(p.rest) > 0 {
		t, _ := p.next()
		w := strings.ToLower(t.text)
		switch {
		case t.kind == tWord && w == "in" && p.spec.target:
			err = p.scope(st)
		case t.kind == tWord && w == "until":
			err = p.until(&until)
		case t.kind == tWord && contains(p.spec.flags, w):
			if st.Flags == nil {
				st.Flags = map[string]bool{}
			}
			st.Flags[w] = true
		default:
			err = p.unexpected(t)
		}
		if err != nil {
			return "", err
		}
	}
	return until, nil
}

// scope reads the text after in: in "X" | in the row of "X" | in row of "X".
func (p *stepParser) scope(st *Step) error {
	for len(p.rest) > 0 && p.rest[0].kind == tWord && contains([]string{"the", "row", "of"}, strings.ToLower(p.rest[0].text)) {
		p.rest = p.rest[1:]
	}
	s, ok := p.next()
	if !ok || s.kind != tString {
		return fmt.Errorf(`in needs the quoted text of the row or container, as in in "Blue mug"`)
	}
	if st.Scope != "" {
		return fmt.Errorf("a step can have only one in")
	}
	st.Scope = s.text
	return nil
}

// until reads the text after until into *until.
func (p *stepParser) until(until *string) error {
	s, ok := p.next()
	if !ok || s.kind != tString {
		return fmt.Errorf(`until needs the quoted text to wait for, as in until "Lighthouse in fog"`)
	}
	if *until != "" {
		return fmt.Errorf("a line can have only one until")
	}
	*until = s.text
	return nil
}

// unexpected is the error for a token after the operands that is no
// modifier of the verb.
func (p *stepParser) unexpected(t token) error {
	extra := ""
	if p.spec.target {
		extra = `, in "TEXT"`
	}
	for _, f := range p.spec.flags {
		extra += ", " + f
	}
	return fmt.Errorf("unexpected %s in a %s step (after the operands it takes only: until \"TEXT\"%s)", t, p.verb, extra)
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
