package browser

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// click says what the click changed: the page, nothing, a dialog or a new
// tab.
func TestClickSaysWhatChanged(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/": `<title>Effects</title>
<button onclick="document.getElementById('n').textContent++">Add</button><span id=n>0</span>
<button>Inert</button>
<button onclick="setTimeout(() => document.getElementById('n').textContent = 'later')">Later</button>
<button onclick="setTimeout(() => { const t = Date.now(); while (Date.now() - t < 4000); })">Busy</button>
<button onclick="alert('Saved!')">Alert</button>
<a href="/other" target=_blank>Open</a>`,
		"/other": `<title>Other</title><p>other page</p>`,
	})
	s := open(t, shared, base+"/")
	o := doOutcome(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Add"`)})
	if o.Text != `clicked button "Add" [ref=`+refOf(t, s, `button "Add"`)+`]; the page changed` || o.Navigated {
		t.Errorf("click that changes the page: %+v", o)
	}
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Inert"`)})
	if !strings.HasSuffix(out, "; nothing on the page changed (yet)") {
		t.Errorf("click that changes nothing: %q", out)
	}
	// A change in a task the click queued is the click's, told by the page.
	out = do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Later"`)})
	if !strings.HasSuffix(out, "; the page changed") {
		t.Errorf("click that changes the page in a task it queued: %q", out)
	}
	out = do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Alert"`)})
	if !strings.Contains(out, "Saved!") {
		t.Errorf("click that opens a dialog: %q", out)
	}
	o = doOutcome(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Open"`)})
	m := regexp.MustCompile(`opened a new tab (t\d+)`).FindStringSubmatch(o.Text)
	if m == nil || !o.Navigated {
		t.Fatalf("click that opens a tab and switches to it: %+v; want Navigated", o)
	}
	do(t, shared, contract.Action{Name: contract.ActTabs, Op: contract.TabsClose, Tab: m[1]})
	// A page the click left busy is not waited for: past the input's and
	// the question's graces, the outcome says what can be told.
	t0 := time.Now()
	out = do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Busy"`)})
	if took := time.Since(t0); !strings.HasSuffix(out, "; nothing on the page changed (yet)") || took > inputGrace+changeGrace+2*time.Second {
		t.Errorf("click that leaves the page busy for 4 s: %q after %s; want nothing changed within %s", out, took, inputGrace+changeGrace+2*time.Second)
	}
}

// TestChangesAcrossDocuments: the report of a change reaches the action on
// every document of the tab, not only the first: the binding it comes
// through lives in webagent's world, which each document makes anew
// (world.go).
func TestChangesAcrossDocuments(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	for i := range 3 {
		s := open(t, shared, servePage(t, fmt.Sprintf(`<title>Doc %d</title><button onclick="this.textContent='done'">Go</button>`, i)))
		out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Go"`)})
		if !strings.Contains(out, "the page changed") {
			t.Errorf("document %d: the click's outcome %q does not say the page changed", i, out)
		}
	}
}
