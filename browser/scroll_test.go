package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestScroll(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	open(t, shared, servePage(t, `<title>Long</title><div style="height:5000px">tall</div><p>end</p>`))
	out := do(t, shared, contract.Action{Name: contract.ActScroll, Direction: "down"})
	y := evalPage[float64](t, shared, "scrollY")
	if y < 500 || !strings.Contains(out, fmt.Sprintf("y=%d of", int(y))) {
		t.Errorf("after scrolling down: scrollY %v, outcome %q", y, out)
	}
	out = do(t, shared, contract.Action{Name: contract.ActScroll, Direction: "up"})
	if y := evalPage[float64](t, shared, "scrollY"); y != 0 || !strings.Contains(out, "reached the top") {
		t.Errorf("after scrolling up: scrollY %v, outcome %q", y, out)
	}
	out = do(t, shared, contract.Action{Name: contract.ActScroll, Direction: "up"})
	if !strings.Contains(out, "already at the top") {
		t.Errorf("scrolling up at the top: %q", out)
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActScroll, Direction: "sideways"}); !isActionError(err) {
		t.Errorf("bad direction: %v", err)
	}
}

func TestScrollIntoView(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Far</title><div style="height:3000px">top</div><button>Far button</button>
<div style="height:150px;overflow:auto" id=box><div style="height:1000px"></div><a href="#in">Inner link</a></div>`))
	out := do(t, shared, contract.Action{Name: contract.ActScroll, Ref: ref(t, s, "button", "Far button")})
	if !strings.HasPrefix(out, `scrolled button "Far button"`) || !strings.HasSuffix(out, "into view") {
		t.Errorf("outcome = %q", out)
	}
	if !evalPage[bool](t, shared, "(() => { const r = document.querySelector('button').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()") {
		t.Errorf("the button is not in view")
	}
	do(t, shared, contract.Action{Name: contract.ActScroll, Ref: ref(t, s, "link", "Inner link")})
	if evalPage[float64](t, shared, "document.getElementById('box').scrollTop") < 800 {
		t.Errorf("the inner scroller did not scroll")
	}
}
