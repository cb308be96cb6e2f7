package policy

import (
	"errors"
	"strings"
)

// Pattern is a case-insensitive glob with alternatives: * stands for any
// run of characters, | separates alternatives. The zero Pattern matches
// everything.
type Pattern struct {
	src  string
	alts []string // lower-case, spaces folded; nil: any
}

// ParsePattern reads a pattern. An empty pattern, or an empty
// alternative ("a||b", a trailing |), is an error.
func ParsePattern(s string) (Pattern, error) {
	if strings.TrimSpace(s) == "" {
		return Pattern{}, errors.New("the pattern is empty; leave the field out to match anything, or write *")
	}
	p := Pattern{src: s}
	for alt := range strings.SplitSeq(s, "|") {
		a := fold(alt)
		if a == "" {
			return Pattern{}, errors.New("the pattern " + quote(s) + " has an empty alternative; write alternatives as a|b, without a | at either end")
		}
		p.alts = append(p.alts, a)
	}
	return p, nil
}

// MustPattern is ParsePattern for patterns known to be valid; it panics
// on an invalid one.
func MustPattern(s string) Pattern {
	p, err := ParsePattern(s)
	if err != nil {
		panic(err)
	}
	return p
}

// String returns the pattern as written.
func (p Pattern) String() string { return p.src }

// any reports whether p matches everything.
func (p Pattern) any() bool { return p.alts == nil }

// Match reports whether s matches one of p's alternatives, whole.
func (p Pattern) Match(s string) bool {
	if p.alts == nil {
		return true
	}
	s = fold(s)
	for _, a := range p.alts {
		if glob(a, s) {
			return true
		}
	}
	return false
}

// fold lower-cases s, trims it and turns each run of white space into one
// space.
func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// glob reports whether s matches the pattern p, in which * stands for any
// run of characters. It backtracks to the last * only, which is enough:
// linear in practice, quadratic at worst.
func glob(p, s string) bool {
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case pi < len(p) && p[pi] == s[si]:
			pi++
			si++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

func quote(s string) string { return `"` + s + `"` }
