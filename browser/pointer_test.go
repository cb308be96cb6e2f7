package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// A canvas that records the path drawn with the left button held: only a
// drag through the given corners, with intermediate moves, draws the L.
const canvasPage = `<title>Canvas</title>
<div aria-label="Drawing" onclick="" style="display:inline-block;margin:10px"><canvas id=c width=300 height=200 style="display:block"></canvas></div>
<script>
const c = document.getElementById('c'), pts = [];
let down = false, downs = 0, ups = 0;
c.addEventListener('mousedown', (e) => { down = true; downs++; pts.push([e.offsetX, e.offsetY]); });
c.addEventListener('mousemove', (e) => { if (down && e.buttons === 1) pts.push([e.offsetX, e.offsetY]); });
window.addEventListener('mouseup', (e) => { down = false; ups++; });
window.drawn = () => ({pts, downs, ups});
</script>`

type drawn struct {
	Pts        [][2]float64
	Downs, Ups int
}

func TestMousePathDrawsOnCanvas(t *testing.T) {
	s := open(t, shared, servePage(t, canvasPage))
	canvas := refOf(t, s, `clickable "Drawing"`)
	out := do(t, shared, contract.Action{Name: contract.ActMousePath, Ref: canvas, Path: []contract.Point{{X: 20, Y: 20}, {X: 20, Y: 150}, {X: 200, Y: 150}}})
	if !strings.Contains(out, "pressed the mouse at 20,20") || !strings.Contains(out, "the page changed") && !strings.Contains(out, "nothing on the page changed") {
		t.Errorf("outcome = %q", out)
	}
	d := evalPage[drawn](t, shared, "drawn()")
	if d.Downs != 1 || d.Ups != 1 {
		t.Fatalf("downs %d, ups %d, want 1 each", d.Downs, d.Ups)
	}
	if len(d.Pts) < 20 {
		t.Fatalf("only %d points drawn, want intermediate moves: %v", len(d.Pts), d.Pts)
	}
	near := func(p [2]float64, x, y float64) bool { return abs(p[0]-x) <= 2 && abs(p[1]-y) <= 2 }
	if first, last := d.Pts[0], d.Pts[len(d.Pts)-1]; !near(first, 20, 20) || !near(last, 200, 150) {
		t.Errorf("path from %v to %v, want (20,20) to (200,150)", first, last)
	}
	corner := false
	for _, p := range d.Pts {
		onV := abs(p[0]-20) <= 2 && p[1] >= 18 && p[1] <= 152
		onH := abs(p[1]-150) <= 2 && p[0] >= 18 && p[0] <= 202
		if !onV && !onH {
			t.Fatalf("point %v is off the L", p)
		}
		corner = corner || near(p, 20, 150)
	}
	if !corner {
		t.Errorf("the path does not pass the corner (20,150): %v", d.Pts)
	}

	// A point outside the canvas: refused, nothing sent.
	do(t, shared, contract.Action{Name: contract.ActGoto, URL: s.URL})
	s = snapshot(t, shared)
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActMousePath, Ref: refOf(t, s, `clickable "Drawing"`), Path: []contract.Point{{X: 20, Y: 20}, {X: 400, Y: 20}}})
	if !isActionError(err) || !strings.Contains(err.Error(), "outside") || !strings.Contains(err.Error(), "300x200") {
		t.Errorf("path off the canvas: %v", err)
	}
	_, err = shared.Do(tctx(t), contract.Action{Name: contract.ActMousePath, Path: []contract.Point{{X: 20, Y: 20}, {X: 20, Y: 5000}}})
	if !isActionError(err) || !strings.Contains(err.Error(), "outside the viewport") {
		t.Errorf("path off screen: %v", err)
	}
	if d := evalPage[drawn](t, shared, "drawn()"); d.Downs != 0 || len(d.Pts) != 0 {
		t.Errorf("a refused path reached the page: %+v", d)
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// A list sorted with mouse events only, as jQuery UI's sortable does: the
// drag starts after the pointer moved a few pixels with the button held,
// and the dragged item takes its place among the others as the pointer
// passes their middles. Its items have no refs.
const sortablePage = `<title>Sortable</title>
<style>li{height:40px;margin:4px;background:#eee;list-style:none;user-select:none} ul{width:200px;padding:0}</style>
<ul id=list><li>Apple</li><li>Banana</li><li>Cherry</li><li>Date</li></ul>
<p id=order></p>
<script>
const list = document.getElementById('list');
let item = null, sx = 0, sy = 0, dragging = false, moves = 0;
list.addEventListener('mousedown', (e) => {
  if (e.button !== 0 || e.target.localName !== 'li') return;
  item = e.target; sx = e.clientX; sy = e.clientY; moves = 0; e.preventDefault();
});
document.addEventListener('mousemove', (e) => {
  if (!item || !(e.buttons & 1)) return;
  moves++;
  if (!dragging && Math.hypot(e.clientX - sx, e.clientY - sy) < 5) return;
  dragging = true;
  item.style.opacity = '0.5';
  for (const li of list.children) {
    if (li === item) continue;
    const r = li.getBoundingClientRect();
    if (e.clientY < r.top || e.clientY > r.bottom) continue;
    const mid = r.top + r.height / 2;
    if (e.clientY > mid && li.nextSibling !== item) li.after(item);
    else if (e.clientY < mid && li.previousSibling !== item) li.before(item);
  }
});
document.addEventListener('mouseup', () => {
  if (item && dragging && moves >= 3) document.getElementById('order').textContent = Array.from(list.children).map((l) => l.textContent).join(',');
  if (item) item.style.opacity = '';
  item = null; dragging = false;
});
</script>`

func TestDragSortableByPoints(t *testing.T) {
	open(t, shared, servePage(t, sortablePage))
	// The items have no refs: take their places as a model would from a
	// screenshot.
	boxes := evalPage[[][4]float64](t, shared, "Array.from(document.querySelectorAll('li')).map((l) => { const r = l.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
	apple, cherry := boxes[0], boxes[2]
	from := &contract.Point{X: float64(int((apple[0] + apple[2]) / 2)), Y: float64(int((apple[1] + apple[3]) / 2))}
	to := &contract.Point{X: from.X, Y: float64(int(cherry[1] + (cherry[3]-cherry[1])*0.8))}
	out := do(t, shared, contract.Action{Name: contract.ActDrag, At: from, To: to})
	if !strings.Contains(out, "dragged from") || !strings.Contains(out, "the page changed") {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "document.getElementById('order').textContent"); got != "Banana,Cherry,Apple,Date" {
		t.Errorf("order after the drag = %q, want Banana,Cherry,Apple,Date", got)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActDrag, At: from, To: &contract.Point{X: -5, Y: 10}})
	if !isActionError(err) || !strings.Contains(err.Error(), "outside the viewport") {
		t.Errorf("drop off screen: %v", err)
	}
	if got := evalPage[string](t, shared, "Array.from(document.querySelectorAll('li')).map((l) => l.textContent).join(',')"); got != "Banana,Cherry,Apple,Date" {
		t.Errorf("a refused drag changed the list: %q", got)
	}
}

// A box resized by a grip in its corner, with mouse events.
const resizePage = `<title>Resize</title>
<div id=box aria-label="Panel" onclick="" style="position:relative;width:200px;height:100px;margin:20px;background:#def">
  <div id=grip style="position:absolute;right:0;bottom:0;width:10px;height:10px;background:#333;cursor:se-resize"></div>
</div>
<textarea aria-label="Notes" style="width:200px;height:60px;resize:both;margin:20px">some text</textarea>
<script>
const box = document.getElementById('box'), grip = document.getElementById('grip');
let st = null;
grip.addEventListener('mousedown', (e) => { st = {x: e.clientX, y: e.clientY, w: box.offsetWidth, h: box.offsetHeight}; e.preventDefault(); });
document.addEventListener('mousemove', (e) => { if (st && (e.buttons & 1)) { box.style.width = (st.w + e.clientX - st.x) + 'px'; box.style.height = (st.h + e.clientY - st.y) + 'px'; } });
document.addEventListener('mouseup', () => { st = null; });
</script>`

func TestDragResizeGrip(t *testing.T) {
	s := open(t, shared, servePage(t, resizePage))
	panel := refOf(t, s, `clickable "Panel"`)
	do(t, shared, contract.Action{Name: contract.ActDrag, Ref: panel, Anchor: "bottom-right", DX: 100, DY: 50})
	if got := evalPage[[2]int](t, shared, "[box.offsetWidth, box.offsetHeight]"); got != [2]int{300, 150} {
		t.Errorf("panel size after dragging its grip = %v, want [300 150]", got)
	}
	// The native resizer of a textarea: a drag from its corner resizes it
	// instead of selecting its text.
	notes := refOf(t, s, `textbox "Notes"`)
	w0 := evalPage[int](t, shared, "document.querySelector('textarea').offsetWidth")
	do(t, shared, contract.Action{Name: contract.ActDrag, Ref: notes, Anchor: "bottom-right", DX: 80, DY: 40})
	if w := evalPage[int](t, shared, "document.querySelector('textarea').offsetWidth"); w < w0+60 {
		t.Errorf("textarea width %d after dragging its corner by 80, was %d", w, w0)
	}
	// An anchor offset that leaves the box is refused.
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActMouse, Ref: panel, Anchor: "bottom-right", DX: 40})
	if !isActionError(err) || !strings.Contains(err.Error(), "outside its box") {
		t.Errorf("a point outside the box: %v", err)
	}
}

