package browser

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"

	"github.com/webagent/webagent/contract"
)

// Real input: every action reaches the page as trusted mouse and keyboard
// events dispatched by Chromium's input pipeline.

// click clicks the left button at the aimed point, first moving the mouse there
// when the page watches pointer motion.
func (b *Browser) click(ctx context.Context, at aimed) error {
	return b.clickWith(ctx, at, 0)
}

// clickWith clicks the left button at the aimed point with the modifier keys of
// mods held (their key events are the caller's).
func (b *Browser) clickWith(ctx context.Context, at aimed, mods int64) error {
	steps := []input.DispatchMouseEventParams{
		{Type: input.DispatchMouseEventTypeMousePressed, X: at.x, Y: at.y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1, Modifiers: mods},
		{Type: input.DispatchMouseEventTypeMouseReleased, X: at.x, Y: at.y, Button: input.MouseButtonLeft, ClickCount: 1, Modifiers: mods},
	}
	if at.moves {
		steps = append([]input.DispatchMouseEventParams{{Type: input.DispatchMouseEventTypeMouseMoved, X: at.x, Y: at.y, Modifiers: mods}}, steps...)
	}
	for _, p := range steps {
		if _, err := cdp.Call(ctx, b.target, input.DispatchMouseEvent, p); err != nil {
			return err
		}
	}
	return nil
}

// wheel turns the mouse wheel at (x, y) by (dx, dy) CSS pixels.
func (b *Browser) wheel(ctx context.Context, x, y, dx, dy float64) error {
	if _, err := cdp.Call(ctx, b.target, input.DispatchMouseEvent, input.DispatchMouseEventParams{
		Type: input.DispatchMouseEventTypeMouseMoved, X: x, Y: y,
	}); err != nil {
		return err
	}
	// Chromium requires both deltas, and the typed parameters leave out a
	// zero one, so this event is sent as a map.
	return b.target.Call(ctx, input.CommandDispatchMouseEvent, map[string]any{
		"type": input.DispatchMouseEventTypeMouseWheel, "x": x, "y": y, "deltaX": dx, "deltaY": dy,
	}, nil)
}

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

func lookupKey(p string) (key, bool) {
	if utf8.RuneCountInString(p) == 1 {
		r, _ := utf8.DecodeRuneInString(p)
		return runeKey(r)
	}
	k, ok := namedKeys[strings.ToLower(p)]
	return k, ok
}

func unknownKey(s string) error {
	return contract.ActionErrorf("unknown key %q: use a key name such as Enter, Tab, Escape, Backspace, Delete, ArrowDown, PageDown, Home, F5 or a single character, optionally with modifiers, such as Control+A or Shift+Tab", s)
}

// press presses and releases the chord's key with its modifiers held.
func (b *Browser) press(ctx context.Context, c chord) error {
	var mask int64
	for _, m := range c.mods {
		mask |= modifierBit(m)
		if err := b.keyEvent(ctx, input.DispatchKeyEventTypeRawKeyDown, m, mask); err != nil {
			return err
		}
	}
	down := input.DispatchKeyEventTypeRawKeyDown
	if c.key.text != "" {
		down = input.DispatchKeyEventTypeKeyDown
	}
	if err := b.keyEvent(ctx, down, c.key, c.mask); err != nil {
		return err
	}
	if err := b.keyEvent(ctx, input.DispatchKeyEventTypeKeyUp, c.key, c.mask); err != nil {
		return err
	}
	for i := len(c.mods) - 1; i >= 0; i-- {
		mask &^= modifierBit(c.mods[i])
		if err := b.keyEvent(ctx, input.DispatchKeyEventTypeKeyUp, c.mods[i], mask); err != nil {
			return err
		}
	}
	return nil
}

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

func (b *Browser) keyEvent(ctx context.Context, typ input.DispatchKeyEventType, k key, mods int64) error {
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
	_, err := cdp.Call(ctx, b.target, input.DispatchKeyEvent, p)
	return err
}

// typeText types s into the focused element: a key press for each
// character the keyboard has, Input.insertText for the others.
func (b *Browser) typeText(ctx context.Context, s string) error {
	var pending strings.Builder
	flush := func() error {
		if pending.Len() == 0 {
			return nil
		}
		_, err := cdp.Call(ctx, b.target, input.InsertText, input.InsertTextParams{Text: pending.String()})
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
		if err := b.press(ctx, chord{key: k}); err != nil {
			return err
		}
	}
	if err := flush(); err != nil {
		return fmt.Errorf("inserting text: %w", err)
	}
	return nil
}
