package outline

import (
	"slices"
	"strings"
)

// A Delta is what changed between two snapshots of the same document:
// lines added, removed and changed, each with its place (the heading and
// the line it sits under). An element keeps its ref across snapshots of a
// document, so a line whose ref is in both snapshots with another text is
// a change of that element (a value typed, a box checked).
type Delta struct {
	Changes []Change
	// Tokens estimates the rendered delta's size (Text), and Full the new
	// snapshot's, in tokens of four bytes, as the eval counts them.
	Tokens, Full int
}

// Change is one line of a Delta.
type Change struct {
	Op    byte   // '+' added, '-' removed, '~' changed
	Raw   string // the line as the snapshot writes it, indentation kept
	Was   string // for '~', the line before, without indentation
	Ref   string
	Under string // the place: `heading "Cart" > | Lamp | 2 |`, or ""
}

// DeltaHeader starts a rendered delta (Delta.Text); an observation holds
// either a whole snapshot or a delta.
const DeltaHeader = "Changes since the previous observation (the same document; every line and ref not listed is as it was):\n"

// Diff compares two snapshot texts of one document. Its changes come in
// the page's order, so that those of one place sit together under one
// place line. An element whose ref is in both snapshots with another text
// is one change ('~'), where it is now. The options of a select whose
// chosen option changed are not listed again: the select's own line,
// changed, says what is chosen.
func Diff(prev, cur string) Delta {
	a, b := rawLines(prev), rawLines(cur)
	pa, pb := Parse(prev), Parse(cur)
	ops := lcsOps(a, b)
	added, removed := map[string]int{}, map[string]int{} // ref -> line index
	for _, op := range ops {
		switch {
		case op.kind == '+' && pb[op.j].Ref != "":
			added[pb[op.j].Ref] = op.j
		case op.kind == '-' && pa[op.i].Ref != "":
			removed[pa[op.i].Ref] = op.i
		}
	}
	changed := func(ref string) bool {
		_, in := added[ref]
		_, out := removed[ref]
		return ref != "" && in && out
	}
	flips := selectionFlips(ops, a, b, pa, pb, changed)
	// A line under a line added (or removed) with it sits in its parent's
	// place: its indentation shows where, and no place line repeats the
	// parent.
	addedAt, removedAt := map[int]string{}, map[int]string{} // line index -> its place
	at := func(lines []Line, i int, with map[int]string) string {
		if under, ok := with[parent(lines, i)]; ok {
			return under
		}
		return place(lines, i)
	}
	var d Delta
	for k, op := range ops {
		if flips[k] {
			continue
		}
		switch op.kind {
		case '+':
			c := Change{Op: '+', Raw: b[op.j], Ref: pb[op.j].Ref, Under: at(pb, op.j, addedAt)}
			if changed(c.Ref) {
				c.Op, c.Was = '~', strings.TrimLeft(a[removed[c.Ref]], " ")
				if strings.Replace(c.Was, " focused", "", 1) == strings.TrimLeft(c.Raw, " ") {
					continue // it lost the focus: the line that has it now says where it went
				}
			} else {
				addedAt[op.j] = c.Under
			}
			d.Changes = append(d.Changes, c)
		case '-':
			if ref := pa[op.i].Ref; !changed(ref) {
				c := Change{Op: '-', Raw: a[op.i], Ref: ref, Under: at(pa, op.i, removedAt)}
				removedAt[op.i] = c.Under
				d.Changes = append(d.Changes, c)
			}
		}
	}
	d.Tokens = (len(d.Text()) + 3) / 4
	d.Full = (len(cur) + 3) / 4
	return d
}

