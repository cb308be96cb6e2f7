package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestDragByOffsetAndOntoTarget(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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

func TestDragSortableByPoints(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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

func TestDragResizeGrip(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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

func TestDragHTML5ByPoints(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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
	t.Parallel()
	shared := newTab(t)
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
