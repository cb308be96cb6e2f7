package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

func TestUploadRejectsPathsOutsideTheFolder(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Upload</title><label>File <input type=file id=f></label><p id=out></p>
<script>document.getElementById('f').addEventListener('change', (e) => document.getElementById('out').textContent = Array.from(e.target.files).map((f) => f.name).join(','));</script>`))
	file := ref(t, s, "button", "File")
	up := func(files ...string) (string, error) {
		out, err := shared.Do(tctx(t), contract.Action{Name: contract.ActUpload, Ref: file, Files: files})
		return out.Text, err
	}

	withUploadDir(t, "")
	if _, err := up("a.txt"); !isActionError(err) || !strings.Contains(err.Error(), "no folder for uploads was configured") {
		t.Errorf("upload without a folder: %v", err)
	}

	dir := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "sub", "b.txt"), []byte("b"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")))
	must(os.Symlink(outside, filepath.Join(dir, "linkdir")))
	must(os.Symlink("a.txt", filepath.Join(dir, "inside-link.txt")))
	withUploadDir(t, dir)

	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{filepath.Join(dir, "a.txt")}, "is an absolute path"},
		{[]string{"/etc/passwd"}, "is an absolute path"},
		{[]string{"../a.txt"}, `".." is not allowed`},
		{[]string{"sub/../../x"}, `".." is not allowed`},
		{[]string{`sub\..\..\x`}, `".." is not allowed`},
		{[]string{"link.txt"}, "leads outside the upload folder"},
		{[]string{"linkdir/secret.txt"}, "leads outside the upload folder"},
		{[]string{"missing.txt"}, `there is no file "missing.txt" in the upload folder; the upload folder holds "a.txt"`},
		{[]string{"sub"}, "is not a file"},
		{[]string{""}, "empty file name"},
		{nil, "needs the names of the files"},
		{[]string{"a.txt", "sub/b.txt"}, "takes one file only"},
	} {
		_, err := up(c.files...)
		if !isActionError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("upload %q: %v, want an ActionError with %q", c.files, err, c.want)
		}
	}
	if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != "" {
		t.Fatalf("a refused upload set files: %q", got)
	}
	out, err := up("sub/b.txt")
	if err != nil || !strings.Contains(out, `uploaded "sub/b.txt" into button "File"`) {
		t.Errorf("upload of a file in a subfolder: %q, %v", out, err)
	}
	if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != "b.txt" {
		t.Errorf("files after the upload: %q", got)
	}
	if _, err := up("inside-link.txt"); err != nil {
		t.Errorf("a link inside the folder: %v", err)
	}
}

func TestUploadDirOption(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "doc.txt"), []byte("doc"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := launch(t, Options{UploadDir: dir})
	s := open(t, b, servePage(t, `<title>Upload</title><input type=file aria-label="Attachment">`))
	out := do(t, b, contract.Action{Name: contract.ActUpload, Ref: ref(t, s, "button", "Attachment"), Files: []string{"doc.txt"}})
	if !strings.HasPrefix(out, `uploaded "doc.txt"`) {
		t.Errorf("outcome = %q", out)
	}
	if _, err := b.Do(tctx(t), contract.Action{Name: contract.ActUpload, Ref: ref(t, s, "button", "Attachment"), Files: []string{"../doc.txt"}}); !isActionError(err) {
		t.Errorf("upload of ../doc.txt: %v", err)
	}
}

func TestWaitFor(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Later</title>
<button onclick="setTimeout(() => { const p = document.createElement('p'); p.textContent = 'Payment   accepted'; document.body.append(p); }, 300)">Pay</button>
<button onclick="setTimeout(() => { document.getElementById('later').hidden = false; }, 300)">Show</button>
<button id=later hidden>Continue</button>
<button onclick="setTimeout(() => customElements.define('my-box', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<p>shadow words</p>'; }
}), 200)">Box</button>
<my-box></my-box>`))
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Pay")})
	start := time.Now()
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "payment accepted"})
	if took := time.Since(start); took < 100*time.Millisecond || !strings.Contains(out, `the text "payment accepted" appeared on the page`) {
		t.Errorf("wait_for text: %q after %v", out, took)
	}
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Box")})
	if out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "shadow words"}); !strings.Contains(out, "appeared on the page") {
		t.Errorf("wait_for text in a shadow root: %q", out)
	}

	// A ref that becomes visible: the snapshot did not show it, so take
	// its ref from a snapshot while it is shown by the test.
	evalPage[any](t, shared, "document.getElementById('later').hidden = false")
	later := ref(t, snapshot(t, shared), "button", "Continue")
	evalPage[any](t, shared, "document.getElementById('later').hidden = true")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Show")})
	out = do(t, shared, contract.Action{Name: contract.ActWaitFor, Ref: later})
	// The name part depends on the walker's describe (snapshot.js), which
	// may remember the empty name it computed while the button was hidden.
	if !strings.HasPrefix(out, `button "`) || !strings.HasSuffix(out, ` [ref=`+later+`] is visible`) {
		t.Errorf("wait_for ref: %q", out)
	}

	// The caller's deadline ends a wait that never succeeds, promptly.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, err := shared.Do(ctx, contract.Action{Name: contract.ActWaitFor, Text: "never shown"})
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > 400*time.Millisecond {
		t.Errorf("wait_for with a deadline: %v after %v", err, took)
	}
	// The browser is usable at once.
	if out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Payment accepted", State: contract.WaitDisappear, Ref: ref(t, s, "button", "Pay")}); !strings.Contains(out, "is no longer in") {
		t.Errorf("wait_for after a deadline: %q", out)
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActWaitFor}); !isActionError(err) {
		t.Errorf("wait_for without text or ref: %v", err)
	}
}

