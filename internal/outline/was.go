package outline

import "strings"

// was says what a changed line was, by the words (a state, a value, its
// name) that differ from the line now: `value="Choose"` for a select
// that had another value, `not checked` for a box checked since, `no
// value` for a field typed into, `focused, no value` for one that also
// lost the focus; the whole line when its role changed.
func was(now, before string) string {
	n, b := words(now), words(before)
	if len(n) == 0 || len(b) == 0 || n[0] != b[0] {
		return before
	}
	gone, added := without(b, n), without(n, b)
	if len(gone) == 0 && len(added) == 0 || !plain(gone) || !plain(added) {
		return before // the same words in another order, or words that are no state
	}
	var parts []string
	used := make([]bool, len(added))
	for _, g := range gone {
		parts = append(parts, g)
		for k, a := range added {
			if !used[k] && wordKey(a) == wordKey(g) {
				used[k] = true
				break
			}
		}
	}
	for k, a := range added {
		if used[k] {
			continue
		}
		switch key := wordKey(a); {
		case key == nameKey:
			parts = append(parts, "no name")
		case strings.HasSuffix(key, "="):
			parts = append(parts, "no "+strings.Trim(key, "[="))
		default:
			parts = append(parts, "not "+a)
		}
	}
	return strings.Join(parts, ", ")
}

// without returns the words of ws that are not in others, counting
// repeats, in order.
func without(ws, others []string) []string {
	left := map[string]int{}
	for _, o := range others {
		left[o]++
	}
	var out []string
	for _, w := range ws {
		if left[w] > 0 {
			left[w]--
			continue
		}
		out = append(out, w)
	}
	return out
}

// plain reports whether every word is a name, an attribute or a state,
// so that saying them alone is clear: not a piece of a longer value
// (`points=1 2,3 4` splits in words of numbers).
func plain(ws []string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, `"`) || strings.IndexByte(w, '=') > 0 {
			continue
		}
		for i := 0; i < len(w); i++ {
			if c := w[i]; (c < 'a' || c > 'z') && c != '-' {
				return false
			}
		}
	}
	return true
}

const nameKey = "\x00name"

// wordKey is what a word of a line sets: its name (a quoted word), an
// attribute (`value=`, `[level=`), or a state (`checked`).
func wordKey(w string) string {
	if strings.HasPrefix(w, `"`) {
		return nameKey
	}
	if i := strings.IndexByte(w, '='); i > 0 {
		return w[:i+1]
	}
	return w
}

// words splits a line at its spaces, but not inside double quotes (with
// backslash escapes): `value="a b"` is one word.
func words(s string) []string {
	var out []string
	start, quoted := -1, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case c == ' ' && !quoted:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}
