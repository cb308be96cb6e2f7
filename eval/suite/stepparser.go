package suite

import (
	"fmt"
	"strings"
)

// The parsing of one step of a reference: its verb (stepVerb), then its
// target, operands and modifiers (stepParser).

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
