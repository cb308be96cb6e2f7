package llm

import (
	"strings"
	"testing"
)

func TestLooping(t *testing.T) {
	same := "Lantern is a small static-site server and builder.\n"
	cases := []struct {
		name, text, want string
		loops            bool
	}{
		{"a thought and a run", "I will look.\n" + strings.Repeat(same, 7), "I will look.\n" + strings.TrimSuffix(same, "\n"), true},
		{"five are not enough", strings.Repeat(same, 5), "", false},
		{"the last line still coming", strings.Repeat(same, 5) + "Lantern is a small", "", false},
		{"short lines repeat freely", strings.Repeat("|---|\n", 20), "", false},
		{"blank lines", strings.Repeat("\n", 20), "", false},
		{"a run broken", strings.Repeat(same, 3) + "other line here, long enough\n" + strings.Repeat(same, 3), "", false},
		{"no newline", "just text", "", false},
	}
	for _, c := range cases {
		got, loops := looping(c.text)
		if loops != c.loops || (loops && got != c.want) {
			t.Errorf("%s: looping = %q, %v; want %q, %v", c.name, got, loops, c.want, c.loops)
		}
		if !loops && got != c.text {
			t.Errorf("%s: the text was changed though it does not loop", c.name)
		}
	}
}
