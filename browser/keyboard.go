package browser

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"

	"github.com/webagent/webagent/contract"
)

// The keyboard: key names and chords ("Enter", "Control+A"), and the key
// events every action sends as trusted input through Chromium's input
// pipeline, never as events made up by a script.

// Modifier bits of input events.
const (
	modAlt   = 1
	modCtrl  = 2
	modMeta  = 4
	modShift = 8
)

// key is one key of the keyboard.
type key struct {
	name    string // DOM key value: "Enter", "a", "ArrowDown"
	code    string // DOM code: "Enter", "KeyA"
	keyCode int64  // Windows virtual key code
	text    string // text it types, if any
}

// chord is a key with the modifier keys held while it is pressed.
type chord struct {
	mods []key
	mask int64
	key  key
}

var modifierKeys = map[string]struct {
	key
	bit int64
}{
	"control": {key{"Control", "ControlLeft", 17, ""}, modCtrl},
	"ctrl":    {key{"Control", "ControlLeft", 17, ""}, modCtrl},
	"shift":   {key{"Shift", "ShiftLeft", 16, ""}, modShift},
	"alt":     {key{"Alt", "AltLeft", 18, ""}, modAlt},
	"option":  {key{"Alt", "AltLeft", 18, ""}, modAlt},
	"meta":    {key{"Meta", "MetaLeft", 91, ""}, modMeta},
	"cmd":     {key{"Meta", "MetaLeft", 91, ""}, modMeta},
	"command": {key{"Meta", "MetaLeft", 91, ""}, modMeta},
}

// namedKeys maps lower-case key names ("enter", "arrowdown", "f5") to keys,
// from chromedp's table of the DOM keys, plus common aliases.
var namedKeys = func() map[string]key {
	m := map[string]key{}
	for _, k := range kb.Keys {
		if utf8.RuneCountInString(k.Key) > 1 {
			m[strings.ToLower(k.Key)] = toKey(k)
		}
	}
	for alias, name := range map[string]string{
		"esc": "escape", "return": "enter", "del": "delete", "up": "arrowup",
		"down": "arrowdown", "left": "arrowleft", "right": "arrowright",
		"pgup": "pageup", "pgdn": "pagedown", "ins": "insert",
	} {
		m[alias] = m[name]
	}
	m["space"] = toKey(kb.Keys[' '])
	m["plus"] = toKey(kb.Keys['+'])
	return m
}()

// toKey is the key of chromedp's table entry.
func toKey(k *kb.Key) key {
	text := ""
	if k.Print {
		text = k.Text
	}
	return key{name: k.Key, code: k.Code, keyCode: k.Windows, text: text}
}

// runeKey returns the key that types r, if the keyboard has one.
func runeKey(r rune) (key, bool) {
	if r == '\n' {
		r = '\r'
	}
	k, ok := kb.Keys[r]
	if !ok || (!k.Print && r != '\r') {
		return key{}, false
	}
	return toKey(k), true
}

// parseChord parses "Enter", "a", "Control+A" or "Shift+Tab".
func parseChord(s string) (chord, error) {
	var c chord
	s = strings.TrimSpace(s)
	parts := strings.Split(s, "+")
	switch {
	case s == "+":
		parts = []string{"+"}
	case strings.HasSuffix(s, "++"): // "Control++" presses "+"
		parts = append(strings.Split(strings.TrimSuffix(s, "++"), "+"), "+")
	}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		last := i == len(parts)-1
		if m, ok := modifierKeys[strings.ToLower(p)]; ok && !last {
			c.mods = append(c.mods, m.key)
			c.mask |= m.bit
			continue
		}
		if !last {
			return chord{}, unknownKey(s)
		}
		k, ok := lookupKey(p)
		if !ok {
			if m, isMod := modifierKeys[strings.ToLower(p)]; isMod {
				k = m.key // a modifier pressed alone
			} else {
				return chord{}, unknownKey(s)
			}
		}
		c.key = k
	}
	// A letter with Control, Alt or Meta is a shortcut: it types nothing,
	// and Shift picks the upper case.
	if r, size := utf8.DecodeRuneInString(c.key.name); size == len(c.key.name) && r < utf8.RuneSelf {
		if c.mask&modShift != 0 {
			c.key.name = strings.ToUpper(c.key.name)
		} else if c.mask&(modCtrl|modAlt|modMeta) != 0 {
			c.key.name = strings.ToLower(c.key.name)
		}
	}
	if c.mask&(modCtrl|modAlt|modMeta) != 0 {
		c.key.text = ""
	} else if c.key.text != "" && c.mask&modShift != 0 && len(c.key.text) == 1 {
		c.key.text = strings.ToUpper(c.key.text)
	}
	return c, nil
}

