package suite

import (
	"strings"
	"testing"
)

func TestNumbersIn(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]string{
		"$1,234.50 and 7":            "1234.5 7",
		"SO-1001, -3 and 2026-05-15": "1001 -3 2026 5 15",
		"none":                       "",
		"It is 45.":                  "45",
		".5 of it":                   "0.5",
	} {
		var got []string
		for _, n := range numbersIn(s) {
			got = append(got, fmtNum(n))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("numbersIn(%q) = %v, want %s", s, got, want)
		}
	}
}
