package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestSelect(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Select</title>
<label for=size>Size</label>
<select id=size><option value="">Choose</option><option value=s>Small</option><option value=m>Medium</option><option value=l disabled>Large</option></select>
<p id=log></p>
<script>document.getElementById('size').addEventListener('change', (e) => document.getElementById('log').textContent = 'changed to ' + e.target.value);</script>`))
	ref := refOf(t, s, `combobox "Size"`)
	out := do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref, Option: "medium"})
	if !strings.HasPrefix(out, `selected "Medium" in combobox "Size"`) {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "document.getElementById('log').textContent"); got != "changed to m" {
		t.Errorf("change handler: %q", got)
	}
	do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref, Option: "s"}) // by value
	wantLine(t, snapshot(t, shared), `combobox "Size" value="Small" focused [ref=`+ref+`]`)

	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActSelect, Ref: ref, Option: "Huge"})
	if !isActionError(err) || !strings.Contains(err.Error(), `"Small", "Medium"`) {
		t.Errorf("select of a missing option: %v", err)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActSelect, Ref: ref, Option: "Large"})
	if !isActionError(err) || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("select of a disabled option: %v", err)
	}
}
