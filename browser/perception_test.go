package browser

import (
	"regexp"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/tier"
)

// The tests of this file check that the snapshot shows what a person sees
// and can act on, one class of widget each: the line names what a model
// needs, and its ref acts on the right element (the page logs the click).

// logScript makes every element with a data-log attribute append it to
// window.log when clicked; the listener is added by script, so nothing in
// the markup marks the element as clickable.
const logScript = `<script>
window.log = [];
for (const el of document.querySelectorAll('[data-log]')) el.addEventListener('click', (e) => { e.stopPropagation(); window.log.push(el.dataset.log); });
</script>`

// clickLogs clicks the element with the ref and returns what the page
// logged.
func clickLogs(t *testing.T, shared *Browser, ref string) string {
	t.Helper()
	evalPage[bool](t, shared, "window.log = [], true")
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: ref})
	return evalPage[string](t, shared, "window.log.join(',')")
}

func wantClick(t *testing.T, shared *Browser, s contract.Snapshot, prefix, logged string) {
	t.Helper()
	if got := clickLogs(t, shared, refOf(t, s, prefix)); got != logged {
		t.Errorf("clicking %s logged %q, want %q\n%s", prefix, got, logged, s.Text)
	}
}

func TestPerceptionIconButtons(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Icons</title>
<style>.ib{display:inline-block;width:24px;height:24px;cursor:pointer;border:0} .bg{background:url(/img/trash-can.png) #ddd}</style>
<button class="ib bg" data-log=bg></button>
<button data-log=svg><svg width=16 height=16><title>Star this</title><path d="M0 0L8 8" stroke=black /></svg></button>
<button data-log=fa><i class="fa fa-reply"></i></button>
<span class=material-icons style="cursor:pointer" data-log=ligature>delete</span>
<button class=ib title="Archive" data-log=title></button>
<span class=ib data-tooltip="Share with a friend" data-log=tooltip style="background:#aaa"></span>
<button data-log=use><svg width=16 height=16><use href="#icon-settings"/></svg></button>
<div class=ib style="background:#c00" data-log=tile></div>
`+logScript))
	for _, c := range []struct{ prefix, logged string }{
		{`button "trash can icon" box=`, "bg"},
		{`button "Star this"`, "svg"},
		{`button "reply icon" box=`, "fa"},
		{`clickable "delete"`, "ligature"},
		{`button "Archive"`, "title"},
		{`clickable "Share with a friend" box=`, "tooltip"},
		{`button "settings icon" box=`, "use"},
		{`clickable "firebrick tile #cc0000" box=`, "tile"},
	} {
		wantClick(t, shared, s, c.prefix, c.logged)
	}
	if strings.Contains(s.Text, `""`) {
		t.Errorf("an actionable element has an empty name:\n%s", s.Text)
	}
}

func TestPerceptionNestedTargets(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Mail</title>
<div style="cursor:pointer" id=bar><span data-log=reply>Reply</span> <span data-log=forward>Forward</span></div>
<a href="#x" data-log=card><span data-log=fav>Fav</span> A card's link</a>
`+logScript))
	wantClick(t, shared, s, `clickable "Reply"`, "reply")
	wantClick(t, shared, s, `clickable "Forward"`, "forward")
	wantClick(t, shared, s, `clickable "Fav"`, "fav")
	if refOf(t, s, `clickable "Reply"`) == refOf(t, s, `clickable "Forward"`) {
		t.Errorf("Reply and Forward share a ref:\n%s", s.Text)
	}
}

func TestPerceptionListenerOnly(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Listeners</title>
<p>Pick: <span data-log=span>Plain span</span></p>
<div class=menu><div data-log=open>Open file</div><div data-log=save>Save file</div></div>
<table class=cal><tr><th>Mo</th><th>Tu</th></tr><tr><td data-log=d1>1</td><td data-log=d2>2</td></tr></table>
<div id=kb tabindex=0>Focus stop</div>
<script>document.getElementById('kb').addEventListener('keydown', () => {});</script>
`+logScript))
	wantClick(t, shared, s, `clickable "Plain span"`, "span")
	wantClick(t, shared, s, `clickable "Save file"`, "save")
	wantClick(t, shared, s, `clickable "2"`, "d2")
	refOf(t, s, `clickable "Focus stop"`)
}

func TestPerceptionDraggableList(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Sort</title>
<ul id=l><li draggable=true data-log=a>Apples</li><li draggable=true data-log=p>Pears</li><li draggable=true data-log=k>Kiwis</li></ul>
`+logScript))
	for _, name := range []string{"Apples", "Pears", "Kiwis"} {
		line := lineOf(t, s, `clickable "`+name+`"`)
		if !strings.Contains(line, " draggable box=") {
			t.Errorf("the draggable item's line says neither draggable nor its box: %s", line)
		}
	}
	wantClick(t, shared, s, `clickable "Pears"`, "p")
}

