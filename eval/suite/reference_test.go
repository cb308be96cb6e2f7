package suite

import (
	"strings"
	"testing"
)

func TestParseTurn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want string // steps rendered by describe, joined by " ; "
	}{
		{`click "Sign in"`, `click "Sign in"`},
		{`click link "Checkout"`, `click link:"Checkout"`},
		{`CLICK Button "Go"`, `click button:"Go"`},
		{`click ~"Cart ("`, `click ~"Cart ("`},
		{`click "Add to cart" in "Blue mug"`, `click "Add to cart" in "Blue mug"`},
		{`click "Edit" in the row of "Priya Patel"`, `click "Edit" in "Priya Patel"`},
		{`click "Edit" in row of "Priya Patel"`, `click "Edit" in "Priya Patel"`},
		{`type "Search" "blue mug" submit`, `type "Search" text="blue mug" +submit`},
		{`type textbox "Quantity" "3" in the row of "Red mug"`, `type textbox:"Quantity" text="3" in "Red mug"`},
		{`select "Shipping" "Express"`, `select "Shipping" option="Express"`},
		{`press "Enter"`, `press key="Enter"`},
		{`scroll down`, `scroll direction="down"`},
		{`scroll "UP"`, `scroll direction="UP"`},
		{`goto "/cart"`, `goto url="/cart"`},
		{`back`, `back`},
		{`expect "Thank you"`, `expect text="Thank you"`},
		{`expect no "Error"`, `expect no text="Error"`},
		{`done "It says \"hi\" \\ bye"`, `done answer="It says \"hi\" \\ bye"`},
		{`fail "cannot"`, `fail reason="cannot"`},
		{`type "A" "x"; type "B" "y"; click "Go"  # a comment`, `type "A" text="x" ; type "B" text="y" ; click "Go"`},
		{`click "Say # not a comment"`, `click "Say # not a comment"`},
		{`expect "Cart"; click "Checkout"`, `expect text="Cart" ; click "Checkout"`},
		{`done "Order {{/SO-[0-9]+/}}"`, `done answer="Order {{/SO-[0-9]+/}}"`},
	} {
		turn, err := parseTurn(tc.src)
		if err != nil {
			t.Errorf("parseTurn(%s): %v", tc.src, err)
			continue
		}
		var parts []string
		for _, s := range turn.Steps {
			parts = append(parts, describe(s))
		}
		if got := strings.Join(parts, " ; "); got != tc.want {
			t.Errorf("parseTurn(%s) = %s, want %s", tc.src, got, tc.want)
		}
	}
	turn, err := parseTurn(`scroll down until "Lighthouse in fog"`)
	if err != nil || turn.Until != "Lighthouse in fog" {
		t.Errorf("until: %+v, %v", turn, err)
	}
}

// describe renders a step for comparisons.
func describe(s Step) string {
	var b strings.Builder
	b.WriteString(s.Verb)
	if s.Not {
		b.WriteString(" no")
	}
	if s.Name != "" || verbs[s.Verb].target {
		b.WriteString(" ")
		if s.Role != "" {
			b.WriteString(s.Role + ":")
		}
		if s.Partial {
			b.WriteString("~")
		}
		b.WriteString(quote(s.Name))
	}
	for _, a := range verbs[s.Verb].args {
		if v, ok := s.Args[a.name]; ok {
			b.WriteString(" " + a.name + "=" + quote(v))
		}
	}
	for _, f := range verbs[s.Verb].flags {
		if s.Flags[f] {
			b.WriteString(" +" + f)
		}
	}
	if s.Scope != "" {
		b.WriteString(" in " + quote(s.Scope))
	}
	return b.String()
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

func TestParseTurnErrors(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		`klick "A"`:                     `unknown verb "klick"`,
		`"A"`:                           "a step starts with a verb",
		`click`:                         `click needs the element's name in quotes`,
		`click button`:                  `click needs the element's name in quotes`,
		`click ""`:                      "non-empty element name",
		`click "A`:                      "is not closed",
		`click "A\q"`:                   "use JSON escapes",
		`type "A"`:                      "type needs its text (a quoted string); got nothing",
		`select "A" Express`:            "select needs its option",
		`scroll sideways`:               "scroll needs its direction (up, down, left, right); got sideways",
		`click "A" "B"`:                 `unexpected "B" in a click step`,
		`click "A" submit`:              "unexpected submit",
		`press "Enter" in "X"`:          "unexpected in",
		`click "A" in`:                  "in needs the quoted text",
		`click "A" in "X" in "Y"`:       "only one in",
		`click "A" until`:               "until needs the quoted text",
		`click "A" until "x" until "y"`: "only one until",
		`click "A";`:                    "empty step",
		`; click "A"`:                   "empty step",
		`click "A"; expect "B"`:         "expect must come before the line's actions",
		`done "x" until "y"`:            "cannot be repeated with until",
		`expect "x" until "y"`:          "until needs an action",
		`click "A" @`:                   `unexpected '@'`,
		`done "{{/a(/}}"`:               "bad pattern",
		`done "{{state.x}}"`:            `"{{" starts no template`,
	} {
		_, err := parseTurn(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseTurn(%s) = %v, want an error with %q", src, err, want)
		}
	}
}

func TestParseReference(t *testing.T) {
	t.Parallel()
	ref, errs := parseReference([]refLine{{1, "  # setup"}, {2, `click "A"`}, {3, ""}, {4, `done "x"`}})
	if errs != nil || len(ref.Turns) != 2 || ref.Turns[0].Line != 2 || ref.Turns[1].Source != `done "x"` {
		t.Fatalf("ref = %+v, %v", ref, errs)
	}
	for _, tc := range []struct {
		lines []refLine
		line  int
		want  string
	}{
		{[]refLine{{1, "# nothing"}}, 0, "no steps"},
		{[]refLine{{1, `click "A"`}}, 1, "must end with done"},
		{[]refLine{{1, `done "x"`}, {2, `click "A"`}}, 1, "done must be the reference's last step"},
		{[]refLine{{1, `done "x"; click "A"`}}, 1, "last step"},
		{[]refLine{{1, `click "A"`}, {2, `klick "B"`}, {3, `type "C"`}}, 2, "unknown verb"},
	} {
		_, errs := parseReference(tc.lines)
		found := false
		for _, e := range errs {
			if e.line == tc.line && strings.Contains(e.msg, tc.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("parseReference(%v) = %v, want line %d: %q", tc.lines, errs, tc.line, tc.want)
		}
	}
	// Every bad line is reported, not only the first.
	if _, errs := parseReference([]refLine{{1, `klick "A"`}, {2, `klick "B"`}, {3, `done "x"`}}); len(errs) != 2 {
		t.Errorf("errs = %v, want 2", errs)
	}
}
