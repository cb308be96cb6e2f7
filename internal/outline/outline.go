// Package outline reads the page snapshots package browser writes: an
// indented outline in which every element a model can act on stands on its
// own line,
//
//	<indent>[- ]ROLE "NAME" STATES [ref=ID]
//
// where NAME escapes `"` and `\` as JSON does. Other lines are page text,
// headings (`heading "Cart" [level=1]`) and table rows. The eval harness,
// the scripted test model and trace replay find elements here by what they
// are (role, name, the text near them), never by a ref remembered from
// another snapshot.
package outline

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Line is one line of a page snapshot.
type Line struct {
	Indent int    // leading spaces (a tab counts 2)
	Text   string // the line without its indentation
	// Role and Name are read from an element line, `[- ]ROLE "NAME" ...`,
	// with or without a ref; both are "" for plain text.
	Role, Name string
	Ref        string // the element's handle; "" when it has none
}

// Actionable reports whether the line is an element a tool can act on.
func (l Line) Actionable() bool { return l.Ref != "" }

// Parse splits a snapshot into its non-blank lines, reading the role, name
// and ref of each element line. After a delta's header (DeltaHeader) it
// reads the lines a delta added or changed, as they are now, and skips
// the removed ones and the unchanged lines that place them.
func Parse(snapshot string) []Line {
	var out []Line
	delta := false
	for raw := range strings.Lines(snapshot) {
		raw = strings.TrimRight(raw, "\r\n")
		if raw+"\n" == DeltaHeader {
			delta = true
			continue
		}
		if delta {
			var ok bool
			if raw, ok = deltaLine(raw); !ok {
				continue
			}
		}
		indent := 0
		i := 0
		for ; i < len(raw); i++ {
			if raw[i] == ' ' {
				indent++
			} else if raw[i] == '\t' {
				indent += 2
			} else {
				break
			}
		}
		text := raw[i:]
		if strings.TrimSpace(text) == "" {
			continue
		}
		l := Line{Indent: indent, Text: text}
		l.Role, l.Name, l.Ref = parseElement(text)
		out = append(out, l)
	}
	return out
}

// parseElement reads `[- ]ROLE ["NAME"] ... [ref=ID]`. ref is "" for a line
// that is not an actionable element; role and name are also read from
// lines such as `heading "Cart" [level=1]` that have none.
func parseElement(s string) (role, name, ref string) {
	s = strings.TrimPrefix(s, "- ")
	head := s
	if i := strings.LastIndex(s, "[ref="); i >= 0 {
		if r, _, ok := strings.Cut(s[i+len("[ref="):], "]"); ok && r != "" {
			ref, head = r, s[:i]
		}
	}
	word, rest, _ := strings.Cut(head, " ")
	word = strings.TrimSuffix(word, ":")
	if word == "" || !isRoleWord(word) {
		return "", "", ""
	}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, `"`) {
		if end := closingQuote(rest); end > 0 {
			if err := json.Unmarshal([]byte(rest[:end+1]), &name); err != nil {
				name = rest[1:end]
			}
		}
	} else if ref == "" {
		return "", "", "" // plain text, not `role "name"`
	}
	return word, name, ref
}

func isRoleWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// Target is an element as a person names it: its role (optional), its
// name, and the text it stands near.
type Target struct {
	Role    string // "" matches any role
	Name    string
	Partial bool   // Name need only be contained in the element's name
	Scope   string // text of a line the element stands near (a row, a heading); "" for the whole page
}

func (t Target) String() string {
	var b strings.Builder
	if t.Role != "" {
		b.WriteString(t.Role + " ")
	}
	if t.Partial {
		b.WriteString("~")
	}
	fmt.Fprintf(&b, "%q", t.Name)
	if t.Scope != "" {
		fmt.Fprintf(&b, " in %q", t.Scope)
	}
	return b.String()
}

// matches reports whether l is an element t names; fold compares names
// ignoring case.
func (t Target) matches(l Line, fold bool) bool {
	if !l.Actionable() || t.Role != "" && l.Role != t.Role {
		return false
	}
	name, want := collapse(l.Name), collapse(t.Name)
	if fold {
		name, want = strings.ToLower(name), strings.ToLower(want)
	}
	if t.Partial {
		return strings.Contains(name, want)
	}
	return name == want
}

