package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestMultiSelectKeepsOthers(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, multiPage))
	ref := refOf(t, s, `listbox "Toppings"`)
	chosen := func() string {
		return evalPage[string](t, shared, "Array.from(document.getElementById('t').selectedOptions).map((o) => o.value).join(',')")
	}
	out := do(t, shared, contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Peppers"}})
	if !strings.Contains(out, `chosen now "Cheese", "Olives", "Peppers"`) {
		t.Errorf("outcome = %q", out)
	}
	if got := chosen(); got != "ch,ol,pe" {
		t.Errorf("chosen = %q, want ch,ol,pe", got)
	}
	out = do(t, shared, contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"on"}, Remove: []string{"cheese"}})
	if got := chosen(); got != "ol,on,pe" || evalPage[string](t, shared, "document.getElementById('log').textContent") != "ol,on,pe" {
		t.Errorf("chosen = %q after adding Onions and removing Cheese (%s)", got, out)
	}
	// select on a multiple select adds to the choice.
	out = do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref, Option: "Mushrooms"})
	if got := chosen(); got != "mu,ol,on,pe" || !strings.Contains(out, `chosen now "Mushrooms", "Olives", "Onions", "Peppers"`) {
		t.Errorf("select on a multiple select: chosen %q, outcome %q", got, out)
	}
	// An unknown option changes nothing, also the ones that exist.
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Cheese", "Pineapple"}, Remove: []string{"Olives"}})
	if !isActionError(err) || !strings.Contains(err.Error(), `no option "Pineapple"`) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("an unknown option: %v", err)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Anchovies"}})
	if !isActionError(err) || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("a disabled option: %v", err)
	}
	if got := chosen(); got != "mu,ol,on,pe" {
		t.Errorf("refused choices changed the select: %q", got)
	}
}

func TestMultiSelectARIAListbox(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, ariaMultiPage))
	ref := refOf(t, s, `listbox "Colours"`)
	chosen := func() string {
		return evalPage[string](t, shared, "Array.from(document.querySelectorAll('[aria-selected=true]')).map((o) => o.textContent).join(',')")
	}
	out := do(t, shared, contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Blue", "Green"}, Remove: []string{"Black"}})
	if got := chosen(); got != "Red,Green,Blue" || !strings.Contains(out, `chosen now "Red", "Green", "Blue"`) {
		t.Errorf("chosen %q; outcome %q", got, out)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActMultiSelect, Ref: ref, Options: []string{"Purple"}, Remove: []string{"Red"}})
	if !isActionError(err) || !strings.Contains(err.Error(), `no option "Purple"`) {
		t.Errorf("an unknown option: %v", err)
	}
	if got := chosen(); got != "Red,Green,Blue" {
		t.Errorf("a refused change changed the listbox: %q", got)
	}
}

const multiPage = `<title>Toppings</title>
<label for=t>Toppings</label>
<select id=t multiple size=6>
  <option value=ch selected>Cheese</option><option value=mu>Mushrooms</option><option value=ol selected>Olives</option>
  <option value=on>Onions</option><option value=pe>Peppers</option><option value=an disabled>Anchovies</option>
</select>
<p id=log></p>
<script>document.getElementById('t').addEventListener('change', (e) => { document.getElementById('log').textContent = Array.from(e.target.selectedOptions).map((o) => o.value).join(','); });</script>`

// An ARIA listbox with several choices: a plain click chooses only that
// option, a click with Control toggles it, as desktop lists do.
const ariaMultiPage = `<title>Colours</title>
<div role=listbox aria-label="Colours" aria-multiselectable=true tabindex=0>
  <div role=option aria-selected=true>Red</div><div role=option aria-selected=false>Green</div>
  <div role=option aria-selected=false>Blue</div><div role=option aria-selected=true>Black</div>
</div>
<script>
for (const o of document.querySelectorAll('[role=option]')) o.addEventListener('click', (e) => {
  if (!e.ctrlKey) for (const p of document.querySelectorAll('[role=option]')) p.setAttribute('aria-selected', 'false');
  o.setAttribute('aria-selected', String(!(e.ctrlKey && o.getAttribute('aria-selected') === 'true')));
});
</script>`
