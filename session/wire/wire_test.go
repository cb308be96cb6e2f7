package wire

import (
	"regexp"
	"strings"
	"testing"
)

// TestCheckName holds the hand-written check to the pattern it stands for.
func TestCheckName(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	for _, n := range []string{"", "a", "default", "s1", "a.b_c-d", "-a", ".a", "_a", "a b", "a/b", "é", "A9",
		strings.Repeat("x", 64), strings.Repeat("x", 65), "x\n", "a..", "0-"} {
		if got, want := CheckName("session", n) == nil, re.MatchString(n); got != want {
			t.Errorf("CheckName(%q) ok = %v, the pattern says %v", n, got, want)
		}
	}
}