// Resolve finds the ref of the element t names in the snapshot lines.
//
// Without a scope it is the first element, in page order, whose role (when
// given) and name match.
//
// With a scope, the anchors are the lines holding the scope text, best
// first: lines whose own content is exactly the text (a heading, an
// element's name, a table cell), then lines whose content contains it,
// then lines where it is only in a value. For each anchor in turn the
// element is searched in the anchor's subtree, then its parent's and so on,
// short of the whole page; at the first level holding a match the nearest
// match after the anchor wins, else the nearest before it. When no anchor
// has a match inside its containers, the whole page is searched the same
// way from the best anchor. So `click "Edit" in the row of "Priya Patel"`
// finds the link under Priya's table row, and `click "Add to cart" in "Blue
// mug"` the first Add to cart after the Blue mug heading of a flat list,
// even when a notice mentioning Blue mug stands above the list.
//
// Names are compared exactly (white space collapsed) and, when nothing
// matches, ignoring case.
func Resolve(lines []Line, t Target) (string, error) {
	for _, fold := range []bool{false, true} {
		if t.Scope == "" {
			for _, l := range lines {
				if t.matches(l, fold) {
					return l.Ref, nil
				}
			}
			continue
		}
		anchors := findAnchors(lines, t.Scope)
		if len(anchors) == 0 {
			return "", fmt.Errorf("no line of the page contains %q", t.Scope)
		}
		for _, a := range anchors {
			for node := a; node >= 0; node = parent(lines, node) {
				if ref, ok := nearest(lines, t, fold, a, node); ok {
					return ref, nil
				}
			}
		}
		if ref, ok := nearest(lines, t, fold, anchors[0], -1); ok {
			return ref, nil
		}
	}
	if t.Scope != "" {
		return "", fmt.Errorf("no element %s near the line containing %q%s", Target{Role: t.Role, Name: t.Name, Partial: t.Partial}, t.Scope, candidates(lines, t))
	}
	return "", fmt.Errorf("no element %s on the page%s", t, candidates(lines, t))
}

// nearest searches node's subtree (the whole page for -1) for t: the
// nearest match at or after the anchor, else the nearest before it.
func nearest(lines []Line, t Target, fold bool, anchor, node int) (string, bool) {
	lo, hi := subtree(lines, node)
	for i := anchor; i < hi; i++ {
		if t.matches(lines[i], fold) {
			return lines[i].Ref, true
		}
	}
	for i := anchor - 1; i >= lo; i-- {
		if t.matches(lines[i], fold) {
			return lines[i].Ref, true
		}
	}
	return "", false
}

// findAnchors returns the indexes of the lines holding text, best first
// (see resolve); within a rank, exact case before folded case, then page
// order.
func findAnchors(lines []Line, text string) []int {
	want := collapse(text)
	var out []int
	seen := map[int]bool{}
	for _, fold := range []bool{false, true} {
		norm := func(s string) string {
			s = collapse(s)
			if fold {
				s = strings.ToLower(s)
			}
			return s
		}
		w := norm(want)
		for rank := 0; rank < 3; rank++ {
			for i, l := range lines {
				if seen[i] {
					continue
				}
				var hit bool
				switch rank {
				case 0:
					hit = norm(l.content()) == w
					if !hit && strings.HasPrefix(l.Text, "|") {
						for _, cell := range strings.Split(strings.Trim(l.Text, "|"), "|") {
							if norm(cell) == w {
								hit = true
							}
						}
					}
				case 1:
					hit = strings.Contains(norm(l.content()), w)
				case 2:
					hit = strings.Contains(norm(l.Text), w)
				}
				if hit {
					seen[i] = true
					out = append(out, i)
				}
			}
		}
	}
	return out
}

// content is a line's own text: an element's name, else the line's text
// without a list bullet.
func (l Line) content() string {
	if l.Role != "" {
		return l.Name
	}
	return strings.TrimPrefix(l.Text, "- ")
}

// subtree returns the range [lo, hi) of node's subtree: the node and the
// lines after it indented deeper. node -1 is the whole page.
func subtree(lines []Line, node int) (int, int) {
	if node < 0 {
		return 0, len(lines)
	}
	hi := node + 1
	for hi < len(lines) && lines[hi].Indent > lines[node].Indent {
		hi++
	}
	return node, hi
}

// parent returns the nearest line before node indented less, or -1.
func parent(lines []Line, node int) int {
	for i := node - 1; i >= 0; i-- {
		if lines[i].Indent < lines[node].Indent {
			return i
		}
	}
	return -1
}

// candidates lists a few elements with the same role or a similar name, to
// make a failure easy to diagnose.
func candidates(lines []Line, t Target) string {
	var c []string
	want := strings.ToLower(t.Name)
	for _, l := range lines {
		if !l.Actionable() {
			continue
		}
		n := strings.ToLower(l.Name)
		if (t.Role != "" && l.Role == t.Role) || want != "" && (strings.Contains(n, want) || n != "" && strings.Contains(want, n)) {
			c = append(c, fmt.Sprintf("%s %q", l.Role, l.Name))
		}
		if len(c) == 8 {
			break
		}
	}
	if len(c) == 0 {
		return ""
	}
	return "; similar elements: " + strings.Join(c, ", ")
}

// collapse trims s and turns every run of white space into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// FindRef returns the ref of the first element of a snapshot whose role is
// role and whose name is exactly name.
func FindRef(snapshot, role, name string) (ref string, ok bool) {
	return find(snapshot, role, func(n string) bool { return n == name })
}

// FindRefContains is FindRef matching names that contain substr.
func FindRefContains(snapshot, role, substr string) (ref string, ok bool) {
	return find(snapshot, role, func(n string) bool { return strings.Contains(n, substr) })
}

func find(snapshot, role string, match func(name string) bool) (string, bool) {
	for _, l := range Parse(snapshot) {
		if l.Actionable() && l.Role == role && match(l.Name) {
			return l.Ref, true
		}
	}
	return "", false
}
