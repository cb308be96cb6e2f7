package llmtest

import (
	"encoding/json"
	"strings"
)

// FindRef returns the ref of the first element of a page snapshot whose role
// is role and whose accessible name is exactly name.
//
// The snapshot puts each actionable element on its own line:
//
//	<indent>[- ]<role> "<name>"<optional states> [ref=<ID>]
//
// where the name escapes `"` and `\` as JSON does. Lines without a ref are
// ignored; an element without a quoted name has the name "".
func FindRef(snapshot, role, name string) (ref string, ok bool) {
	return findRef(snapshot, role, func(n string) bool { return n == name })
}

// FindRefContains is FindRef matching names that contain substr.
func FindRefContains(snapshot, role, substr string) (ref string, ok bool) {
	return findRef(snapshot, role, func(n string) bool { return strings.Contains(n, substr) })
}

func findRef(snapshot, role string, match func(name string) bool) (string, bool) {
	for line := range strings.Lines(snapshot) {
		r, n, ref, ok := parseElementLine(line)
		if ok && r == role && match(n) {
			return ref, true
		}
	}
	return "", false
}

// parseElementLine splits one snapshot line into role, name and ref.
func parseElementLine(line string) (role, name, ref string, ok bool) {
	s := strings.TrimRight(strings.TrimLeft(line, " \t"), "\r\n")
	s = strings.TrimPrefix(s, "- ")
	role, rest, _ := strings.Cut(s, " ")
	role = strings.TrimSuffix(role, ":")
	if role == "" {
		return "", "", "", false
	}
	if strings.HasPrefix(rest, `"`) {
		end := closingQuote(rest)
		if end < 0 {
			return "", "", "", false
		}
		if err := json.Unmarshal([]byte(rest[:end+1]), &name); err != nil {
			return "", "", "", false
		}
		rest = rest[end+1:]
	}
	i := strings.LastIndex(rest, "[ref=")
	if i < 0 {
		return "", "", "", false
	}
	ref, _, found := strings.Cut(rest[i+len("[ref="):], "]")
	if !found || ref == "" {
		return "", "", "", false
	}
	return role, name, ref, true
}

// closingQuote returns the index of the quote that closes the string opened
// at s[0], or -1.
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