func TestPerceptionSliderHandle(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Slider</title>
<p>Volume</p>
<div id=track style="position:relative;width:200px;height:10px;background:#ccc;margin:20px">
 <span id=h class=ui-slider-handle tabindex=0 style="position:absolute;left:0;top:-3px;width:16px;height:16px;background:#36c;display:block"></span>
</div><p id=out>0</p>
<script>
const h = document.getElementById('h'), track = document.getElementById('track');
let x0 = null;
h.addEventListener('mousedown', (e) => { x0 = e.clientX - h.offsetLeft; e.preventDefault(); });
document.addEventListener('mousemove', (e) => {
  if (x0 === null) return;
  const x = Math.max(0, Math.min(184, e.clientX - x0));
  h.style.left = x + 'px';
  document.getElementById('out').textContent = Math.round(x / 184 * 100);
});
document.addEventListener('mouseup', () => { x0 = null; });
</script>`))
	line := lineOf(t, s, `slider "slider handle"`)
	if !strings.Contains(line, `value="4% of its track"`) || !strings.Contains(line, " box=") {
		t.Errorf("the handle's line says neither its position nor its box: %s", line)
	}
	do(t, shared, contract.Action{Name: contract.ActDrag, Ref: refOf(t, s, `slider "slider handle"`), DX: 92})
	if got := evalPage[string](t, shared, "document.getElementById('out').textContent"); got != "50" {
		t.Errorf("after dragging the handle by half the track the value is %s, want 50", got)
	}
	s = snapshot(t, shared)
	if line := lineOf(t, s, `slider "slider handle"`); !strings.Contains(line, `value="50% of its track"`) {
		t.Errorf("after the drag the handle's line is %s", line)
	}
}

func TestPerceptionSVGScene(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Shapes</title>
<p>Click the red circle. How many triangles?</p>
<svg width=400 height=200 id=scene>
 <circle cx=50 cy=50 r=30 fill=red data-log=red-circle />
 <circle cx=150 cy=50 r=30 fill="#3366ff" data-log=blue-circle />
 <polygon points="200,80 240,80 220,40" fill=green data-log=tri1 />
 <polygon points="260,80 300,80 280,40" fill=yellow data-log=tri2 />
 <rect x=320 y=20 width=50 height=50 fill=none stroke=black data-log=outline />
 <rect x=320 y=100 width=50 height=50 fill="#eee" stroke=black data-log=square />
 <text x=10 y=150 data-log=label>Score 3</text>
</svg>
`+logScript))
	wantClick(t, shared, s, `circle "red #ff0000" center=`, "red-circle")
	wantClick(t, shared, s, `circle "royalblue #3366ff" center=`, "blue-circle")
	wantClick(t, shared, s, `polygon "yellow #ffff00" points=3 `, "tri2")
	// An outline without fill is named, but the click lands on its
	// centre, which is not part of it: the model has to aim at its edge.
	refOf(t, s, `rect "black #000000 outline" box=`)
	wantClick(t, shared, s, `rect "whitesmoke #eeeeee" box=`, "square")
	wantClick(t, shared, s, `text "Score 3"`, "label")
	if n := strings.Count(s.Text, "polygon \""); n != 2 {
		t.Errorf("%d triangles (polygons) listed, want 2:\n%s", n, s.Text)
	}
}