// A picture that records where and how it was clicked.
const pointPage = `<title>Point</title>
<div id=pic style="width:400px;height:300px;background:linear-gradient(red,blue)"></div>
<p id=log></p>
<script>
const log = [];
const pic = document.getElementById('pic');
for (const t of ['click', 'dblclick', 'contextmenu', 'mouseover'])
  pic.addEventListener(t, (e) => { if (e.isTrusted) log.push(t + '@' + e.offsetX + ',' + e.offsetY); document.getElementById('log').textContent = log.join(' '); if (t === 'contextmenu') e.preventDefault(); });
</script>`

func TestMouseAtPoint(t *testing.T) {
	open(t, shared, servePage(t, pointPage))
	box := evalPage[[2]float64](t, shared, "(() => { const r = pic.getBoundingClientRect(); return [r.left, r.top]; })()")
	at := func(x, y float64) *contract.Point { return &contract.Point{X: box[0] + x, Y: box[1] + y} }
	do(t, shared, contract.Action{Name: contract.ActMouse, Op: contract.MouseHover, At: at(10, 10)})
	out := do(t, shared, contract.Action{Name: contract.ActMouse, At: at(120, 80)})
	if !strings.HasPrefix(out, "clicked at (") || !strings.Contains(out, "the page changed") {
		t.Errorf("outcome = %q", out)
	}
	do(t, shared, contract.Action{Name: contract.ActMouse, Op: contract.MouseDoubleClick, At: at(30, 40)})
	do(t, shared, contract.Action{Name: contract.ActMouse, Op: contract.MouseRightClick, At: at(50, 60)})
	want := "mouseover@10,10 click@120,80 click@30,40 click@30,40 dblclick@30,40 contextmenu@50,60"
	if got := evalPage[string](t, shared, "log.join(' ')"); got != want {
		t.Errorf("events = %q, want %q", got, want)
	}
	_, err := shared.Do(tctx(t), contract.Action{Name: contract.ActMouse, At: &contract.Point{X: 5000, Y: 10}})
	if !isActionError(err) || !strings.Contains(err.Error(), "outside the viewport") {
		t.Errorf("click off screen: %v", err)
	}
	if got := evalPage[string](t, shared, "log.join(' ')"); got != want {
		t.Errorf("a refused click reached the page: %q", got)
	}
}

