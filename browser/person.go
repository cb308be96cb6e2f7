package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// A person's input from a live view (contract.Screencaster): trusted input
// through Chromium's input pipeline, as the model's actions are, to the
// current tab. It takes no sem: a live view sends it only while the loop is
// held at a step boundary, and an input is a command or two.
//
// One thing a headless screen never paints is a <select>'s list: a press on
// a select opens no list here; the live view is told its options instead
// (contract.ScreenPopup, on the screencast's events) and the person's choice
// comes back as contract.InputSelectOption, set as the select action sets
// one (its input and change events fire).

// PersonInput implements contract.Screencaster.
func (b *Browser) PersonInput(ctx context.Context, in contract.PersonInput) error {
	if err := b.broken.Err(); err != nil {
		return fmt.Errorf("%w", context.Cause(b.broken))
	}
	t, _ := b.shown.get()
	if t == nil {
		return errNoTab
	}
	switch in.Kind {
	case contract.InputMouseMove, contract.InputMouseDown, contract.InputMouseUp, contract.InputWheel:
		if in.Kind == contract.InputMouseDown {
			b.typing.Store(false) // the focus may move
		}
		if in.Kind == contract.InputMouseDown && in.Button != "right" {
			if opened, err := b.selectAt(ctx, t, in.X, in.Y); err != nil || opened {
				return err
			}
		}
		_, err := cdp.Call(ctx, t.target, input.DispatchMouseEvent, mouseParams(in))
		return err
	case contract.InputKeyDown, contract.InputKeyUp:
		b.noteTyping(ctx, t, in)
		_, err := cdp.Call(ctx, t.target, input.DispatchKeyEvent, keyParams(in))
		return err
	case contract.InputText:
		if in.Text == "" || !utf8.ValidString(in.Text) {
			return fmt.Errorf("browser: a person's text must be non-empty UTF-8")
		}
		b.noteTyping(ctx, t, in)
		_, err := cdp.Call(ctx, t.target, input.InsertText, input.InsertTextParams{Text: in.Text})
		return err
	case contract.InputSelectOption:
		return b.chooseAt(ctx, t, in.X, in.Y, in.Text)
	}
	return fmt.Errorf("browser: unknown input kind %q", in.Kind)
}

// mouseParams is the CDP event of a person's mouse input.
func mouseParams(in contract.PersonInput) input.DispatchMouseEventParams {
	p := input.DispatchMouseEventParams{X: in.X, Y: in.Y, Modifiers: int64(in.Modifiers & 15)}
	btn, mask := input.MouseButtonLeft, int64(1)
	switch in.Button {
	case "middle":
		btn, mask = input.MouseButtonMiddle, 4
	case "right":
		btn, mask = input.MouseButtonRight, 2
	}
	clicks := int64(max(in.Clicks, 1))
	switch in.Kind {
	case contract.InputMouseMove:
		p.Type, p.Button = input.DispatchMouseEventTypeMouseMoved, input.MouseButtonNone
		if in.Button != "" {
			p.Buttons = mask // a drag
		}
	case contract.InputMouseDown:
		p.Type, p.Button, p.Buttons, p.ClickCount = input.DispatchMouseEventTypeMousePressed, btn, mask, clicks
	case contract.InputMouseUp:
		p.Type, p.Button, p.ClickCount = input.DispatchMouseEventTypeMouseReleased, btn, clicks
	case contract.InputWheel:
		p.Type, p.DeltaX, p.DeltaY = input.DispatchMouseEventTypeMouseWheel, in.DeltaX, in.DeltaY
	}
	return p
}

