package suggest

import "testing"

func TestClosest(t *testing.T) {
	t.Parallel()
	known := []string{"tool", "site", "role", "name", "form_method", "form_action"}
	for w, want := range map[string]string{
		"tol": "tool", "too": "tool", "form_mehtod": "form_method", "sitee": "site", "xyz": "", "": "",
	} {
		if got := Closest(w, known); got != want {
			t.Errorf("Closest(%q) = %q, want %q", w, got, want)
		}
	}
	if d := Distance("ouput", "output"); d != 1 {
		t.Errorf("a missing letter: %d edits", d)
	}
	if d := Distance("mehtod", "method"); d != 1 {
		t.Errorf("a swap: %d edits, want 1", d)
	}
	if h := Hint("tol", known[:2], "fields"); h != `; did you mean "tool"? fields: tool, site` {
		t.Errorf("Hint: %q", h)
	}
}
