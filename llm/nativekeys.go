package llm

import "strings"

// Key names of the vendors' computer tools, in webagent's (the DOM's key
// names, joined with "+", as the press tool takes them): Anthropic's
// tools write xdotool's keysyms ("ctrl+a", "Return", "Page_Down",
// "super"), OpenAI's a list of keys ("CTRL", "A"; "ENTER", "ARROWDOWN").

// keyNames maps lower-case vendor key names to the DOM's.
var keyNames = map[string]string{
	"ctrl": "Control", "control": "Control", "control_l": "Control", "control_r": "Control",
	"alt": "Alt", "alt_l": "Alt", "alt_r": "Alt", "option": "Alt",
	"shift": "Shift", "shift_l": "Shift", "shift_r": "Shift",
	"super": "Meta", "super_l": "Meta", "super_r": "Meta", "meta": "Meta", "cmd": "Meta", "command": "Meta", "win": "Meta",
	"return": "Enter", "enter": "Enter", "kp_enter": "Enter",
	"escape": "Escape", "esc": "Escape",
	"backspace": "Backspace", "back_space": "Backspace",
	"tab": "Tab", "iso_left_tab": "Shift+Tab",
	"space": " ", "spacebar": " ",
	"delete": "Delete", "del": "Delete", "kp_delete": "Delete", "insert": "Insert",
	"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
	"arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
	"kp_up": "ArrowUp", "kp_down": "ArrowDown", "kp_left": "ArrowLeft", "kp_right": "ArrowRight",
	"page_up": "PageUp", "prior": "PageUp", "pageup": "PageUp", "page_down": "PageDown", "next": "PageDown", "pagedown": "PageDown",
	"home": "Home", "end": "End", "kp_home": "Home", "kp_end": "End",
	"minus": "-", "plus": "+", "equal": "=", "comma": ",", "period": ".", "slash": "/", "backslash": "\\",
	"semicolon": ";", "apostrophe": "'", "grave": "`", "bracketleft": "[", "bracketright": "]",
	"capslock": "CapsLock", "caps_lock": "CapsLock",
}

// domKey is one vendor key name in the DOM's words: a name of keyNames,
// F1-F24 as they are, a single character as it is.
func domKey(k string) string {
	k = strings.TrimSpace(k)
	if n, ok := keyNames[strings.ToLower(k)]; ok {
		return n
	}
	if len(k) > 1 && (k[0] == 'f' || k[0] == 'F') && strings.Trim(k[1:], "0123456789") == "" {
		return "F" + k[1:]
	}
	return k
}

// chord joins DOM key names into the press tool's chord; a space key is
// written "Space" when a modifier goes with it, which " " cannot show.
func chord(keys []string) string {
	for i, k := range keys {
		if k == " " && len(keys) > 1 {
			keys[i] = "Space"
		}
	}
	return strings.Join(keys, "+")
}

// XdotoolKey translates a key or chord of xdotool's keysyms (Anthropic's
// computer tools: "ctrl+a", "Return", "shift+Tab", "Page_Down") into
// webagent's ("Control+a", "Enter", "Shift+Tab", "PageDown"). A lone "+"
// stays itself.
func XdotoolKey(s string) string {
	s = strings.TrimSpace(s)
	if s == "+" || s == "" {
		return s
	}
	parts := strings.Split(s, "+")
	if strings.HasSuffix(s, "++") { // "ctrl++" presses "+"
		parts = append(strings.Split(strings.TrimSuffix(s, "++"), "+"), "+")
	}
	var keys []string
	for _, p := range parts {
		keys = append(keys, domKey(p))
	}
	return chord(keys)
}

// KeyList translates a list of keys pressed together (OpenAI's computer
// tool: ["CTRL", "A"], ["ENTER"]) into webagent's chord ("Control+a",
// "Enter"). A letter is written in lower case unless Shift is held, as a
// shortcut's letter is.
func KeyList(keys []string) string {
	var out []string
	shift := false
	for _, k := range keys {
		d := domKey(k)
		shift = shift || d == "Shift"
		out = append(out, d)
	}
	for i, k := range out {
		if len(k) == 1 && !shift {
			out[i] = strings.ToLower(k)
		}
	}
	return chord(out)
}
