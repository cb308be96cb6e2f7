package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// TestPersonAct: what a person's input acted on is named as the snapshot
// names it, before any snapshot of the page and after: the button under
// the pointer, a checkbox by its label's text, a field and its value as
// the keys left it (also when the page moves the focus on at once, as a
// one-time code's boxes do), a select, Enter in a textarea; nothing for
// the page's background.
func TestPersonAct(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	url := servePage(t, `<style>body{margin:0} div{position:absolute;left:10px;height:30px;width:400px}</style>
		<div style="top:10px"><button id="go">Save draft</button></div>
		<div style="top:60px"><label><input type="checkbox"> <span id="rem">Remember me</span></label></div>
		<div style="top:110px"><label>Code <input id="f"></label></div>
		<div style="top:160px"><label>Size <select id="s"><option>Small</option><option>Large</option></select></label></div>
		<div style="top:210px;height:60px"><label>Notes <textarea id="ta"></textarea></label></div>
		<div style="top:300px"><input id="o1" aria-label="Digit 1" maxlength="1" size="2"><input id="o2" aria-label="Digit 2" maxlength="1" size="2"></div>
		<script>document.getElementById('o1').addEventListener('input', () => document.getElementById('o2').focus());</script>`)
	do(t, b, contract.Action{Name: contract.ActGoto, URL: url})
	act := func(in contract.PersonInput) contract.PersonTarget {
		t.Helper()
		tg, err := b.PersonAct(tctx(t), in)
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		return tg
	}
	at := func(id string) (float64, float64) {
		t.Helper()
		v, err := b.Eval(tctx(t), `(() => { const r = document.getElementById('`+id+`').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
		if err != nil {
			t.Fatal(err)
		}
		p := v.([]any)
		return p[0].(float64), p[1].(float64)
	}
	press := func(id string) contract.PersonTarget {
		t.Helper()
		x, y := 400.0, 500.0 // the background
		if id != "" {
			x, y = at(id)
		}
		tg := act(contract.PersonInput{Kind: contract.InputMouseDown, X: x, Y: y, Button: "left", Clicks: 1})
		act(contract.PersonInput{Kind: contract.InputMouseUp, X: x, Y: y, Button: "left", Clicks: 1})
		return tg
	}
	key := func(k, text string) contract.PersonTarget {
		t.Helper()
		tg := act(contract.PersonInput{Kind: contract.InputKeyDown, Key: k, Text: text})
		act(contract.PersonInput{Kind: contract.InputKeyUp, Key: k})
		return tg
	}
	named := func(what string, tg contract.PersonTarget, role, name string) {
		t.Helper()
		if tg.Role != role || tg.Name != name {
			t.Errorf("%s: %s %q, want %s %q", what, tg.Role, tg.Name, role, name)
		}
	}
	// Before any snapshot: the page's own names.
	named("the button", press("go"), "button", "Save draft")
	named("the checkbox's label", press("rem"), "checkbox", "Remember me")
	if tg := press(""); tg.Role != "" {
		t.Errorf("the background is named %s %q", tg.Role, tg.Name)
	}
	if tg := press("f"); tg.Role != "textbox" || tg.Name != "Code" || !tg.Field || tg.Multiline || tg.HasValue {
		t.Errorf("the field pressed: %+v", tg)
	}
	key("4", "4")
	tg := act(contract.PersonInput{Kind: contract.InputText, Text: "2 7"})
	if !tg.Field || !tg.HasValue || tg.Value != "42 7" {
		t.Errorf("after typing the field is %+v, want its value 42 7", tg)
	}
	if tg := key("Backspace", ""); tg.Value != "42 " {
		t.Errorf("after Backspace: %q", tg.Value)
	}
	sx, sy := at("s")
	named("the select", act(contract.PersonInput{Kind: contract.InputSelectOption, X: sx, Y: sy, Text: "Large"}), "combobox", "Size")
	press("ta")
	key("a", "a")
	if tg := key("Enter", ""); !tg.Multiline || tg.Value != "a\n" {
		t.Errorf("Enter in the textarea: %+v", tg)
	}
	press("o1")
	if tg := key("9", "9"); tg.Name != "Digit 1" || tg.Value != "9" {
		t.Errorf("a key that moved the focus on: %s %q holds %q, want Digit 1 holding 9", tg.Role, tg.Name, tg.Value)
	}
	// After a snapshot, the names are the snapshot's lines, with refs.
	snap := snapshot(t, b)
	for _, c := range []struct {
		id, line string
	}{{"go", `button "Save draft"`}, {"f", `textbox "Code"`}, {"o1", `textbox "Digit 1"`}} {
		tg := press(c.id)
		ref := refOf(t, snap, c.line)
		if got := tg.Role + ` "` + tg.Name + `"`; got != c.line || tg.Ref != ref || !strings.HasPrefix(tg.URL, url) {
			t.Errorf("after a snapshot: %s [ref=%s] on %s, want %s [ref=%s]", got, tg.Ref, tg.URL, c.line, ref)
		}
	}
}
