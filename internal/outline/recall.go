package outline

import (
	"fmt"
	"regexp"
	"strings"
)

// Finding a recorded element again: a trace names the elements its actions
// aimed at by the refs of the snapshot the model saw then. Replay and the
// run cache read that snapshot to learn what each element was (its role,
// its name, the text it stood near, which of several equal ones it was)
// and look for that element in the page now, never for the old ref.

// Recorded is an element as a recorded snapshot showed it.
type Recorded struct {
	Line  Line   // its line: role, name and the ref it had then
	Scope string // a nearby text line that told it from equal ones
	Nth   int    // which of the equal elements it was (0-based, page order)
}

// String names the element for people: `button "Open" near "Savings" (#2)`.
func (r Recorded) String() string {
	s := Target{Role: r.Line.Role, Name: r.Line.Name}.String()
	if r.Scope != "" {
		s += fmt.Sprintf(" near %q", r.Scope)
	}
	if r.Nth > 0 {
		s += fmt.Sprintf(" (#%d)", r.Nth+1)
	}
	return s
}

// Recall reads the element ref named in a recorded snapshot.
func Recall(old []Line, ref string) (Recorded, error) {
	for i, l := range old {
		if l.Ref != ref {
			continue
		}
		r := Recorded{Line: l}
		for j := 0; j < i; j++ {
			if sameElement(old[j], l) {
				r.Nth++
			}
		}
		if r.Nth > 0 || countSame(old, l) > 1 {
			r.Scope = scopeOf(old, i)
		}
		return r, nil
	}
	return Recorded{}, fmt.Errorf("the recorded snapshot has no element [ref=%s]: the trace is inconsistent", ref)
}

// Find returns the ref, in the snapshot now, of the element r was in the
// snapshot old: the one element of its role and name, or, among several,
// the one near the same text, or the one in the same place among them when
// there are as many as then. Names are compared exactly (white space
// collapsed) and, when nothing matches, ignoring case; the error of an
// element not found lists similar ones.
func (r Recorded) Find(now, old []Line) (string, error) {
	var hits []string
	for _, l := range now {
		if sameElement(l, r.Line) {
			hits = append(hits, l.Ref)
		}
	}
	tgt := Target{Role: r.Line.Role, Name: r.Line.Name}
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) == 0:
		return Resolve(now, tgt)
	}
	if r.Scope != "" {
		tgt.Scope = r.Scope
		if ref, err := Resolve(now, tgt); err == nil {
			return ref, nil
		}
	}
	if r.Nth < len(hits) && len(hits) == countSame(old, r.Line) {
		return hits[r.Nth], nil
	}
	return "", fmt.Errorf("%d elements %s on the page and none stands near %q as it did", len(hits), tgt, r.Scope)
}

func sameElement(a, b Line) bool {
	return a.Actionable() && a.Role == b.Role && collapse(a.Name) == collapse(b.Name)
}

func countSame(lines []Line, l Line) int {
	n := 0
	for _, x := range lines {
		if sameElement(x, l) {
			n++
		}
	}
	return n
}

// scopeOf finds a text that tells the element at i from its equals: the
// text of the nearest line before it (a table row: one of its cells) such
// that, in this snapshot, the element near that text (Resolve with it as
// the scope) is this element. "" when no line within 30 does.
func scopeOf(lines []Line, i int) string {
	l := lines[i]
	tells := func(s string) bool {
		if len(s) < 2 {
			return false
		}
		ref, err := Resolve(lines, Target{Role: l.Role, Name: l.Name, Scope: s})
		return err == nil && ref == l.Ref
	}
	for j := i - 1; j >= 0 && j >= i-30; j-- {
		text := lines[j].Name
		if lines[j].Role == "" {
			text = strings.TrimSpace(strings.TrimPrefix(lines[j].Text, "- "))
		}
		if strings.HasPrefix(text, "|") { // a table row: its cells
			for _, cell := range strings.Split(strings.Trim(text, "|"), "|") {
				if c := strings.TrimSpace(cell); tells(c) {
					return c
				}
			}
			continue
		}
		if tells(text) {
			return text
		}
	}
	return ""
}

// ElementOf names the element of ref in lines as a person reads it:
// `button "Sign in"`, or `[ref=e9]` when no line has it.
func ElementOf(lines []Line, ref string) string {
	for _, l := range lines {
		if l.Ref == ref {
			return Target{Role: l.Role, Name: l.Name}.String()
		}
	}
	return "[ref=" + ref + "]"
}

// refMark is a ref as an element line carries it.
var refMark = regexp.MustCompile(` ?\[ref=[^\]]*\]`)

// WithoutRefs is a snapshot with its refs taken out, so that two snapshots
// of the same page compare equal although their refs differ.
func WithoutRefs(snapshot string) string {
	return refMark.ReplaceAllString(snapshot, "")
}
