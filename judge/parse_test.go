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
		{"**Reasoning:** shows the filter.\n**Score:** 5/5", 5, "shows the filter."},
		{"Reasoning: partly relevant.\nI give it a score of 3.", 3, "partly relevant."},
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
		// The styles judge models write, recorded: a verdict at the end
		// of the reasoning paragraph, in bold, after a heading, in words,
		// in capitals, and a Status: with no verdict after it.
		{"Thoughts: I compared the task's key points with the actions and the final page. Status: success", "success", "I compared the task's key points with the actions and the final page.", true},
		{"**Thoughts:** The filter was never applied.\n\n**Status:** **failure**", "failure", "The filter was never applied.", true},
		{"### Thoughts\nEvery key point is met.\n### Status\nSUCCESS", "success", "Every key point is met.", true},
		{"Thoughts: done.\nStatus: The task was completed successfully.", "success", "done.", true},
		{"Thoughts: the cart is empty.\nStatus: Failed - the item was never added.", "failure", "the cart is empty.", true},
		{"Thoughts: first draft, status: failure.\nOn reflection the page shows it.\nStatus: success", "success", "first draft, status: failure.\nOn reflection the page shows it.", true},
		{"Thoughts: unclear.\nStatus: unknown", "", "", false},
	} {
		o, r, ok := parseVerdict(c.text)
		if o != c.outcome || r != c.reasons || ok != c.ok {
			t.Errorf("%q: %q %q %v", c.text, o, r, ok)
		}
	}
}