func TestPerceptionTilesAndCanvas(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Tiles</title>
<div style="display:flex;gap:4px">
 <div style="width:40px;height:40px;background:#e22"></div>
 <div style="width:40px;height:40px;background:#fd0"></div>
 <div style="width:40px;height:40px;background:#26e"></div>
</div>
<canvas id=board width=300 height=120 aria-label="Game board"></canvas>
<script>
window.log = [];
for (const d of document.querySelectorAll('div > div')) d.addEventListener('click', () => window.log.push(d.style.background));
const c = document.getElementById('board');
c.addEventListener('click', (e) => { const r = c.getBoundingClientRect(); window.log.push(Math.round(e.clientX - r.left) + 'x' + Math.round(e.clientY - r.top)); });
</script>`))
	wantClick(t, shared, s, `clickable "gold tile #ffdd00" box=`, "rgb(255, 221, 0)")
	wantClick(t, shared, s, `clickable "royalblue tile #2266ee" box=`, "rgb(34, 102, 238)")
	line := lineOf(t, s, `canvas "Game board"`)
	if !strings.Contains(line, ",300,120 [ref=") {
		t.Errorf("the canvas line does not give its size: %s", line)
	}
	wantClick(t, shared, s, `canvas "Game board"`, "150x60")
}

func TestPerceptionCompleteText(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	long := strings.Repeat("word ", 59) + "LASTWORD"
	area := strings.Repeat("lorem ipsum ", 166) + "END"
	s := open(t, shared, servePage(t, `<title>Text</title>
<table width=100%><tr><td width=20%>Menu</td><td>`+strings.Repeat("The layout cell holds a long paragraph of news text. ", 5)+`Closing sentence.</td></tr></table>
<table><tr><th>Id</th><th>Detail</th></tr><tr><td>T-1</td><td><section aria-label="Ticket T-1"><h2>Printer on fire</h2><p>Smoke in room 4.</p></section></td></tr></table>
<a href="#l" data-log=long>`+long+`</a>
<textarea aria-label=Notes>`+area+`</textarea>
<div class=card style="cursor:pointer" data-log=card><h3>Teaser title</h3><p>The teaser's text tells what the story says in two lines of words.</p></div>
`+logScript))
	for _, w := range []string{"Closing sentence.", "Menu", `LASTWORD"`, `END"`, "what the story says in two lines",
		`heading "Printer on fire"`, "Smoke in room 4."} { // a cell's own section, not only its label
		if !strings.Contains(s.Text, w) {
			t.Errorf("the snapshot lacks %q:\n%s", w, s.Text)
		}
	}
	if len(long) != 303 || !strings.Contains(s.Text, `link "`+long+`"`) {
		t.Errorf("the 303-character link name is not whole:\n%s", s.Text)
	}
	if !strings.Contains(s.Text, `textbox "Notes" value="`+area+`"`) {
		t.Errorf("the %d-character textarea value is not whole:\n%s", len(area), s.Text)
	}
	wantClick(t, shared, s, `link "word word`, "long")
	wantClick(t, shared, s, `clickable "Teaser title`, "card")
	// With a tight budget, the long name and value are cut and say so.
	withBudget(t, shared, 300)
	s = snapshot(t, shared)
	if !strings.Contains(s.Text, "…\" [ref=") || strings.Contains(s.Text, "LASTWORD") {
		t.Errorf("over the budget, the long link name is not cut with a marker:\n%s", s.Text)
	}
}