// HTML5 drag and drop between points: the page gets dragstart, dragover
// and drop with its data.
const html5Page = `<title>Board</title>
<div id=card draggable=true style="width:120px;height:40px;background:#fc0">Card</div>
<div id=done style="width:200px;height:100px;margin-top:40px;background:#cfc">Done</div>
<script>
const card = document.getElementById('card'), done = document.getElementById('done');
card.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'card'));
done.addEventListener('dragover', (e) => e.preventDefault());
done.addEventListener('drop', (e) => { e.preventDefault(); done.append(document.getElementById(e.dataTransfer.getData('text/plain'))); });
</script>`

func TestDragHTML5ByPoints(t *testing.T) {
	open(t, shared, servePage(t, html5Page))
	c := evalPage[[4]float64](t, shared, "(() => { const r = card.getBoundingClientRect(); const d = done.getBoundingClientRect(); return [r.left + 20, r.top + 20, d.left + 100, d.top + 50]; })()")
	out := do(t, shared, contract.Action{Name: contract.ActDrag, At: &contract.Point{X: c[0], Y: c[1]}, To: &contract.Point{X: c[2], Y: c[3]}})
	if !strings.Contains(out, "(HTML drag and drop)") {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "card.parentElement.id"); got != "done" {
		t.Errorf("the card is in %q after the drop, want done", got)
	}
}

// An element that listens for drops is a drop target of the snapshot, with
// a ref: a drag from the card's ref onto it needs no points.
func TestDragHTML5OntoDropTarget(t *testing.T) {
	s := open(t, shared, servePage(t, html5Page))
	if line := lineOf(t, s, `droptarget "Done"`); !strings.Contains(line, " box=") {
		t.Errorf("the drop zone's line has no box: %s", line)
	}
	out := do(t, shared, contract.Action{Name: contract.ActDrag, Ref: refOf(t, s, `clickable "Card"`), ToRef: refOf(t, s, `droptarget "Done"`)})
	if !strings.Contains(out, "(HTML drag and drop)") {
		t.Errorf("outcome = %q", out)
	}
	if got := evalPage[string](t, shared, "card.parentElement.id"); got != "done" {
		t.Errorf("the card is in %q after the drop, want done", got)
	}
}
