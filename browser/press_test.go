package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestPressChord(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Keys</title>
<input aria-label="First"><input aria-label="Second" value="some text">
<p id=log></p>
<script>
document.addEventListener('keydown', (e) => { if (e.isTrusted) document.getElementById('log').textContent += e.key + (e.ctrlKey ? '+ctrl' : '') + ' '; });
</script>`))
	second := refOf(t, s, `textbox "Second"`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: second})
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "Control+A"})
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "Backspace"})
	if got := evalPage[string](t, shared, "document.querySelectorAll('input')[1].value"); got != "" {
		t.Errorf("after Control+A, Backspace the field holds %q", got)
	}
	do(t, shared, contract.Action{Name: contract.ActPress, Key: "Shift+Tab"})
	if got := evalPage[string](t, shared, "document.activeElement.getAttribute('aria-label')"); got != "First" {
		t.Errorf("after Shift+Tab the focus is on %q", got)
	}
	if got := evalPage[string](t, shared, "document.getElementById('log').textContent"); !strings.Contains(got, "a+ctrl") {
		t.Errorf("key events seen by the page: %q", got)
	}
	for _, bad := range []string{"Hyperdrive", "Control+", "Foo+A"} {
		_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActPress, Key: bad})
		if !isActionError(err) {
			t.Errorf("press %q: %v, want an ActionError", bad, err)
		}
	}
}