func TestPerceptionFormSemantics(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Form</title>
<form>
<p>Full name: <input id=name></p>
<table><tr><td>City</td><td><input id=city></td></tr></table>
<div><span>Arrival</span> <input id=d type=date min=2026-01-01 max=2026-12-31 value=2026-05-06></div>
<div>Time <input id=tm type=time></div>
<div>Guests <input id=n type=number min=1 max=9 step=1 value=2></div>
<div>Volume <input id=r type=range min=0 max=10 value=3></div>
<p>Smoker? <input type=radio name=s id=yes> Yes <input type=radio name=s id=no> No</p>
</form>`))
	for _, want := range []string{
		`textbox "Full name"`,
		`textbox "City"`,
		`textbox "Arrival" value="2026-05-06" type=date format=yyyy-mm-dd min="2026-01-01" max="2026-12-31"`,
		`textbox "Time" type=time format=hh:mm`,
		`spinbutton "Guests" value="2" type=number min="1" max="9" step="1"`,
		`slider "Volume" value="3" type=range min="0" max="10"`,
		`radio "Yes"`,
		`radio "No"`,
	} {
		refOf(t, s, want)
	}
	do(t, shared, contract.Action{Name: contract.ActCheck, Ref: refOf(t, s, `radio "No"`)})
	if !evalPage[bool](t, shared, "document.getElementById('no').checked && !document.getElementById('yes').checked") {
		t.Errorf("checking the No radio did not check it alone")
	}
	do(t, shared, contract.Action{Name: contract.ActType, Ref: refOf(t, s, `textbox "City"`), Text: "Lyon"})
	if got := evalPage[string](t, shared, "document.getElementById('city').value"); got != "Lyon" {
		t.Errorf("typing into the City box gave city=%q", got)
	}
}

func TestPerceptionSettledAccordion(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Accordion</title>
<style>.sec{overflow:hidden;transition:max-height 250ms linear;max-height:200px}.sec.closed{max-height:0}</style>
<button id=ha>Section A</button><div id=a class=sec><a href="#a1">Alpha link</a></div>
<button id=hb>Section B</button><div id=b class="sec closed" hidden><a href="#b1">Beta link</a></div>
<script>
const open = (id) => { const s = document.getElementById(id); s.hidden = false; s.getBoundingClientRect(); s.classList.remove('closed'); };
const close = (id) => { const s = document.getElementById(id); s.classList.add('closed');
  s.addEventListener('transitionend', () => { s.hidden = true; }, { once: true }); };
document.getElementById('hb').addEventListener('click', () => { close('a'); open('b'); });
</script>`))
	refOf(t, s, `link "Alpha link"`)
	do(t, shared, contract.Action{Name: contract.ActClick, Ref: refOf(t, s, `button "Section B"`)})
	s = snapshot(t, shared)
	if strings.Contains(s.Text, "Alpha link") || !strings.Contains(s.Text, "Beta link") {
		t.Errorf("the snapshot after the click was taken mid-animation:\n%s", s.Text)
	}
}

