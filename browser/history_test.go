package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

func TestBack(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/":     `<title>First</title><a href="/next">Next</a>`,
		"/next": `<title>Second</title><p>second page</p>`,
	})
	s := open(t, shared, base+"/")
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `link "Next"`)})
	if !strings.Contains(out, "navigated to "+base+"/next (\"Second\")") {
		t.Errorf("click outcome = %q", out)
	}
	out = do(t, shared, contract.Action{Name: contract.ActBack})
	if !strings.Contains(out, "navigated to "+base+"/ (\"First\")") {
		t.Errorf("back outcome = %q", out)
	}
	if s := snapshot(t, shared); s.Title != "First" {
		t.Errorf("after back the title is %q", s.Title)
	}
}

func TestBackWithoutHistory(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	_, err := b.Do(tctx(t), contract.Action{Name: contract.ActBack})
	if !isActionError(err) {
		t.Errorf("back in a new tab: %v, want an ActionError", err)
	}
}

func TestForwardAndNavigationPhrase(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/": `<title>One</title><a href="/two">Two</a>
<select aria-label="Go to" onchange="location = this.value"><option value="">Pick</option><option value="/three">Three</option></select>
<input aria-label="Jump" onkeydown="if (event.key === 'Enter') location = '/two'">
<div onmouseenter="location = '/three'" style="width:100px;height:30px">Hover trap</div>`,
		"/two":   `<title>Two</title><p>second</p>`,
		"/three": `<title>Three</title><p>third</p>`,
	})
	s := open(t, shared, base+"/")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "link", "Two")})
	do(t, shared, contract.Action{Name: contract.ActBack})
	out := do(t, shared, contract.Action{Name: contract.ActForward})
	if !strings.Contains(out, "went forward; navigated to "+base+`/two ("Two")`) {
		t.Errorf("forward: %q", out)
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActForward}); !isActionError(err) {
		t.Errorf("forward at the end of history: %v", err)
	}
	s = open(t, shared, base+"/")
	if out := do(t, shared, contract.Action{Name: contract.ActSelect, Ref: ref(t, s, "combobox", "Go to"), Option: "Three"}); !strings.Contains(out, "navigated to "+base+"/three") {
		t.Errorf("select that navigates: %q", out)
	}
	s = open(t, shared, base+"/")
	if out := do(t, shared, contract.Action{Name: contract.ActType, Ref: ref(t, s, "textbox", "Jump"), Text: "x", Submit: true}); !strings.Contains(out, "navigated to "+base+"/two") {
		t.Errorf("type and Enter that navigate: %q", out)
	}
	open(t, shared, base+"/")
	evalPage[any](t, shared, "document.querySelector('[onmouseenter]').setAttribute('role', 'button'), 0")
	s = snapshot(t, shared)
	if out := do(t, shared, contract.Action{Name: contract.ActHover, Ref: ref(t, s, "button", "Hover trap")}); !strings.Contains(out, "navigated to "+base+"/three") {
		t.Errorf("hover that navigates: %q", out)
	}
}
