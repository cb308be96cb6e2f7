package browser

import "testing"

func TestParseChord(t *testing.T) {
	for _, c := range []struct {
		in         string
		key, text  string
		mask       int64
		modifiers  int
		wantsError bool
	}{
		{in: "Enter", key: "Enter", text: "\r"},
		{in: "enter", key: "Enter", text: "\r"},
		{in: "Esc", key: "Escape"},
		{in: "ArrowDown", key: "ArrowDown"},
		{in: "PageDown", key: "PageDown"},
		{in: "Backspace", key: "Backspace"},
		{in: "Tab", key: "Tab"},
		{in: "F5", key: "F5"},
		{in: "a", key: "a", text: "a"},
		{in: "Space", key: " ", text: " "},
		{in: "+", key: "+", text: "+"},
		{in: "Control+A", key: "a", mask: modCtrl, modifiers: 1},
		{in: "ctrl+shift+z", key: "Z", mask: modCtrl | modShift, modifiers: 2},
		{in: "Shift+Tab", key: "Tab", mask: modShift, modifiers: 1},
		{in: "Shift+a", key: "A", text: "A", mask: modShift, modifiers: 1},
		{in: "Control++", key: "+", mask: modCtrl, modifiers: 1},
		{in: "Shift", key: "Shift"},
		{in: "Hyperdrive", wantsError: true},
		{in: "Control+", wantsError: true},
		{in: "Foo+A", wantsError: true},
		{in: "", wantsError: true},
	} {
		got, err := parseChord(c.in)
		if c.wantsError {
			if !isActionError(err) {
				t.Errorf("parseChord(%q) = %+v, %v; want an ActionError", c.in, got, err)
			}
			continue
		}
		if err != nil || got.key.name != c.key || got.key.text != c.text || got.mask != c.mask || len(got.mods) != c.modifiers {
			t.Errorf("parseChord(%q) = %+v, %v; want key %q text %q mask %d with %d modifiers", c.in, got, err, c.key, c.text, c.mask, c.modifiers)
		}
	}
}
