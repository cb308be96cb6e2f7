package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// eventLogPage is a button that logs the trusted pointer and mouse events
// it gets (but motion, which only the extras listen for), with the button's colour (red while hovered) at mousedown;
// extra is added to the page.
func eventLogPage(extra string) string {
	return `<title>Events</title>
<style>#b { color: rgb(0, 0, 0) } #b:hover { color: rgb(255, 0, 0) }</style>
<div id=wrap` + extra + `><button id=b style="width:160px;height:40px">Log</button></div>
<script>
window.log = [];
const b = document.getElementById('b');
window.note = (e) => {
  if (!e.isTrusted || log[log.length - 1] === e.type) return;
  log.push(e.type === 'mousedown' ? e.type + '/' + getComputedStyle(b).color : e.type);
};
for (const type of ['pointerover', 'mouseover', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
  b.addEventListener(type, note);
</script>`
}

func TestClickMovesTheMouseWhereThePageWatchesIt(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	cases := []struct {
		name, extra, script string
		wantMove            bool
	}{
		{"no motion listener", "", "", false},
		{"listener on the document", "", `<script>document.addEventListener('pointermove', note)</script>`, true},
		{"handler attribute on an ancestor", ` onmousemove="note(event)"`, "", true},
		{"handler property on the window", "", `<script>window.onpointermove = note</script>`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := open(t, shared, servePage(t, eventLogPage(c.extra)+c.script))
			do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Log"`)})
			got := strings.Join(evalPage[[]string](t, shared, "window.log"), ",")
			// Without a move the press itself gives the page the hover
			// state and the over events, as a person's pointer would.
			want := "pointerover,mouseover,pointerdown,mousedown/rgb(255, 0, 0),pointerup,mouseup,click"
			if c.wantMove {
				want = "pointerover,mouseover,MOVE,pointerdown,mousedown/rgb(255, 0, 0),pointerup,mouseup,click"
				got = strings.NewReplacer("pointermove", "MOVE", "mousemove", "MOVE").Replace(got)
			}
			if got != want {
				t.Errorf("events = %s\nwant     %s", got, want)
			}
		})
	}
}
