package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
)

const loginPage = `<!doctype html><title>Log in</title>
<h1>Welcome back</h1>
<form action="/login">
  <label for=email>Email</label> <input id=email name=email type=email value="ann@x.org" required>
  <label>Password <input name=pw type=password></label>
  <label><input type=checkbox name=remember checked> Remember me</label>
  <button type=submit>Sign in</button>
  <a href="/forgot">Forgot "your" password?</a>
</form>`

func TestSnapshotLoginForm(t *testing.T) {
	s := open(t, shared, servePage(t, loginPage))
	if s.Title != "Log in" || !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Errorf("URL, title = %q, %q", s.URL, s.Title)
	}
	for _, want := range []string{
		`heading "Welcome back" [level=1]`,
		`textbox "Email" value="ann@x.org" required [ref=` + refOf(t, s, `textbox "Email"`) + `]`,
		`textbox "Password" [ref=` + refOf(t, s, `textbox "Password"`) + `]`,
		`checkbox "Remember me" checked [ref=` + refOf(t, s, `checkbox "Remember me"`) + `]`,
		`button "Sign in" [ref=` + refOf(t, s, `button "Sign in"`) + `]`,
		`link "Forgot \"your\" password?" [ref=` + refOf(t, s, `link "Forgot`) + `]`,
	} {
		wantLine(t, s, want)
	}
	// Labels are names, not extra text lines.
	for _, unwanted := range []string{"Email", "Password", "Remember me"} {
		if hasLine(s, unwanted) {
			t.Errorf("label text %q stands on its own line:\n%s", unwanted, s.Text)
		}
	}
	t.Logf("snapshot:\n%s", s.Text)
}

func TestSnapshotText(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Text</title>
<h2>Prices</h2>
<p>All plans include <b>support</b>.</p>
<ul><li>Basic</li><li>Pro<ul><li>Teams</li></ul></li></ul>
<table><caption>Plans</caption>
<tr><th>Plan</th><th>Price</th></tr>
<tr><td>Basic</td><td>$5</td></tr>
<tr><td>Pro</td><td>$9 <button>Buy</button></td></tr>
</table>
<select id=c aria-label="Country"><option>Germany</option><option selected>France</option></select>`))
	for _, want := range []string{
		`heading "Prices" [level=2]`,
		`All plans include support.`,
		`- Basic`,
		`- Pro`,
		`- Teams`,
		`table "Plans"`,
		`| Plan | Price |`,
		`| Basic | $5 |`,
		`| Pro | $9 Buy |`,
		`combobox "Country" value="France" [ref=` + refOf(t, s, `combobox "Country"`) + `]`,
		`option "Germany"`,
		`option "France" selected`,
	} {
		wantLine(t, s, want)
	}
	// The button of a row stands under the row.
	if !strings.Contains(s.Text, "| Pro | $9 Buy |\n    button \"Buy\"") {
		t.Errorf("the row's button is not indented under it:\n%s", s.Text)
	}
	if !strings.Contains(s.Text, "- Pro\n  - Teams") {
		t.Errorf("the nested list is not indented:\n%s", s.Text)
	}
	t.Logf("snapshot:\n%s", s.Text)
}

func TestSnapshotSkipsInvisible(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Hidden</title>
<p>shown text</p>
<p style="display:none">display none</p>
<p style="visibility:hidden">visibility hidden</p>
<div aria-hidden="true"><button>aria hidden button</button></div>
<button style="width:0;height:0;padding:0;border:0;overflow:hidden">zero size</button>
<div style="height:0;overflow:hidden"><a href="/x">clipped link</a></div>
<input type=hidden name=token value=secret>
<details><summary>More</summary><p>inside closed details</p></details>
<button>shown button</button>`))
	for _, gone := range []string{"display none", "visibility hidden", "aria hidden", "zero size", "clipped link", "secret", "inside closed details"} {
		if strings.Contains(s.Text, gone) {
			t.Errorf("snapshot shows %q:\n%s", gone, s.Text)
		}
	}
	wantLine(t, s, "shown text")
	refOf(t, s, `button "shown button"`)
	wantLine(t, s, `button "More" collapsed [ref=`+refOf(t, s, `button "More"`)+`]`)
}