// selectionFlips marks the ops (by index) that only move an option's
// " selected" mark under an element that changed (a select whose value
// changed): a removed line and an added one, without refs, equal but for
// that mark, under the same element.
func selectionFlips(ops []diffOp, a, b []string, pa, pb []Line, changed func(string) bool) map[int]bool {
	const mark = " selected"
	under := func(lines []Line, i int) string {
		if p := parent(lines, i); p >= 0 && changed(lines[p].Ref) {
			return lines[p].Ref
		}
		return ""
	}
	type key struct{ ref, line string }
	gone := map[key][]int{} // removed option lines by their select and text
	for k, op := range ops {
		if op.kind == '-' && pa[op.i].Ref == "" {
			if ref := under(pa, op.i); ref != "" {
				kk := key{ref, strings.TrimSuffix(a[op.i], mark)}
				gone[kk] = append(gone[kk], k)
			}
		}
	}
	flips := map[int]bool{}
	for k, op := range ops {
		if op.kind != '+' || pb[op.j].Ref != "" {
			continue
		}
		ref := under(pb, op.j)
		kk := key{ref, strings.TrimSuffix(b[op.j], mark)}
		if ref == "" || len(gone[kk]) == 0 || a[ops[gone[kk][0]].i] == b[op.j] {
			continue
		}
		flips[k], flips[gone[kk][0]] = true, true
		gone[kk] = gone[kk][1:]
	}
	return flips
}

// Empty reports whether nothing changed.
func (d Delta) Empty() bool { return len(d.Changes) == 0 }