// keyParams is the CDP event of a person's key: the Windows key code,
// which Chromium's editing needs (Backspace, the arrows, Enter), comes
// from the keyboard's table by the key's name.
func keyParams(in contract.PersonInput) input.DispatchKeyEventParams {
	p := input.DispatchKeyEventParams{Key: in.Key, Code: in.Code, Modifiers: int64(in.Modifiers & 15)}
	if k, ok := lookupKey(in.Key); ok {
		p.WindowsVirtualKeyCode, p.NativeVirtualKeyCode = k.keyCode, k.keyCode
		if p.Code == "" {
			p.Code = k.code
		}
	}
	if in.Kind == contract.InputKeyUp {
		p.Type = input.DispatchKeyEventTypeKeyUp
		return p
	}
	// A key that types goes as keyDown with its text; a shortcut (Ctrl or
	// Meta held) or a key that types nothing as rawKeyDown.
	text := in.Text
	if in.Key == "Enter" {
		text = "\r"
	}
	if text == "" || in.Modifiers&(modCtrl|modMeta) != 0 {
		p.Type = input.DispatchKeyEventTypeRawKeyDown
		if in.Modifiers&modCtrl != 0 {
			switch strings.ToLower(in.Key) {
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
		return p
	}
	p.Type, p.Text, p.UnmodifiedText = input.DispatchKeyEventTypeKeyDown, text, text
	return p
}

// selectAtJS: the list of the enabled single <select> at (x, y), focused,
// or null.
const selectAtJS = `(() => {
  const el = document.elementFromPoint(%s, %s);
  const s = el && el.closest && el.closest('select');
  if (!s || s.multiple || s.disabled || s.size > 1) return null;
  s.focus();
  return {options: Array.from(s.options, o => o.label || o.text), chosen: s.selectedIndex >= 0 ? (s.options[s.selectedIndex].label || s.options[s.selectedIndex].text) : ''};
})()`

// chooseAtJS picks the option of the label at (x, y)'s select, as the
// select action does: its input and change events fire.
const chooseAtJS = `(() => {
  const el = document.elementFromPoint(%s, %s);
  const s = el && el.closest && el.closest('select');
  if (!s || s.disabled) return 'no select there';
  const i = Array.from(s.options).findIndex(o => (o.label || o.text) === %s);
  if (i < 0) return 'no such option';
  if (s.options[i].disabled) return 'that option is disabled';
  s.selectedIndex = i;
  s.dispatchEvent(new Event('input', {bubbles: true}));
  s.dispatchEvent(new Event('change', {bubbles: true}));
  return '';
})()`

// selectAt tells the live view the options of the select a press at
// (x, y) would open, instead of pressing: a headless screen never paints
// its list.
func (b *Browser) selectAt(ctx context.Context, t *tab, x, y float64) (bool, error) {
	res, err := b.evalWorld(ctx, t.target, runtime.EvaluateParams{
		Expression: fmt.Sprintf(selectAtJS, num(x), num(y)), ReturnByValue: new(true)})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || len(res.Result.Value) == 0 || string(res.Result.Value) == "null" {
		return false, nil // not a select, or the page is busy: press as usual
	}
	var list struct {
		Options []string
		Chosen  string
	}
	if err := json.Unmarshal(res.Result.Value, &list); err != nil {
		return false, nil
	}
	b.castNote(contract.ScreenEvent{Kind: contract.ScreenPopup, Tab: t.id, Text: list.Chosen, Options: list.Options})
	return true, nil
}

// chooseAt picks option in the select at (x, y).
func (b *Browser) chooseAt(ctx context.Context, t *tab, x, y float64, option string) error {
	res, err := b.evalWorld(ctx, t.target, runtime.EvaluateParams{
		Expression: fmt.Sprintf(chooseAtJS, num(x), num(y), jsString(option)), ReturnByValue: new(true)})
	if err != nil {
		return err
	}
	var msg string
	if res.Result != nil {
		_ = json.Unmarshal(res.Result.Value, &msg)
	}
	if msg != "" {
		return fmt.Errorf("browser: choosing %q: %s", option, msg)
	}
	return nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// castNote hands ev to the screencast running, if any.
func (b *Browser) castNote(ev contract.ScreenEvent) {
	select {
	case b.shown.notes() <- ev:
	default:
	}
}

// activeFieldJS names the focused field as a snapshot would: role "name".
const activeFieldJS = `(() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body || el === document.documentElement) return '';
  const tag = el.tagName.toLowerCase(), type = (el.getAttribute('type') || '').toLowerCase();
  let role = el.getAttribute('role');
  if (!role) role = tag === 'textarea' || el.isContentEditable ? 'textbox' : tag === 'select' ? 'combobox' :
    tag === 'input' ? ({search: 'searchbox', checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton'}[type] || 'textbox') : tag;
  let name = el.getAttribute('aria-label') || '';
  const by = el.getAttribute('aria-labelledby');
  if (!name && by) name = by.split(/\s+/).map((i) => (document.getElementById(i) || {}).textContent || '').join(' ');
  if (!name && el.labels && el.labels.length) name = el.labels[0].textContent;
  if (!name) name = el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('name') || '';
  return role + ' "' + name.replace(/\s+/g, ' ').trim().slice(0, 80) + '"';
})()`

// noteTyping tells the live view which field a person's keys go to, once
// for each field a click or Tab moved to (never what they type).
func (b *Browser) noteTyping(ctx context.Context, t *tab, in contract.PersonInput) {
	if in.Kind == contract.InputKeyUp {
		return
	}
	if in.Key == "Tab" {
		b.typing.Store(false)
		return
	}
	edits := in.Kind == contract.InputText || in.Text != "" || in.Key == "Backspace" || in.Key == "Delete"
	if !edits || in.Modifiers&(modCtrl|modMeta) != 0 || !b.typing.CompareAndSwap(false, true) {
		return
	}
	res, err := b.evalWorld(ctx, t.target, runtime.EvaluateParams{Expression: activeFieldJS, ReturnByValue: new(true)})
	if err != nil || res.Result == nil {
		return
	}
	var name string
	if json.Unmarshal(res.Result.Value, &name) == nil && name != "" {
		b.castNote(contract.ScreenEvent{Kind: contract.ScreenTyped, Tab: t.id, Text: name})
	}
}