func TestSnapshotIframeAndShadowRoot(t *testing.T) {
	base := serve(t, map[string]string{
		"/": `<title>Outer</title><p>outer text</p>
<iframe title="Inner frame" src="/inner" width=400 height=200></iframe>
<my-widget></my-widget>
<p id=log></p>
<script>
customElements.define('my-widget', class extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({mode: 'open'});
    root.innerHTML = '<label>Shadow field <input id=sf></label><button id=sb>Shadow button</button>';
    root.getElementById('sb').addEventListener('click', () => { document.getElementById('log').textContent = 'shadow clicked'; });
  }
});
</script>`,
		"/inner": `<title>Inner</title><p>inner text</p><button onclick="parent.document.getElementById('log').textContent='frame clicked'">Frame button</button><input aria-label="Frame field">`,
	})
	s := open(t, shared, base+"/")
	wantLine(t, s, "outer text")
	wantLine(t, s, `iframe "Inner frame"`)
	if !strings.Contains(s.Text, "iframe \"Inner frame\"\n  inner text") {
		t.Errorf("the iframe's content is not under it:\n%s", s.Text)
	}

	if out := do(t, shared, agent.Action{Name: agent.ActClick, Ref: refOf(t, s, `button "Frame button"`)}); out != `clicked button "Frame button" [`+refOf(t, s, `button "Frame button"`)+`]` {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "document.getElementById('log').textContent"); got != "frame clicked" {
		t.Errorf("after clicking the frame's button, log = %q", got)
	}
	do(t, shared, agent.Action{Name: agent.ActType, Ref: refOf(t, s, `textbox "Frame field"`), Text: "in frame"})
	if got := evalPage[string](t, shared, "document.querySelector('iframe').contentDocument.querySelector('input').value"); got != "in frame" {
		t.Errorf("frame field = %q", got)
	}

	do(t, shared, agent.Action{Name: agent.ActClick, Ref: refOf(t, s, `button "Shadow button"`)})
	if got := evalPage[string](t, shared, "document.getElementById('log').textContent"); got != "shadow clicked" {
		t.Errorf("after clicking the shadow button, log = %q", got)
	}
	do(t, shared, agent.Action{Name: agent.ActType, Ref: refOf(t, s, `textbox "Shadow field"`), Text: "in shadow"})
	if got := evalPage[string](t, shared, "document.querySelector('my-widget').shadowRoot.getElementById('sf').value"); got != "in shadow" {
		t.Errorf("shadow field = %q", got)
	}
	t.Logf("snapshot:\n%s", s.Text)
}

func TestSnapshotRefsStable(t *testing.T) {
	s1 := open(t, shared, servePage(t, `<title>Stable</title>
<button id=keep>Keep</button>
<div id=list><button>Item 1</button></div>
<button id=add onclick="document.getElementById('list').innerHTML = '<button>Item 2</button><button>Item 3</button>'">Rerender</button>`))
	keep, add, item1 := refOf(t, s1, `button "Keep"`), refOf(t, s1, `button "Rerender"`), refOf(t, s1, `button "Item 1"`)
	do(t, shared, agent.Action{Name: agent.ActClick, Ref: add})
	s2 := snapshot(t, shared)
	if got := refOf(t, s2, `button "Keep"`); got != keep {
		t.Errorf("Keep's ref changed from %s to %s", keep, got)
	}
	if got := refOf(t, s2, `button "Rerender"`); got != add {
		t.Errorf("Rerender's ref changed from %s to %s", add, got)
	}
	for _, r := range []string{refOf(t, s2, `button "Item 2"`), refOf(t, s2, `button "Item 3"`)} {
		if r == item1 || r == keep || r == add {
			t.Errorf("a new element reuses ref %s:\n%s", r, s2.Text)
		}
	}
	// The removed element's ref is stale.
	_, err := shared.Do(tctx(t), agent.Action{Name: agent.ActClick, Ref: item1})
	if !isActionError(err) || !strings.Contains(err.Error(), "not on the page any more") {
		t.Errorf("click on a removed element: %v", err)
	}
}