func TestWaitForTextOnTheNextPage(t *testing.T) {
	base := serve(t, map[string]string{
		"/":     `<title>Form</title><button onclick="setTimeout(() => location = '/done', 200)">Submit</button>`,
		"/done": `<title>Done</title><p>Order placed</p>`,
	})
	s := open(t, shared, base+"/")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref(t, s, "button", "Submit")})
	out := do(t, shared, contract.Action{Name: contract.ActWaitFor, Text: "Order placed"})
	if !strings.Contains(out, "appeared on the page") || !strings.Contains(out, "navigated to "+base+"/done") {
		t.Errorf("wait_for across a navigation: %q", out)
	}
}

func TestExtract(t *testing.T) {
	base := serve(t, map[string]string{"/": `<title>Article</title>
<header><nav><a href="/home">Home</a> <a href="/about">About</a></nav></header>
<main>
<h1>Tides of the <em>North Sea</em></h1>
<p>The North Sea has <a href="/tides">semi-diurnal tides</a> and a <strong>large</strong> range.</p>
<p hidden>hidden paragraph</p>
<h2>Ports</h2>
<ul><li>Hamburg<ul><li>Elbe river</li></ul></li><li>Rotterdam</li></ul>
<ol><li>First</li><li>Second</li></ol>
<table><thead><tr><th>Port</th><th>Range (m)</th></tr></thead><tbody><tr><td>Hamburg</td><td>3.6</td></tr><tr><td>Dover</td><td>5.9</td></tr></tbody></table>
<blockquote>Time and tide wait for no man.</blockquote>
<pre>tide = f(moon)</pre>
<button>Subscribe</button><input value="not content">
</main>
<footer>Copyright footer</footer>`})
	open(t, shared, base+"/")
	out := do(t, shared, contract.Action{Name: contract.ActExtract})
	for _, want := range []string{
		`Main content of ` + base + `/ ("Article") as Markdown:`,
		"# Tides of the North Sea",
		"The North Sea has [semi-diurnal tides](" + base + "/tides) and a **large** range.",
		"## Ports",
		"- Hamburg\n  - Elbe river\n- Rotterdam",
		"1. First\n2. Second",
		"| Port | Range (m) |\n| --- | --- |\n| Hamburg | 3.6 |\n| Dover | 5.9 |",
		"> Time and tide wait for no man.",
		"```\ntide = f(moon)\n```",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("extract has no %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"Home", "Copyright", "hidden paragraph", "Subscribe", "not content", "cut here"} {
		if strings.Contains(out, bad) {
			t.Errorf("extract has %q:\n%s", bad, out)
		}
	}
}

func TestExtractIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<title>Long</title><article>`)
	for i := range 300 {
		b.WriteString("<p>Paragraph " + strings.Repeat("word ", 10) + "number " + string(rune('A'+i%26)) + ".</p>")
	}
	b.WriteString(`<p>The very last paragraph.</p></article><aside>Related links</aside>`)
	open(t, shared, servePage(t, b.String()))
	var parts []string
	for range 10 {
		out := do(t, shared, contract.Action{Name: contract.ActExtract})
		parts = append(parts, out)
		if len(out) > extractMaxChars+300 {
			t.Errorf("part %d has %d characters", len(parts), len(out))
		}
		if !strings.Contains(out, "[cut here") {
			break
		}
		if !strings.Contains(out, "Call extract again to read the next part.") {
			t.Errorf("a cut part does not say how to read on:\n%s", out[len(out)-200:])
		}
	}
	if len(parts) < 2 || len(parts) > 5 {
		t.Fatalf("%d parts", len(parts))
	}
	last := parts[len(parts)-1]
	if !strings.Contains(last, "The very last paragraph.") || !strings.Contains(last, "end of the content") {
		t.Errorf("the last part:\n%s", last)
	}
	if strings.Contains(strings.Join(parts, ""), "Related links") {
		t.Errorf("the aside was kept")
	}
	// After the last part, extract starts again.
	if out := do(t, shared, contract.Action{Name: contract.ActExtract}); !strings.Contains(out, ", part 1: characters 1-") {
		t.Errorf("after the last part: %.200s", out)
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

func TestCheckAndUncheck(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Checks</title>
<label><input type=checkbox id=a> Alpha</label>
<style>.sw input{display:none}.sw span{display:inline-block;width:30px;height:16px;background:#ccc}</style>
<label class=sw><input type=checkbox id=b><span></span> Beta</label>
<div role=checkbox aria-checked=false tabindex=0 id=c onclick="this.setAttribute('aria-checked', this.getAttribute('aria-checked') !== 'true')">Gamma</div>
<div role=checkbox aria-checked=false tabindex=0 id=d>Stuck</div>
<input type=checkbox disabled aria-label="Locked">
<a href="#x">Link</a>`))
	for _, c := range []struct{ role, name, js string }{
		{"checkbox", "Alpha", "document.getElementById('a').checked"},
		{"checkbox", "Beta", "document.getElementById('b').checked"},
		{"checkbox", "Gamma", "document.getElementById('c').getAttribute('aria-checked') === 'true'"},
	} {
		r := ref(t, s, c.role, c.name)
		if out := do(t, shared, contract.Action{Name: contract.ActUncheck, Ref: r}); !strings.Contains(out, "is already not checked") {
			t.Errorf("uncheck %s: %q", c.name, out)
		}
		if out := do(t, shared, contract.Action{Name: contract.ActCheck, Ref: r}); !strings.HasPrefix(out, `checked checkbox "`+c.name+`"`) {
			t.Errorf("check %s: %q", c.name, out)
		}
		if !evalPage[bool](t, shared, c.js) {
			t.Errorf("%s is not checked", c.name)
		}
		if out := do(t, shared, contract.Action{Name: contract.ActCheck, Ref: r}); !strings.Contains(out, "is already checked") {
			t.Errorf("check %s again: %q", c.name, out)
		}
		do(t, shared, contract.Action{Name: contract.ActUncheck, Ref: r})
		if evalPage[bool](t, shared, c.js) {
			t.Errorf("%s is still checked", c.name)
		}
	}
	for _, c := range []struct{ role, name, want string }{
		{"checkbox", "Stuck", "still not checked"},
		{"checkbox", "Locked", "disabled"},
		{"link", "Link", "not a checkbox"},
	} {
		if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActCheck, Ref: ref(t, s, c.role, c.name)}); !isActionError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check %s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestDragByOffsetAndOntoTarget(t *testing.T) {
	s := open(t, shared, servePage(t, `<title>Drag</title>
<style>body{margin:0}#box{position:absolute;left:50px;top:50px;width:60px;height:60px;background:#36c}
#bin{position:absolute;left:400px;top:300px;width:120px;height:80px;background:#eee}</style>
<div id=box role=button aria-label="Box"></div>
<button id=bin>Bin</button>
<script>
// Pointer events, as most drag libraries use.
const box = document.getElementById('box');
let grab = null;
box.addEventListener('pointerdown', (e) => { grab = {x: e.clientX - box.offsetLeft, y: e.clientY - box.offsetTop}; box.setPointerCapture(e.pointerId); });
box.addEventListener('pointermove', (e) => { if (grab) { box.style.left = (e.clientX - grab.x) + 'px'; box.style.top = (e.clientY - grab.y) + 'px'; } });
box.addEventListener('pointerup', (e) => {
  grab = null;
  const b = document.getElementById('bin').getBoundingClientRect(), r = box.getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  document.title = cx > b.left && cx < b.right && cy > b.top && cy < b.bottom ? 'in bin' : 'moved';
});
</script>`))
	box := ref(t, s, "button", "Box")
	out := do(t, shared, contract.Action{Name: contract.ActDrag, Ref: box, DX: 100, DY: 20})
	if out != `dragged button "Box" [ref=`+box+`] by (100, 20); the page changed` {
		t.Errorf("outcome = %q", out)
	}
	if pos := evalPage[[2]float64](t, shared, "[box.offsetLeft, box.offsetTop]"); pos != [2]float64{150, 70} {
		t.Errorf("after dragging by (100, 20) the box is at %v", pos)
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActDrag, Ref: box, DX: -5000}); !isActionError(err) || !strings.Contains(err.Error(), "outside the viewport") {
		t.Errorf("drag out of the viewport: %v", err)
	}
	do(t, shared, contract.Action{Name: contract.ActDrag, Ref: box, ToRef: ref(t, s, "button", "Bin")})
	if got := evalPage[string](t, shared, "document.title"); got != "in bin" {
		t.Errorf("after dragging onto the bin: %q", got)
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActDrag, Ref: box}); !isActionError(err) {
		t.Errorf("drag without a target: %v", err)
	}
}

func TestScrollIntoView(t *testing.T) {
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

func TestForwardAndNavigationPhrase(t *testing.T) {
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
