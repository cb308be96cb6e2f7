package outline

import (
	"fmt"
	"slices"
	"strings"
)

// Apply rebuilds the next snapshot from the previous one and a rendered
// delta (Delta.Text), as a model reading observations must: it reads only
// what the model reads. Elements that moved leave their old place first;
// then the changes apply in order, each at the place the one before left
// (the top of the page at first):
//
//   - `= LINE` is an unchanged line: the next line, else the only line of
//     the page that reads so (a line cut with "…" reads so when it starts
//     so; one with a ref, the element of that ref); the changes after it
//     follow it.
//   - `+ LINE` is a line added there.
//   - `~ LINE  (moved…)` is an element (its ref) that now stands there.
//   - `~ LINE  (was: …)` is an element that changed where it is: the line
//     of its ref, or, without a ref (an option), the next line.
//   - `- LINE` is a line removed: the line of its ref, else the next line
//     when it reads so, else the only line of the page that does.
//
// It returns the snapshot's lines joined by newlines, or an error saying
// which line of the delta does not fit the page.
func Apply(prev, delta string) (string, error) {
	body, ok := strings.CutPrefix(delta, DeltaHeader)
	if !ok {
		return "", fmt.Errorf("outline: not a delta (it does not start with %q)", strings.TrimSpace(DeltaHeader))
	}
	ops, err := readDelta(body)
	if err != nil {
		return "", err
	}
	lines := rawLines(prev)
	for _, op := range ops {
		if op.kind == '~' && op.moved {
			k := refLine(lines, op.ref)
			if k < 0 {
				return "", op.errorf("the page has no element [ref=%s] to move", op.ref)
			}
			lines = slices.Delete(lines, k, k+1)
		}
	}
	cur := 0 // where the next change goes
	for _, op := range ops {
		switch {
		case op.kind == '^':
			cur = 0
		case op.kind == '+' || op.kind == '~' && op.moved:
			lines = slices.Insert(lines, cur, op.raw)
			cur++
		case op.kind == '~':
			k := refLine(lines, op.ref)
			if op.ref == "" && cur < len(lines) && identity(lineOf(lines[cur])) == identity(lineOf(op.raw)) {
				k = cur
			}
			if k < 0 {
				return "", op.errorf("the line it changes is not there")
			}
			lines[k] = op.raw
			cur = k + 1
		default: // '=' and '-'
			k, err := locate(lines, cur, op)
			if err != nil {
				return "", err
			}
			if op.kind == '-' {
				lines = slices.Delete(lines, k, k+1)
				cur = k
			} else {
				cur = k + 1
			}
		}
	}
	return strings.Join(lines, "\n"), nil
}

// deltaOp is a line of a rendered delta.
type deltaOp struct {
	n     int  // its line number in the delta, from 1 after the header
	kind  byte // '+', '-', '~', '=', '^' the top
	raw   string
	ref   string
	moved bool
}

func (op deltaOp) errorf(format string, args ...any) error {
	return fmt.Errorf("outline: line %d of the delta, %q: %s", op.n+1, op.raw, fmt.Sprintf(format, args...))
}

// readDelta reads the lines of a rendered delta after its header.
func readDelta(body string) ([]deltaOp, error) {
	var ops []deltaOp
	n := 0
	for raw := range strings.Lines(body) {
		n++
		raw = strings.TrimRight(raw, "\r\n")
		switch {
		case raw == "" || raw == "(nothing changed)":
			continue
		case raw == topLine:
			ops = append(ops, deltaOp{n: n, kind: '^'})
			continue
		case len(raw) < 2 || raw[1] != ' ' || !strings.ContainsRune("+-~=", rune(raw[0])):
			return nil, fmt.Errorf("outline: line %d of the delta, %q, is not a change (+, -, ~ or = and a space)", n+1, raw)
		}
		op := deltaOp{n: n, kind: raw[0], raw: raw[2:]}
		switch op.kind {
		case '~':
			line, note, ok := cutNote(op.raw)
			if !ok {
				return nil, op.errorf("a changed line without its note, (was: …) or (moved)")
			}
			op.raw, op.moved = line, strings.HasPrefix(note, "  (moved")
		case '-':
			op.raw = strings.TrimSuffix(op.raw, "  (gone: its ref is stale)")
		}
		op.ref = lineOf(op.raw).Ref
		if op.moved && op.ref == "" {
			return nil, op.errorf("a moved line without a ref")
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// cutNote splits a changed line of a delta into the line and its note,
// `  (was: …)` or `  (moved…)`.
func cutNote(s string) (line, note string, ok bool) {
	i := strings.Index(s, "  (was: ")
	if j := strings.Index(s, "  (moved"); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i:], true
}

// locate finds the line a '=' or '-' names: by its ref; else the line at
// cur when it reads so; else the only line of the page that does.
func locate(lines []string, cur int, op deltaOp) (int, error) {
	if op.ref != "" {
		if k := refLine(lines, op.ref); k >= 0 {
			return k, nil
		}
		return -1, op.errorf("the page has no element [ref=%s]", op.ref)
	}
	if cur < len(lines) && matches(lines[cur], op.raw) {
		return cur, nil
	}
	k := -1
	for i, l := range lines {
		if matches(l, op.raw) {
			if k >= 0 {
				return -1, op.errorf("several lines of the page read so, none where the change before left off")
			}
			k = i
		}
	}
	if k < 0 {
		return -1, op.errorf("no line of the page reads so")
	}
	return k, nil
}

// refLine returns the index of the line of element ref, or -1.
func refLine(lines []string, ref string) int {
	if ref == "" {
		return -1
	}
	tail := "[ref=" + ref + "]"
	for i, l := range lines {
		if strings.HasSuffix(l, tail) && lineOf(l).Ref == ref {
			return i
		}
	}
	return -1
}

// lineOf reads one raw line.
func lineOf(raw string) Line {
	if ls := Parse(raw); len(ls) == 1 {
		return ls[0]
	}
	return Line{}
}

// deltaLine returns a rendered delta's line as the page has it now: an
// added or changed line without its mark and note; ok is false for a
// removed or unchanged line, the top, or the fence.
func deltaLine(raw string) (string, bool) {
	if len(raw) < 2 || raw[1] != ' ' {
		return "", false
	}
	switch raw[0] {
	case '+':
		return raw[2:], true
	case '~':
		line, _, _ := cutNote(raw[2:])
		return line, true
	}
	return "", false
}

// IsDelta reports whether text (a snapshot part of an observation) is a
// rendered delta.
func IsDelta(text string) bool { return strings.HasPrefix(text, DeltaHeader) }
