package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

func TestMousePathDrawsOnCanvas(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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

func TestMouseAtPoint(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
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

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
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