// Text renders the delta for a model: DeltaHeader, then the changes
// grouped by place, each line `+ LINE`, `- LINE` or `~ LINE (was: OLD)`.
func (d Delta) Text() string {
	var b strings.Builder
	b.WriteString(DeltaHeader)
	if d.Empty() {
		b.WriteString("(nothing changed)\n")
		return b.String()
	}
	under := "\x00"
	for _, c := range d.Changes {
		if c.Under != under {
			under = c.Under
			if under == "" {
				b.WriteString("at the top of the page:\n")
			} else {
				b.WriteString("under " + under + ":\n")
			}
		}
		b.WriteByte(c.Op)
		b.WriteByte(' ')
		b.WriteString(c.Raw)
		switch {
		case c.Op == '~':
			b.WriteString("  (was: " + was(c.Raw, c.Was) + ")")
		case c.Op == '-' && c.Ref != "":
			b.WriteString("  (gone: its ref is stale)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// was writes what a changed line was without the words it shares with
// the line now at its start and end, and without the focus: `value="Choose"`
// for a select that had another value, `not checked` for a box checked
// since, `no value` for a box typed into; the whole line when that would
// not be clear.
func was(now, before string) string {
	n, b := strings.Fields(now), strings.Fields(before)
	p := 0
	for p < len(n) && p < len(b) && n[p] == b[p] {
		p++
	}
	s := 0
	for s < len(n)-p && s < len(b)-p && n[len(n)-1-s] == b[len(b)-1-s] {
		s++
	}
	unfocused := func(words []string) []string {
		return slices.DeleteFunc(slices.Clone(words), func(w string) bool { return w == "focused" })
	}
	gone, added := unfocused(b[p:len(b)-s]), unfocused(n[p:len(n)-s])
	switch {
	case p == 0: // its role changed: the whole line
		return before
	case len(gone) > 0:
		return strings.Join(gone, " ")
	case len(added) == 0 && slices.Contains(n, "focused"):
		return "not focused"
	case len(added) == 1 && !strings.Contains(added[0], "="):
		return "not " + added[0]
	case onlyValue(strings.Join(added, " ")):
		return "no value"
	}
	return before
}

// onlyValue reports whether s is one value attribute and nothing else:
// value=40 or value="a b".
func onlyValue(s string) bool {
	v, ok := strings.CutPrefix(s, "value=")
	switch {
	case !ok || v == "":
		return false
	case v[0] == '"':
		end := strings.Index(v[1:], `"`)
		for end >= 0 && v[end] == '\\' { // an escaped quote
			next := strings.Index(v[end+2:], `"`)
			if next < 0 {
				return false
			}
			end += next + 1
		}
		return end == len(v)-2
	}
	return !strings.Contains(v, " ")
}

// deltaLine returns a rendered delta's line as the page has it now: an
// added or changed line without its mark; ok is false for a removed line,
// a place, or the fence.
func deltaLine(raw string) (string, bool) {
	if len(raw) < 2 || raw[1] != ' ' {
		return "", false
	}
	switch raw[0] {
	case '+':
		return raw[2:], true
	case '~':
		line, _, _ := strings.Cut(raw[2:], "  (was: ")
		return line, true
	}
	return "", false
}

// IsDelta reports whether text (a snapshot part of an observation) is a
// rendered delta.
func IsDelta(text string) bool { return strings.HasPrefix(text, DeltaHeader) }

// Apply brings a snapshot text up to date with a rendered delta: removed
// lines go, changed lines are replaced by their ref, and added lines go
// at the end. It is how a reader of observations (the reference model)
// keeps the page in mind; the order of added lines may differ from the
// page's.
func Apply(snapshot, delta string) string {
	lines := rawLines(snapshot)
	body := strings.TrimPrefix(delta, DeltaHeader)
	for raw := range strings.Lines(body) {
		raw = strings.TrimRight(raw, "\n")
		if len(raw) < 2 || raw[1] != ' ' {
			continue
		}
		line := raw[2:]
		switch raw[0] {
		case '-':
			line, _, _ = strings.Cut(line, "  (gone: ")
			if i := indexOf(lines, line); i >= 0 {
				lines = append(lines[:i], lines[i+1:]...)
			}
		case '~':
			line, _, _ = strings.Cut(line, "  (was: ")
			if i := indexRef(lines, Parse(line)); i >= 0 {
				lines[i] = line
			} else {
				lines = append(lines, line)
			}
		case '+':
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if l == s {
			return i
		}
	}
	return -1
}

func indexRef(lines []string, parsed []Line) int {
	if len(parsed) != 1 || parsed[0].Ref == "" {
		return -1
	}
	for i, l := range lines {
		if strings.HasSuffix(l, "[ref="+parsed[0].Ref+"]") || strings.Contains(l, "[ref="+parsed[0].Ref+"]") {
			return i
		}
	}
	return -1
}

// rawLines returns a snapshot's non-blank lines as written, aligned with
// Parse's.
func rawLines(s string) []string {
	var out []string
	for raw := range strings.Lines(s) {
		raw = strings.TrimRight(raw, "\r\n")
		if strings.TrimSpace(raw) == "" {
			continue
		}
		out = append(out, raw)
	}
	return out
}

// place names where line i sits: the nearest heading before it, and the
// line it is indented under when that is not the heading.
func place(lines []Line, i int) string {
	h := -1
	for k := i - 1; k >= 0; k-- {
		if lines[k].Role == "heading" {
			h = k
			break
		}
	}
	var parts []string
	if h >= 0 {
		parts = append(parts, short(lines[h].Text))
	}
	if p := parent(lines, i); p >= 0 && p != h {
		parts = append(parts, short(lines[p].Text))
	}
	return strings.Join(parts, " > ")
}

func short(s string) string {
	const maxLen = 80
	if len(s) <= maxLen {
		return s
	}
	cut := maxLen
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

type diffOp struct {
	kind byte // '=', '+', '-'
	i, j int
}

// lcsOps is a line diff of a and b: the longest common subsequence, with
// the common prefix and suffix taken off first.
func lcsOps(a, b []string) []diffOp {
	var ops []diffOp
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	n, m := len(ma), len(mb)
	// t[i][j]: the LCS length of ma[i:] and mb[j:].
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && ma[i] == mb[j]:
			i, j = i+1, j+1
		case j < m && (i == n || t[i][j+1] >= t[i+1][j]):
			ops = append(ops, diffOp{kind: '+', j: p + j})
			j++
		default:
			ops = append(ops, diffOp{kind: '-', i: p + i})
			i++
		}
	}
	return ops
}
