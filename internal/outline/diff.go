package outline

import "strings"

// A Delta is an edit script that turns one snapshot of a document into
// the next: applied to the previous snapshot (Apply), its rendered text
// (Text) rebuilds the next one exactly, every line in its order, with its
// indentation and states. An element keeps its ref across snapshots of a
// document, so a line whose ref is in both snapshots is that element,
// changed ('~'): a value typed, a box checked, the focus gained or lost,
// or its place in the outline.
//
// The changes come in the page's order. A change says where it goes only
// when the one before it does not: a changed line in place is found by
// its ref, a removed line by its ref or its text when that is the only
// line with it; else the unchanged line it follows ('=') leads it, one
// that no other line of either snapshot reads as (or, when none near is,
// unchanged lines back to one that is, or to the top of the page).
type Delta struct {
	Changes []Change
	// Tokens estimates the rendered delta's size (Text), and Full the new
	// snapshot's, in tokens of four bytes, as the eval counts them.
	Tokens, Full int
}

// Change is one line of a Delta.
type Change struct {
	// Op is '+' a line added, '-' a line removed, '~' an element (a ref,
	// or an option of a select: its role and name) that reads otherwise,
	// '=' an unchanged line that places the changes after it, '^' the top
	// of the page.
	Op    byte
	Raw   string // the line as the snapshot writes it, indentation kept; for '-' and '=' cut when long
	Was   string // for '~', the line before, as the snapshot wrote it
	Ref   string
	Moved bool // for '~': it stands elsewhere in the outline (another place or depth)
}

// DeltaHeader starts a rendered delta (Delta.Text); an observation holds
// either a whole snapshot or a delta.
const DeltaHeader = "Changes since the previous observation (the same document; every line and ref not listed is as it was):\n"

// topLine marks changes at the top of the page, before any line.
const topLine = "at the top of the page:"

// Diff compares two snapshot texts of one document and returns the edit
// script from prev to cur.
func Diff(prev, cur string) Delta {
	a, b := rawLines(prev), rawLines(cur)
	pa, pb := Parse(prev), Parse(cur)
	e := emitter{a: a, b: b, pa: pa, pb: pb, inNew: map[string]bool{}, last: -1}
	for _, l := range pb {
		if l.Ref != "" {
			e.inNew[l.Ref] = true
		}
	}
	e.count = lineCounts(a, b)
	e.steps = align(a, b, pa, pb)
	var d Delta
	for s := range e.steps {
		e.emit(s, &d)
	}
	d.Tokens = (len(d.Text()) + 3) / 4
	d.Full = (len(cur) + 3) / 4
	return d
}

// step is one line of the alignment of two snapshots: '=' the same line
// in both, '~' the same element (or option) reading otherwise in the same
// place, '-' a line of the old only, '+' of the new only.
type step struct {
	kind byte
	i, j int
}