func TestPerceptionInFramesAndShadowRoots(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/": `<title>Host</title><div id=host></div>
<iframe src="/inner" width=400 height=200 title=Inner></iframe>
<script>
window.log = [];
const r = document.getElementById('host').attachShadow({mode: 'open'});
r.innerHTML = '<button class=ib style="width:24px;height:24px"><i class="fa fa-trash"></i></button><span id=sp>Shadow span</span>';
r.querySelector('button').addEventListener('click', () => window.log.push('shadow-trash'));
r.getElementById('sp').addEventListener('click', () => window.log.push('shadow-span'));
</script>`,
		"/inner": `<title>Inner</title><span id=x>Frame span</span><svg width=100 height=100><circle cx=50 cy=50 r=20 fill=orange /></svg>
<script>document.getElementById('x').addEventListener('click', () => top.log.push('frame-span'));
document.querySelector('circle').addEventListener('click', () => top.log.push('frame-circle'));</script>`,
	})
	s := open(t, shared, base+"/")
	wantClick(t, shared, s, `button "trash icon"`, "shadow-trash")
	wantClick(t, shared, s, `clickable "Shadow span"`, "shadow-span")
	wantClick(t, shared, s, `clickable "Frame span"`, "frame-span")
	wantClick(t, shared, s, `circle "orange #ffa500"`, "frame-circle")
}

// lineOf returns the snapshot's line that starts with prefix (after the
// indentation).
func lineOf(t *testing.T, s contract.Snapshot, prefix string) string {
	t.Helper()
	for line := range strings.Lines(s.Text) {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("no line starting with %s in the snapshot:\n%s", prefix, s.Text)
	return ""
}

func TestPerceptionReadRegion(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	withBudget(t, shared, 1200)
	s := open(t, shared, servePage(t, longPage(10, 300)))
	m := regexp.MustCompile(`(?m)^ *… (\d+) more rows of table "Orders" below, text not shown .* \[region=(r\d+)\]$`).FindStringSubmatch(s.Text)
	if m == nil {
		t.Fatalf("no folded region with a handle:\n%s", s.Text)
	}
	out := do(t, shared, contract.Action{Name: contract.ActReadRegion, Ref: m[2]})
	if !strings.Contains(out, "| Order 299 | $897.00 |") || strings.Contains(out, "| Order 0 |") {
		t.Errorf("read_region %s did not return the rows left out, and only them:\n%.3000s", m[2], out)
	}
	for _, bad := range []string{"x1", "r999"} {
		_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActReadRegion, Ref: bad})
		if err == nil || !isActionError(err) {
			t.Errorf("read_region %q: %v, want an ActionError", bad, err)
		}
	}
}

func TestPerceptionBox(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	base := serve(t, map[string]string{
		"/": `<title>Box</title><style>body{margin:0}</style>
<button id=b style="position:absolute;left:100px;top:50px;width:80px;height:30px">Save</button>
<div style="height:3000px"></div><button style="width:60px;height:20px">Far</button>
<iframe src="/f" style="position:absolute;left:300px;top:200px;width:300px;height:200px;border:0" title=F></iframe>`,
		"/f": `<style>body{margin:0}</style><button style="position:absolute;left:10px;top:20px;width:50px;height:40px">In frame</button>`,
	})
	s := open(t, shared, base+"/")
	for _, c := range []struct{ prefix, want string }{
		{`button "Save"`, "x=100 y=50 width=80 height=30, centre 140,65"},
		{`button "In frame"`, "x=310 y=220 width=50 height=40, centre 335,240"},
		{`button "Far"`, "below the view by"},
	} {
		out := do(t, shared, contract.Action{Name: contract.ActBox, Ref: refOf(t, s, c.prefix)})
		if !strings.Contains(out, c.want) {
			t.Errorf("box of %s = %q, want it to contain %q", c.prefix, out, c.want)
		}
	}
	if _, err := shared.Do(tctx(t), contract.Action{Name: contract.ActBox, Ref: "nope"}); !isActionError(err) {
		t.Errorf("box of a bad ref: %v, want an ActionError", err)
	}
}

// A field is never named by its paint, nor by text near it that cannot be
// its label (a number, a mail's header lines): it takes its own hint, a
// label that reads like one, or nothing more than its role.
func TestPerceptionFieldNames(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Fields</title>
<div style="background:#fff">
 <input style="background:#fff" placeholder="Search products">
 <select style="background:#fff"><option>France</option><option>Spain</option></select>
 <input type=number style="background:#fff">
 <textarea style="background:#fff"></textarea>
</div>
<div><span>-6</span><input type=checkbox style="background:#fff" data-log=cb></div>
<div class=reply><label>to: </label><span>Coletta</span> <label>subject: </label>Re: Justo. Facilisis.</div>
<div><textarea id=body></textarea></div>
<p>Quantity: <input id=qty size=3></p>
`+logScript))
	for _, want := range []string{
		`textbox "Search products"`,
		`combobox "unnamed combobox"`,
		`spinbutton "unnamed spinbutton"`,
		`checkbox "unnamed checkbox"`,
		`textbox "Quantity"`,
	} {
		lineOf(t, s, want)
	}
	if n := strings.Count(s.Text, `textbox "unnamed textbox"`); n != 2 {
		t.Errorf("%d unnamed textboxes, want 2 (the bare textarea and the mail's body):\n%s", n, s.Text)
	}
	for _, bad := range []string{"white", "tile", `"-6"`, `"to: Coletta`, "subject: Re"} {
		for line := range strings.SplitSeq(s.Text, "\n") {
			if strings.Contains(line, "[ref=") && strings.Contains(line, bad) {
				t.Errorf("a field is named by %q: %s", bad, line)
			}
		}
	}
}

