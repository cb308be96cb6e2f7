package routine

import (
	"fmt"
	"strings"

	"github.com/webagent/webagent/internal/outline"
)

// Target is an element as a routine names it: its role and name, the
// text it stands near, and which of several equal ones it is.
type Target struct {
	Role string `json:"role"`
	Name string `json:"name"`
	// Near is a text the element stands near (a table row's cell, a
	// heading); "" for the whole page.
	Near string `json:"near,omitempty"`
	// Nth picks one of several equal elements (1-based, page order); 0
	// for the first.
	Nth int `json:"nth,omitempty"`
}

func (t Target) String() string {
	s := outline.Target{Role: t.Role, Name: t.Name}.String()
	if t.Near != "" {
		s += fmt.Sprintf(" near %q", t.Near)
	}
	if t.Nth > 1 {
		s += fmt.Sprintf(" (#%d)", t.Nth)
	}
	return s
}

// literal writes t as the program does; value writes its strings (a
// parameter's value read from params).
func (t Target) literal(value func(v any, field string) string) string {
	parts := []string{"role: " + jsLiteral(t.Role), "name: " + value(t.Name, t.Role)}
	if t.Near != "" {
		parts = append(parts, "near: "+value(t.Near, ""))
	}
	if t.Nth > 1 {
		parts = append(parts, fmt.Sprintf("nth: %d", t.Nth))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// find is the ref of the element t names in a snapshot's lines.
func (t Target) find(lines []outline.Line) (string, error) {
	if t.Nth > 1 {
		var hits []string
		for _, l := range lines {
			if l.Actionable() && l.Role == t.Role && collapse(l.Name) == collapse(t.Name) {
				hits = append(hits, l.Ref)
			}
		}
		if t.Nth > len(hits) {
			return "", fmt.Errorf("no element %s: the page has %d %s", t, len(hits), outline.Target{Role: t.Role, Name: t.Name})
		}
		return hits[t.Nth-1], nil
	}
	return outline.Resolve(lines, outline.Target{Role: t.Role, Name: t.Name, Scope: t.Near})
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
