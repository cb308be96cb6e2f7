package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
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

// inputLogPage is a text field that logs its input events; extra is added
// to the page.
const inputLogPage = `<title>Fill</title>
<input id=f aria-label="Field" value="old value" maxlength=%d>
<script>
window.log = [];
const f = document.getElementById('f');
f.addEventListener('beforeinput', (e) => log.push('beforeinput:' + e.inputType + ':' + (e.data || '')));
f.addEventListener('input', (e) => log.push('input:' + f.value));
f.addEventListener('change', () => log.push('change'));
</script>`

func TestTypeKeyByKeyOnlyWherePageListensForKeys(t *testing.T) {
	page := strings.Replace(inputLogPage, "%d", "40", 1)
	t.Run("no key listener", func(t *testing.T) {
		s := open(t, shared, servePage(t, page))
		out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Field"`), Text: "héllo wörld"})
		if out != `typed "héllo wörld" into textbox "Field" [ref=`+refOf(t, s, `textbox "Field"`)+`]` {
			t.Errorf("outcome = %q", out)
		}
		// One edit replaces the old value: the page's input handlers see
		// the new text, as they would after typing.
		got := strings.Join(evalPage[[]string](t, shared, "window.log"), "|")
		if got != "beforeinput:insertText:héllo wörld|input:héllo wörld" {
			t.Errorf("events = %s", got)
		}
		if v := evalPage[string](t, shared, "f.value"); v != "héllo wörld" {
			t.Errorf("value = %q", v)
		}
	})
	t.Run("key listener", func(t *testing.T) {
		s := open(t, shared, servePage(t, page+`<script>window.keys = 0; document.addEventListener('keydown', () => keys++)</script>`))
		do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Field"`), Text: "abc"})
		// Select all and Backspace, then a key per character.
		if n := evalPage[int](t, shared, "window.keys"); n != 2+1+3 {
			t.Errorf("keydown events = %d, want 6", n)
		}
		if v := evalPage[string](t, shared, "f.value"); v != "abc" {
			t.Errorf("value = %q", v)
		}
	})
	t.Run("field that cuts the text", func(t *testing.T) {
		s := open(t, shared, servePage(t, strings.Replace(inputLogPage, "%d", "4", 1)))
		out := do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "Field"`), Text: "abcdefgh"})
		if !strings.Contains(out, `it now holds "abcd"`) {
			t.Errorf("outcome = %q", out)
		}
	})
}

// A page runs the tasks a click queued without waiting for its next frame
// (Chromium's DeferRendererTasksAfterInput is off), so the click's check of
// what it did is not held up by a frame. With the deferral, a click's timer
// runs after the frame every time (measured: 0 of 80 clicks); without it,
// before the frame unless a frame was about to begin (measured here: 186 of
// 200 clicks).
func TestInputTasksAreNotDeferredToTheNextFrame(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Order</title>
<button onclick="order()">Go</button>
<script>
window.runs = [];
function order() {
  const run = [];
  runs.push(run);
  document.body.dataset.n = runs.length; // the page has to be drawn again
  setTimeout(() => run.push('task'));
  requestAnimationFrame(() => run.push('frame'));
}
</script>`))
	btn := refOf(t, s, `button "Go"`)
	for range 10 {
		do(t, shared, contract.Action{Name: contract.ActClick, Ref: btn})
	}
	runs := evalPage[[][]string](t, shared, "runs")
	first := 0
	for _, r := range runs {
		if len(r) > 0 && r[0] == "task" {
			first++
		}
	}
	if len(runs) != 10 || first == 0 {
		t.Errorf("the click's timer ran before the next frame in %d of %d clicks (%v); want some", first, len(runs), runs)
	}
}