// align lines up two snapshots: their longest common sequence of equal
// lines, then, between two equal lines, the elements of both (by ref and
// depth, an option without a ref by its role, name and depth) in order.
func align(a, b []string, pa, pb []Line) []step {
	ops := lcs(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
	var out []step
	for k := 0; k < len(ops); {
		if ops[k].kind == '=' {
			out = append(out, step{'=', ops[k].i, ops[k].j})
			k++
			continue
		}
		var olds, news []int
		for ; k < len(ops) && ops[k].kind != '='; k++ {
			if ops[k].kind == '-' {
				olds = append(olds, ops[k].i)
			} else {
				news = append(news, ops[k].j)
			}
		}
		inner := lcs(len(olds), len(news), func(x, y int) bool {
			ka := identity(pa[olds[x]])
			return ka != "" && ka == identity(pb[news[y]])
		})
		for _, op := range inner {
			switch op.kind {
			case '=':
				out = append(out, step{'~', olds[op.i], news[op.j]})
			case '-':
				out = append(out, step{'-', olds[op.i], -1})
			default:
				out = append(out, step{'+', -1, news[op.j]})
			}
		}
	}
	return out
}

// identity names what a line stands for across two snapshots, when it
// may change in place: an element by its ref and depth; an element line
// without a ref (an option, a heading) by its role, name and depth.
func identity(l Line) string {
	switch {
	case l.Ref != "":
		return "r" + l.Ref + " " + itoa(l.Indent)
	case l.Role != "":
		return "e" + itoa(l.Indent) + " " + l.Role + " " + l.Name
	}
	return ""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for ; n > 0; n /= 10 {
		i--
		buf[i] = byte('0' + n%10)
	}
	return string(buf[i:])
}

// emitter turns the alignment into changes.
type emitter struct {
	a, b   []string
	pa, pb []Line
	steps  []step
	inNew  map[string]bool // refs of the new snapshot
	count  func(pattern string) (old, cur int)
	last   int // the step of the latest change, -1 before the first
}

// emit adds the change of step s, led by the lines that place it when
// the change before does not.
func (e *emitter) emit(s int, d *Delta) {
	st := e.steps[s]
	var c Change
	switch st.kind {
	case '=':
		return
	case '-':
		l := e.pa[st.i]
		if l.Ref != "" && e.inNew[l.Ref] {
			return // moved: its '~' says where it is now
		}
		c = Change{Op: '-', Raw: cut(e.a[st.i], l.Ref), Ref: l.Ref}
	case '~':
		c = Change{Op: '~', Raw: e.b[st.j], Was: e.a[st.i], Ref: e.pb[st.j].Ref}
	case '+':
		l := e.pb[st.j]
		c = Change{Op: '+', Raw: e.b[st.j], Ref: l.Ref}
		if l.Ref != "" {
			if i := refIndex(e.pa, l.Ref); i >= 0 {
				c = Change{Op: '~', Raw: e.b[st.j], Was: e.a[i], Ref: l.Ref, Moved: true}
			}
		}
	}
	if !e.placed(s, c) {
		e.lead(s, d)
	}
	d.Changes = append(d.Changes, c)
	e.last = s
}

// placed reports whether change c of step s needs no line before it to
// say where it goes: it finds its place itself, or it follows the
// previous change with no unchanged line between.
func (e *emitter) placed(s int, c Change) bool {
	switch {
	case c.Op == '~' && c.Ref != "" && !c.Moved, c.Op == '-' && c.Ref != "":
		return true // found by its ref
	case c.Op == '-':
		if old, cur := e.count(c.Raw); old == 1 && cur == 0 {
			return true // the only line that reads so
		}
	}
	return e.last >= 0 && !e.equalBetween(e.last+1, s)
}

// equalBetween reports whether a step in [from, to) is an unchanged line.
func (e *emitter) equalBetween(from, to int) bool {
	for k := from; k < to; k++ {
		if e.steps[k].kind == '=' {
			return true
		}
	}
	return false
}

// lead writes what places step s: the nearest unchanged line before it
// that no other line reads as, and the unchanged lines from there to s;
// without one back to the previous change, every unchanged line since
// it; without a previous change, the top of the page and the unchanged
// lines from there.
func (e *emitter) lead(s int, d *Delta) {
	from := e.last + 1
	start := -1
	for k := s - 1; k >= from; k-- {
		st := e.steps[k]
		if st.kind != '=' {
			continue
		}
		if e.pb[st.j].Ref != "" {
			start = k
			break
		}
		if old, cur := e.count(cut(e.b[st.j], "")); old == 1 && cur == 1 {
			start = k
			break
		}
	}
	if start < 0 {
		start = from
		if e.last < 0 {
			d.Changes = append(d.Changes, Change{Op: '^'})
		}
	}
	for k := start; k < s; k++ {
		if st := e.steps[k]; st.kind == '=' {
			d.Changes = append(d.Changes, Change{Op: '=', Raw: cut(e.b[st.j], e.pb[st.j].Ref), Ref: e.pb[st.j].Ref})
		}
	}
}

func refIndex(lines []Line, ref string) int {
	for i, l := range lines {
		if l.Ref == ref {
			return i
		}
	}
	return -1
}

// lineCounts returns a function counting the lines of a and of b that a
// pattern (see matches) stands for.
func lineCounts(a, b []string) func(string) (int, int) {
	exact := map[string][2]int{}
	for _, l := range a {
		n := exact[l]
		n[0]++
		exact[l] = n
	}
	for _, l := range b {
		n := exact[l]
		n[1]++
		exact[l] = n
	}
	return func(p string) (int, int) {
		if !strings.HasSuffix(p, ellipsis) {
			n := exact[p]
			return n[0], n[1]
		}
		old, cur := 0, 0
		for _, l := range a {
			if matches(l, p) {
				old++
			}
		}
		for _, l := range b {
			if matches(l, p) {
				cur++
			}
		}
		return old, cur
	}
}

const (
	ellipsis = "…"
	// maxCut is how much of a long removed or unchanged line a delta
	// writes: the model has read it whole before.
	maxCut = 40
)

// cut shortens a long line to its start and "…", keeping its indentation
// and its ref.
func cut(raw, ref string) string {
	tail := ""
	if ref != "" {
		tail = " [ref=" + ref + "]"
		raw = strings.TrimSuffix(raw, tail)
	}
	body := strings.TrimLeft(raw, " \t")
	if len(body) <= maxCut+len(ellipsis) {
		return raw + tail
	}
	n := maxCut
	for n > 0 && body[n]&0xC0 == 0x80 {
		n--
	}
	return raw[:len(raw)-len(body)] + body[:n] + ellipsis + tail
}

// matches reports whether pattern p, a line as a delta writes it (cut,
// see cut), stands for line l.
func matches(l, p string) bool {
	if l == p {
		return true
	}
	start, ok := strings.CutSuffix(p, ellipsis)
	return ok && strings.HasPrefix(l, start) && len(l) > len(start)+len(ellipsis)
}

// Empty reports whether nothing changed.
func (d Delta) Empty() bool { return len(d.Changes) == 0 }

// Text renders the delta for a model: DeltaHeader, then a line a change:
// `+ LINE`, `- LINE`, `~ LINE  (was: WHAT)` or `~ LINE  (moved)`, and the
// unchanged lines that place them, `= LINE`.
func (d Delta) Text() string {
	var b strings.Builder
	b.WriteString(DeltaHeader)
	if d.Empty() {
		b.WriteString("(nothing changed)\n")
		return b.String()
	}
	for _, c := range d.Changes {
		if c.Op == '^' {
			b.WriteString(topLine + "\n")
			continue
		}
		b.WriteByte(c.Op)
		b.WriteByte(' ')
		b.WriteString(c.Raw)
		switch {
		case c.Op == '~':
			b.WriteString(note(c))
		case c.Op == '-' && c.Ref != "":
			b.WriteString("  (gone: its ref is stale)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// note says what a changed line was: `  (was: not checked)`, `  (moved)`,
// `  (moved; was: collapsed)`.
func note(c Change) string {
	now, before := strings.TrimLeft(c.Raw, " \t"), strings.TrimLeft(c.Was, " \t")
	switch {
	case now == before && c.Moved:
		return "  (moved)"
	case c.Moved:
		return "  (moved; was: " + was(now, before) + ")"
	}
	return "  (was: " + was(now, before) + ")"
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

type diffOp struct {
	kind byte // '=', '+', '-'
	i, j int
}

// lcs is a diff of two sequences of n and m items, eq telling equal ones:
// their longest common subsequence ('='), with what only the first has
// ('-') and what only the second has ('+') in between, in order; the
// common start and end are taken off first.
func lcs(n, m int, eq func(i, j int) bool) []diffOp {
	var ops []diffOp
	p := 0
	for p < n && p < m && eq(p, p) {
		ops = append(ops, diffOp{'=', p, p})
		p++
	}
	s := 0
	for s < n-p && s < m-p && eq(n-1-s, m-1-s) {
		s++
	}
	rn, rm := n-p-s, m-p-s
	// t[i][j]: the LCS length of the middles from i and j on.
	t := make([][]int32, rn+1)
	for i := range t {
		t[i] = make([]int32, rm+1)
	}
	for i := rn - 1; i >= 0; i-- {
		for j := rm - 1; j >= 0; j-- {
			if eq(p+i, p+j) {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < rn || j < rm {
		switch {
		case i < rn && j < rm && eq(p+i, p+j) && t[i][j] == t[i+1][j+1]+1:
			ops = append(ops, diffOp{'=', p + i, p + j})
			i, j = i+1, j+1
		case j < rm && (i == rn || t[i][j+1] >= t[i+1][j]):
			ops = append(ops, diffOp{'+', -1, p + j})
			j++
		default:
			ops = append(ops, diffOp{'-', p + i, -1})
			i++
		}
	}
	for k := 0; k < s; k++ {
		ops = append(ops, diffOp{'=', n - s + k, m - s + k})
	}
	return ops
}
