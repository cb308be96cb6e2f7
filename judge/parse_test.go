package judge

import "testing"

func TestParseKeyPoints(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []string
	}{
		{"**Key Points**:\n1. Search for shoes\n2. Filter by size 9\n", []string{"Search for shoes", "Filter by size 9"}},
		{"Key Points:\n- a\n* b\n\n3) c", []string{"a", "b", "c"}},
		{"1. only a list", []string{"only a list"}},
		{"", nil},
	} {
		got := parseKeyPoints(c.text)
		if len(got) != len(c.want) {
			t.Errorf("%q: %q", c.text, got)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %q", c.text, got)
			}
		}
	}
}

func TestParseScore(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text   string
		score  int
		reason string
	}{
		{"1. **Reasoning**: The results are sorted.\n2. **Score**: 4", 4, "The results are sorted."},
		{"Reasoning: nothing here\nScore: [1]", 1, "nothing here"},
		{"no score given", 0, "no score given"},
		{"Reasoning: a score of 9 is wrong\nScore: 9", 0, "a score of 9 is wrong"},
	} {
		s, r := parseScore(c.text)
		if s != c.score || r != c.reason {
			t.Errorf("%q: %d %q", c.text, s, r)
		}
	}
}

func TestParseVerdict(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, outcome, reasons string
		ok                     bool
	}{
		{"Thoughts: all done.\nStatus: success", "success", "all done.", true},
		{"Thoughts: the status: success was claimed, but no.\nStatus: \"failure\"", "failure", "the status: success was claimed, but no.", true},
		{"**Status**: Success", "success", "", true},
		{"It is a success.", "", "", false},
	} {
		o, r, ok := parseVerdict(c.text)
		if o != c.outcome || r != c.reasons || ok != c.ok {
			t.Errorf("%q: %q %q %v", c.text, o, r, ok)
		}
	}
}
