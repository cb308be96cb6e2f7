// Package suggest finds, for a word someone mistyped (a flag, a field, a
// command), the known word they probably meant: the "did you mean" of
// webagent's messages.
package suggest

import (
	"fmt"
	"strings"
)

// Distance is the edit distance of a and b in runes, a swap of two
// neighbouring letters counting as one edit (optimal string alignment).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// Near is how many edits still make a typo of a word of n letters: a
// third of them, at least 1 and at most 3.
func Near(n int) int { return max(1, min(3, n/3)) }

// Closest is the known word closest to w when it is near enough to be a
// typo of it (Near), else "".
func Closest(w string, known []string) string {
	best, bestD := "", 0
	for _, k := range known {
		if d := Distance(w, k); best == "" || d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || bestD > Near(len(w)) {
		return ""
	}
	return best
}

// Hint is what follows the name of an unknown word w in a message: the
// known word closest to it, if one is close, and the known words after
// label ("; did you mean "tool"? fields: tool, site").
func Hint(w string, known []string, label string) string {
	list := label + ": " + strings.Join(known, ", ")
	if near := Closest(w, known); near != "" {
		return fmt.Sprintf("; did you mean %q? %s", near, list)
	}
	return "; " + list
}
