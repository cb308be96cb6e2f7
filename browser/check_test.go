package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestStyledCheckboxLabel(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	// The checkbox itself is hidden; its label is what a user clicks.
	s := open(t, shared, servePage(t, `<title>Styled</title>
<style>.switch input{display:none}.switch span{display:inline-block;width:40px;height:20px;background:#ccc}</style>
<label class=switch><input type=checkbox id=dark><span></span> Dark mode</label>
<label><input type=password name=pin aria-label="PIN"></label>`))
	ref := refOf(t, s, `checkbox "Dark mode"`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref})
	wantLine(t, snapshot(t, shared), `checkbox "Dark mode" checked [ref=`+ref+`]`)

	out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "PIN"`), Text: "1234"})
	if strings.Contains(out, "1234") || !strings.Contains(out, "typed 4 characters") {
		t.Errorf("typing a password shows it: %q", out)
	}
	if got := evalPage[string](t, shared, "document.querySelector('[name=pin]').value"); got != "1234" {
		t.Errorf("PIN = %q", got)
	}
	if strings.Contains(snapshot(t, shared).Text, "1234") {
		t.Errorf("the snapshot shows the password")
	}
}

func TestCheckAndUncheck(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Checks</title>
<label><input type=checkbox id=a> Alpha</label>
<style>.sw input{display:none}.sw span{display:inline-block;width:30px;height:16px;background:#ccc}</style>
<label class=sw><input type=checkbox id=b><span></span> Beta</label>
<div role=checkbox aria-checked=false tabindex=0 id=c onclick="this.setAttribute('aria-checked', this.getAttribute('aria-checked') !== 'true')">Gamma</div>
<div role=checkbox aria-checked=false tabindex=0 id=d>Stuck</div>
<input type=checkbox disabled aria-label="Locked">
<a href="#x">Link</a>`))
	for _, c := range []struct{ role, name, js string }{
		{"checkbox", "Alpha", "document.getElementById('a').checked"},
		{"checkbox", "Beta", "document.getElementById('b').checked"},
		{"checkbox", "Gamma", "document.getElementById('c').getAttribute('aria-checked') === 'true'"},
	} {
		r := ref(t, s, c.role, c.name)
		if out := do(t, shared, contract.Action{Name: contract.ActUncheck, Ref: r}); !strings.Contains(out, "is already not checked") {
			t.Errorf("uncheck %s: %q", c.name, out)
		}
		if out := do(t, shared, contract.Action{Name: contract.ActCheck, Ref: r}); !strings.HasPrefix(out, `checked checkbox "`+c.name+`"`) {
			t.Errorf("check %s: %q", c.name, out)
		}
		if !evalPage[bool](t, shared, c.js) {
			t.Errorf("%s is not checked", c.name)
		}
		if out := do(t, shared, contract.Action{Name: contract.ActCheck, Ref: r}); !strings.Contains(out, "is already checked") {
			t.Errorf("check %s again: %q", c.name, out)
		}
		do(t, shared, contract.Action{Name: contract.ActUncheck, Ref: r})
		if evalPage[bool](t, shared, c.js) {
			t.Errorf("%s is still checked", c.name)
		}
	}
	for _, c := range []struct{ role, name, want string }{
		{"checkbox", "Stuck", "still not checked"},
		{"checkbox", "Locked", "disabled"},
		{"link", "Link", "not a checkbox"},
	} {
		if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActCheck, Ref: ref(t, s, c.role, c.name)}); !isActionError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check %s: %v, want %q", c.name, err, c.want)
		}
	}
}
