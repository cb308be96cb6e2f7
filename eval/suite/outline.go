package suite

import (
	"encoding/json"
	"fmt"
	"strings"
)

// outlineLine is one line of a page snapshot.
type outlineLine struct {
	indent int    // leading spaces (a tab counts 2)
	text   string // the line without its indentation
	// For an actionable line, `[- ]ROLE "NAME" STATES [ref=ID]`:
	role, name, ref string
}

func (l outlineLine) actionable() bool { return l.ref != "" }

// parseOutline splits a snapshot into lines, reading the role, name and ref
// of each actionable one. Other lines are kept for their text and
// indentation.
func parseOutline(snapshot string) []outlineLine {
	var out []outlineLine
	for raw := range strings.Lines(snapshot) {
		raw = strings.TrimRight(raw, "\r\n")
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
		l := outlineLine{indent: indent, text: text}
		l.role, l.name, l.ref = parseElement(text)
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

// target is what a step looks for.
type target struct {
	role    string
	name    string
	partial bool
	scope   string
}

func (t target) String() string {
	var b strings.Builder
	if t.role != "" {
		b.WriteString(t.role + " ")
	}
	if t.partial {
		b.WriteString("~")
	}
	fmt.Fprintf(&b, "%q", t.name)
	if t.scope != "" {
		fmt.Fprintf(&b, " in %q", t.scope)
	}
	return b.String()
}

// matches reports whether l is an element t names; fold compares names
// ignoring case.
func (t target) matches(l outlineLine, fold bool) bool {
	if !l.actionable() || t.role != "" && l.role != t.role {
		return false
	}
	name, want := collapse(l.name), collapse(t.name)
	if fold {
		name, want = strings.ToLower(name), strings.ToLower(want)
	}
	if t.partial {
		return strings.Contains(name, want)
	}
	return name == want
}

// resolve finds the ref of the element t names in the snapshot lines.
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
func resolve(lines []outlineLine, t target) (string, error) {
	for _, fold := range []bool{false, true} {
		if t.scope == "" {
			for _, l := range lines {
				if t.matches(l, fold) {
					return l.ref, nil
				}
			}
			continue
		}
		anchors := findAnchors(lines, t.scope)
		if len(anchors) == 0 {
			return "", fmt.Errorf("no line of the page contains %q", t.scope)
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
	if t.scope != "" {
		return "", fmt.Errorf("no element %s near the line containing %q%s", target{role: t.role, name: t.name, partial: t.partial}, t.scope, candidates(lines, t))
	}
	return "", fmt.Errorf("no element %s on the page%s", t, candidates(lines, t))
}

// nearest searches node's subtree (the whole page for -1) for t: the
// nearest match at or after the anchor, else the nearest before it.
func nearest(lines []outlineLine, t target, fold bool, anchor, node int) (string, bool) {
	lo, hi := subtree(lines, node)
	for i := anchor; i < hi; i++ {
		if t.matches(lines[i], fold) {
			return lines[i].ref, true
		}
	}
	for i := anchor - 1; i >= lo; i-- {
		if t.matches(lines[i], fold) {
			return lines[i].ref, true
		}
	}
	return "", false
}

// findAnchors returns the indexes of the lines holding text, best first
// (see resolve); within a rank, exact case before folded case, then page
// order.
func findAnchors(lines []outlineLine, text string) []int {
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
					if !hit && strings.HasPrefix(l.text, "|") {
						for _, cell := range strings.Split(strings.Trim(l.text, "|"), "|") {
							if norm(cell) == w {
								hit = true
							}
						}
					}
				case 1:
					hit = strings.Contains(norm(l.content()), w)
				case 2:
					hit = strings.Contains(norm(l.text), w)
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
func (l outlineLine) content() string {
	if l.role != "" {
		return l.name
	}
	return strings.TrimPrefix(l.text, "- ")
}

// subtree returns the range [lo, hi) of node's subtree: the node and the
// lines after it indented deeper. node -1 is the whole page.
func subtree(lines []outlineLine, node int) (int, int) {
	if node < 0 {
		return 0, len(lines)
	}
	hi := node + 1
	for hi < len(lines) && lines[hi].indent > lines[node].indent {
		hi++
	}
	return node, hi
}

// parent returns the nearest line before node indented less, or -1.
func parent(lines []outlineLine, node int) int {
	for i := node - 1; i >= 0; i-- {
		if lines[i].indent < lines[node].indent {
			return i
		}
	}
	return -1
}

// candidates lists a few elements with the same role or a similar name, to
// make a failure easy to diagnose.
func candidates(lines []outlineLine, t target) string {
	var c []string
	want := strings.ToLower(t.name)
	for _, l := range lines {
		if !l.actionable() {
			continue
		}
		n := strings.ToLower(l.name)
		if (t.role != "" && l.role == t.role) || want != "" && (strings.Contains(n, want) || n != "" && strings.Contains(want, n)) {
			c = append(c, fmt.Sprintf("%s %q", l.role, l.name))
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
