package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestClickUsesRealEvents(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	// The page reacts only to trusted pointer and mouse events, which
	// element.click() from a script would not produce.
	s := open(t, shared, servePage(t, `<title>Trusted</title>
<div id=box role=button style="width:120px;height:40px;background:#ccc">Press me</div>
<p id=log></p>
<script>
const log = [];
const box = document.getElementById('box');
for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
  box.addEventListener(type, (e) => { if (e.isTrusted) log.push(type); document.getElementById('log').textContent = log.join(','); });
</script>`))
	out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Press me"`)})
	if !strings.HasPrefix(out, `clicked button "Press me"`) {
		t.Errorf("outcome = %q", out)
	}
	got := evalPage[string](t, shared, "document.getElementById('log').textContent")
	if got != "pointerdown,mousedown,pointerup,mouseup,click" {
		t.Errorf("trusted events = %q", got)
	}
}

func TestClickOnCoveredElement(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Covered</title>
<button id=under onclick="document.title='under clicked'">Under</button>
<div id=overlay style="position:fixed;inset:0;background:rgba(0,0,0,.3)" onclick="document.title='overlay clicked'">Cookie banner</div>`))
	under := refOf(t, s, `button "Under"`)
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: under})
	if !isActionError(err) || !strings.Contains(err.Error(), `click on button "Under" [ref=`+under+`] not done: it is covered by clickable "Cookie banner"`) {
		t.Errorf("click on a covered button: %v", err)
	}
	if got := evalPage[string](t, shared, "document.title"); got != "Covered" {
		t.Errorf("title = %q: something was clicked", got)
	}
}

func TestClickHitTest(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Hit</title>
<style>body{margin:0}#bar{position:fixed;top:0;left:0;right:0;height:30px;background:#ccc}</style>
<div id=bar role=banner aria-label="Site header"><button onclick="document.title='menu'">Menu</button></div>
<div style="height:35px"></div>
<button id=tall style="height:80px;width:200px" onclick="document.title='tall clicked'">Tall</button>
<div style="height:2000px"></div>
<div id=modal style="position:fixed;inset:0;background:rgba(0,0,0,.4);display:none" aria-label="Newsletter">
  <div style="background:#fff;margin:100px auto;width:300px"><h2>Join our newsletter</h2><button onclick="document.getElementById('modal').style.display='none'">No thanks</button></div>
</div>
<button onclick="document.getElementById('modal').style.display='block'" style="position:fixed;bottom:0;right:0">Open modal</button>`))
	tall := ref(t, s, "button", "Tall")
	// The fixed bar covers the top of the button once it is scrolled
	// under it; the click goes to an uncovered point.
	evalPage[any](t, shared, "scrollTo(0, 30)")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: tall})
	if got := evalPage[string](t, shared, "document.title"); got != "tall clicked" {
		t.Errorf("title = %q", got)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Open modal")})
	s = snapshot(t, shared)
	noThanks := ref(t, s, "button", "No thanks")
	evalPage[any](t, shared, "document.title = 'Hit'")
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: tall})
	want := `click on button "Tall" [ref=` + tall + `] not done: it is covered by div "Newsletter" with button "No thanks" [ref=` + noThanks + `]`
	if !isActionError(err) || !strings.Contains(err.Error(), want) {
		t.Errorf("click under a modal: %v\nwant %s", err, want)
	}
	if got := evalPage[string](t, shared, "document.title"); got != "Hit" {
		t.Errorf("title = %q: the click happened", got)
	}
	for _, a := range []contract.Action{{Name: contract.ActHover, Ref: tall}, {Name: contract.ActType, Ref: tall, Text: "x"}, {Name: contract.ActCheck, Ref: tall}} {
		if _, err := shared.Do(tctx(t), a); !isActionError(err) {
			t.Errorf("%s under a modal: %v", a.Name, err)
		}
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: noThanks})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: tall})
	if got := evalPage[string](t, shared, "document.title"); got != "tall clicked" {
		t.Errorf("title = %q", got)
	}
}

