package llm

import "testing"

// The vendors' key names become the press tool's chords.
func TestNativeKeys(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ctrl+a": "Control+a", "Return": "Enter", "shift+Tab": "Shift+Tab", "Page_Down": "PageDown",
		"super+l": "Meta+l", "KP_Enter": "Enter", "BackSpace": "Backspace", "F5": "F5", "ctrl+shift+t": "Control+Shift+t",
		"space": " ", "ctrl+space": "Control+Space", "+": "+", "ctrl++": "Control++", "Escape": "Escape", "Up": "ArrowUp",
	} {
		if got := XdotoolKey(in); got != want {
			t.Errorf("XdotoolKey(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"CTRL", "A"}, "Control+a"}, {[]string{"ENTER"}, "Enter"}, {[]string{"SHIFT", "A"}, "Shift+A"},
		{[]string{"ARROWDOWN"}, "ArrowDown"}, {[]string{"CMD", "C"}, "Meta+c"}, {[]string{"ESC"}, "Escape"}, {[]string{"SPACE"}, " "},
	} {
		if got := KeyList(c.in); got != c.want {
			t.Errorf("KeyList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