// Twins: icon buttons that differ only in what they show are told apart by
// the meaning of their icon class (jQuery UI's arrows, Quill's ql-bold), a
// command attribute, or the image their CSS shows, never by a sprite
// sheet's file name.
func TestPerceptionTwinIcons(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	icon := `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#888"/></svg>`
	s := open(t, shared, serve(t, map[string]string{"/img/social/retweet.svg": icon, "/img/email/send.svg": icon, "/": `<title>Twins</title>
<style>
.ui-icon { display:inline-block; width:16px; height:16px; background:url(/img/ui-icons_777777_256x240.png) no-repeat }
.ui-icon-triangle-1-n { background-position:0 -16px } .ui-icon-triangle-1-s { background-position:-64px -16px }
.retweet { content:url(/img/social/retweet.svg); height:16px } #send-reply { content:url(/img/email/send.svg); height:14px }
</style>
<span class=ui-spinner><input aria-label=Amount value=3>
 <a class="ui-spinner-button ui-spinner-up" role=button tabindex=-1 data-log=up><span class="ui-icon ui-icon-triangle-1-n"></span></a>
 <a class="ui-spinner-button ui-spinner-down" role=button tabindex=-1 data-log=down><span class="ui-icon ui-icon-triangle-1-s"></span></a>
</span>
<div class=ql-toolbar>
 <button class=ql-bold data-log=bold><svg viewBox="0 0 18 18" width=18 height=18><path d="M5 4h5"/></svg></button>
 <button class=ql-italic data-log=italic><svg viewBox="0 0 18 18" width=18 height=18><path d="M7 4h5"/></svg></button>
 <button class=ql-underline data-log=underline><svg viewBox="0 0 18 18" width=18 height=18><path d="M5 3v6"/></svg></button>
 <button class=ql-list value=ordered data-log=ordered><svg viewBox="0 0 18 18" width=18 height=18><path d="M7 4h9"/></svg></button>
 <button class=ql-list value=bullet data-log=bullets><svg viewBox="0 0 18 18" width=18 height=18><path d="M6 4h9"/></svg></button>
 <span data-command=strikethrough style="display:inline-block;width:18px;height:18px" data-log=strike></span>
</div>
<div class=controls><span class=reply data-log=reply style="display:inline-block;width:14px;height:14px"></span><span class=retweet data-log=retweet></span></div>
<span id=send-reply data-log=send></span>
` + logScript})+"/")
	for _, c := range []struct{ prefix, logged string }{
		{`button "up icon" box=`, "up"},
		{`button "down icon" box=`, "down"},
		{`button "bold icon" box=`, "bold"},
		{`button "italic icon" box=`, "italic"},
		{`button "underline icon" box=`, "underline"},
		{`button "list ordered icon" box=`, "ordered"},
		{`button "list bullet icon" box=`, "bullets"},
		{`clickable "strikethrough icon" box=`, "strike"},
		{`clickable "reply icon" box=`, "reply"},
		{`clickable "retweet icon" box=`, "retweet"},
		{`clickable "send icon" box=`, "send"},
	} {
		wantClick(t, shared, s, c.prefix, c.logged)
	}
	if strings.Contains(s.Text, "777777") || strings.Contains(s.Text, "unnamed") {
		t.Errorf("a twin is named by a sprite sheet or not at all:\n%s", s.Text)
	}
}

// Shades: tiles of four reds and a brown each get their own CSS name and
// their hex, so that "the crimson one" and "the dark red one" are told
// apart.
func TestPerceptionShades(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	s := open(t, shared, servePage(t, `<title>Shades</title>
<div style="display:flex;gap:4px">
 <div style="width:30px;height:30px;background:#dc143c" data-log=crimson></div>
 <div style="width:30px;height:30px;background:#8b0000" data-log=darkred></div>
 <div style="width:30px;height:30px;background:#fa8072" data-log=salmon></div>
 <div style="width:30px;height:30px;background:#ff1493" data-log=deeppink></div>
 <div style="width:30px;height:30px;background:#a0522d" data-log=sienna></div>
 <div style="width:30px;height:30px;background:#de1540" data-log=nearcrimson></div>
</div>
`+logScript))
	for _, c := range []struct{ prefix, logged string }{
		{`clickable "crimson tile #dc143c" box=`, "crimson"},
		{`clickable "darkred tile #8b0000" box=`, "darkred"},
		{`clickable "salmon tile #fa8072" box=`, "salmon"},
		{`clickable "deeppink tile #ff1493" box=`, "deeppink"},
		{`clickable "sienna tile #a0522d" box=`, "sienna"},
		{`clickable "crimson tile #de1540" box=`, "nearcrimson"},
	} {
		wantClick(t, shared, s, c.prefix, c.logged)
	}
}