// lookupKey returns the key of a name or a single character.
func lookupKey(p string) (key, bool) {
	if utf8.RuneCountInString(p) == 1 {
		r, _ := utf8.DecodeRuneInString(p)
		return runeKey(r)
	}
	k, ok := namedKeys[strings.ToLower(p)]
	return k, ok
}

// unknownKey is the error of a key name the keyboard does not have.
func unknownKey(s string) error {
	return contract.ActionErrorf("unknown key %q: use a key name such as Enter, Tab, Escape, Backspace, Delete, ArrowDown, PageDown, Home, F5 or a single character, optionally with modifiers, such as Control+A or Shift+Tab", s)
}

// press presses and releases the chord's key with its modifiers held.
func (o *op) press(c chord) error {
	var mask int64
	for _, m := range c.mods {
		mask |= modifierBit(m)
		if err := o.keyEvent(input.DispatchKeyEventTypeRawKeyDown, m, mask); err != nil {
			return err
		}
	}
	down := input.DispatchKeyEventTypeRawKeyDown
	if c.key.text != "" {
		down = input.DispatchKeyEventTypeKeyDown
	}
	if err := o.keyEvent(down, c.key, c.mask); err != nil {
		return err
	}
	if err := o.keyEvent(input.DispatchKeyEventTypeKeyUp, c.key, c.mask); err != nil {
		return err
	}
	for i := len(c.mods) - 1; i >= 0; i-- {
		mask &^= modifierBit(c.mods[i])
		if err := o.keyEvent(input.DispatchKeyEventTypeKeyUp, c.mods[i], mask); err != nil {
			return err
		}
	}
	return nil
}

// modifierBit is the modifier bit of a modifier key, 0 for another key.
func modifierBit(k key) int64 {
	switch k.name {
	case "Control":
		return modCtrl
	case "Shift":
		return modShift
	case "Alt":
		return modAlt
	case "Meta":
		return modMeta
	}
	return 0
}

// keyEvent sends one key event with the modifier bits mods.
func (o *op) keyEvent(typ input.DispatchKeyEventType, k key, mods int64) error {
	p := input.DispatchKeyEventParams{
		Type:                  typ,
		Modifiers:             mods,
		Key:                   k.name,
		Code:                  k.code,
		WindowsVirtualKeyCode: k.keyCode,
		NativeVirtualKeyCode:  k.keyCode,
	}
	if typ == input.DispatchKeyEventTypeKeyDown {
		p.Text, p.UnmodifiedText = k.text, k.text
	}
	if mods&modCtrl != 0 && typ != input.DispatchKeyEventTypeKeyUp {
		// Chromium maps editing shortcuts to commands only on some
		// platforms; name the common ones so they work everywhere.
		switch strings.ToLower(k.name) {
		case "a":
			p.Commands = []string{"selectAll"}
		case "c":
			p.Commands = []string{"copy"}
		case "x":
			p.Commands = []string{"cut"}
		case "v":
			p.Commands = []string{"paste"}
		}
	}
	_, err := cdp.Call(o.ctx, o.b.target, input.DispatchKeyEvent, p)
	return err
}

// typeText types s into the focused element: a key press for each
// character the keyboard has, Input.insertText for the others.
func (o *op) typeText(s string) error {
	var pending strings.Builder
	flush := func() error {
		if pending.Len() == 0 {
			return nil
		}
		_, err := cdp.Call(o.ctx, o.b.target, input.InsertText, input.InsertTextParams{Text: pending.String()})
		pending.Reset()
		return err
	}
	for _, r := range s {
		k, ok := runeKey(r)
		if !ok {
			pending.WriteRune(r)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		if err := o.press(chord{key: k}); err != nil {
			return err
		}
	}
	if err := flush(); err != nil {
		return fmt.Errorf("inserting text: %w", err)
	}
	return nil
}