func TestClickCoveredFrame(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/": `<title>Framed</title><iframe src="/inner" title="Inner" width=300 height=100></iframe>
<div style="position:fixed;inset:0;background:rgba(0,0,0,.2)" aria-label="Overlay"></div>`,
		"/inner": `<button onclick="parent.document.title='inner clicked'">Inner button</button>`,
	})
	s := open(t, shared, base+"/")
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Inner button")})
	if !isActionError(err) || !strings.Contains(err.Error(), `covered by div "Overlay"`) {
		t.Errorf("click in a covered frame: %v", err)
	}
	if got := evalPage[string](t, shared, "document.title"); got != "Framed" {
		t.Errorf("title = %q", got)
	}
}

func TestClickWaitsForStableAndEnabled(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Moving</title>
<style>#slide{position:relative;left:0;transition:left .25s linear}#slide.go{left:300px}</style>
<button id=slide onclick="document.title='slide clicked'">Slide</button>
<button id=later disabled onclick="document.title='later clicked'">Later</button>
<button id=never disabled>Never</button>
<button onclick="document.getElementById('slide').classList.add('go'); setTimeout(() => document.getElementById('later').disabled = false, 60)">Start</button>`))
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Start")})
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Slide")})
	if got := evalPage[string](t, shared, "document.title"); got != "slide clicked" {
		t.Errorf("a moving button: title %q", got)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Later")})
	if got := evalPage[string](t, shared, "document.title"); got != "later clicked" {
		t.Errorf("a button enabled soon: title %q", got)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Never")})
	if !isActionError(err) || !strings.Contains(err.Error(), "it is disabled") {
		t.Errorf("click on a disabled button: %v", err)
	}
}

// An item of a list that lies below the visible part of its scrolled
// pane (an inbox in a 210 px pane) is scrolled to and clicked, as a
// person would: the click reaches it, not the pane around it. Nested
// scrolled areas are scrolled too.
func TestClickInScrolledPane(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	page := `<title>Inbox</title><style>.pane{height:210px;overflow:auto;border:1px solid}.m{height:40px;cursor:pointer}
#outer{height:300px;overflow:auto} #spacer{height:500px}</style>
<div class=pane id=inbox></div>
<div id=outer><div id=spacer>feed</div><div class=pane id=replies></div></div>
<p id=out>none</p><script>
for (const [id, what] of [['inbox', 'Message'], ['replies', 'Reply']]) {
  const p = document.getElementById(id);
  for (let i = 1; i <= 10; i++) {
    const d = document.createElement('div'); d.className = 'm'; d.textContent = what + ' ' + i;
    d.addEventListener('click', () => document.getElementById('out').textContent = 'opened ' + what + ' ' + i);
    p.append(d);
  }
}</script>`
	s := open(t, shared, servePage(t, page))
	for _, c := range []struct{ name, want string }{{"Message 7", "opened Message 7"}, {"Message 10", "opened Message 10"}, {"Reply 9", "opened Reply 9"}} {
		out := do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `clickable "`+c.name+`"`)})
		if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != c.want || !strings.Contains(out, "the page changed") {
			t.Errorf("click on %s: %q; the page shows %q", c.name, out, got)
		}
	}
}

// An item that a container cuts off and cannot scroll to (overflow: clip)
// is not clicked: the error says what hides it, and nothing was clicked.
func TestClickOnItemCutOff(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	page := `<title>Cut</title><div id=box style="height:60px;overflow:clip;border:1px solid">
<div style="height:40px">first</div><div style="height:40px">second</div>
<button onclick="document.getElementById('out').textContent='clicked'" style="height:40px">Hidden action</button></div>
<p id=out onclick="this.textContent='the box got it'">none</p>`
	s := open(t, shared, servePage(t, page))
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Hidden action"`)})
	if !isActionError(err) || !strings.Contains(err.Error(), "not done") || !strings.Contains(err.Error(), "cuts it off") {
		t.Fatalf("click on a cut-off button: %v", err)
	}
	if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != "none" {
		t.Errorf("the page shows %q after a refused click", got)
	}
}

// A click that the page moves its element away from (a button that
// flees the pointer) is not reported done: the error says where the click
// landed.
func TestClickThatLandsElsewhere(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	page := `<title>Flee</title>
<div id=under style="position:absolute;left:0;top:0;width:400px;height:200px" onclick="window.under=(window.under||0)+1">under</div>
<button id=b style="position:absolute;left:50px;top:50px;width:120px;height:40px" onclick="window.hits=(window.hits||0)+1">Catch me</button>
<script>document.addEventListener('mousemove', () => { document.getElementById('b').style.left = '600px'; });</script>`
	s := open(t, shared, servePage(t, page))
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Catch me"`)})
	if !isActionError(err) || !strings.Contains(err.Error(), "landed on") || !strings.Contains(err.Error(), "under") {
		t.Fatalf("click on a fleeing button: %v", err)
	}
	if hits := evalPage[int](t, shared, "window.hits || 0"); hits != 0 {
		t.Errorf("the button got %d clicks", hits)
	}
}
