package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestClickUsesRealEvents(t *testing.T) {
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
