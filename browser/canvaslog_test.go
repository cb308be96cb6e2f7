package browser

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/testfixture/tier"
)

// canvasGamePage draws, after load, a game's scene on a canvas of 400x200
// pixels shown at half size inside a border and padding (its content box
// starts 7 px in): a background, a red rect, a blue circle, a score and a
// green line.
const canvasGamePage = `<title>Game</title>
<canvas id=game width=400 height=200 style="width:200px;height:100px;border:2px solid #000;padding:5px;margin-left:30px"></canvas>
<script>
window.addEventListener('load', () => {
  const ctx = document.getElementById('game').getContext('2d');
  ctx.fillStyle = '#eee';
  ctx.fillRect(0, 0, 400, 200);
  ctx.fillStyle = 'red';
  ctx.fillRect(40, 60, 80, 40);
  ctx.fillStyle = '#00f';
  ctx.beginPath();
  ctx.arc(300, 100, 40, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = 'black';
  ctx.font = '20px sans-serif';
  ctx.textBaseline = 'top';
  ctx.fillText('Score: 42', 20, 10);
  ctx.save();
  ctx.translate(0, 180);
  ctx.strokeStyle = 'green';
  ctx.beginPath();
  ctx.moveTo(20, 0);
  ctx.lineTo(380, 0);
  ctx.stroke();
  ctx.restore();
  document.title = 'drawn';
});
</script>`

// snapNumbers reads the comma-separated numbers of the submatch groups of
// re's first match in s.
func snapNumbers(t *testing.T, s, re string) []float64 {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no match of %s in:\n%s", re, s)
	}
	var out []float64
	for _, f := range strings.Split(strings.Join(m[1:], ","), ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("%q in %q: %v", f, m[0], err)
		}
		out = append(out, v)
	}
	return out
}

// within2px reports whether got is within 2 px of want, number by number.
func within2px(got []float64, want ...float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if abs(got[i]-want[i]) > 2 {
			return false
		}
	}
	return true
}

func TestCanvasLogInSnapshot(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newObservableTab(t)
	open(t, shared, servePage(t, canvasGamePage))
	waitFor(t, "the canvas drawn", 10*time.Second, func() bool { return evalPage[string](t, shared, "document.title") == "drawn" })
	s := snapshot(t, shared)
	t.Logf("snapshot:\n%s", s.Text)
	c := snapNumbers(t, s.Text, `canvas "game" box=(\d+,\d+,\d+,\d+) \[ref=`)
	x0, y0 := c[0]+7, c[1]+7 // the content box: border and padding
	if got := snapNumbers(t, s.Text, `(?m)^  text "Score: 42" box=(\d+,\d+),\d+,\d+$`); !within2px(got, x0+10, y0+5) {
		t.Errorf("the score's box starts at %v, want %v,%v", got, x0+10, y0+5)
	}
	if got := snapNumbers(t, s.Text, `(?m)^  rect "red[^"]*" box=(\d+,\d+,\d+,\d+)$`); !within2px(got, x0+20, y0+30, 40, 20) {
		t.Errorf("the red rect's box is %v, want %v,%v,40,20", got, x0+20, y0+30)
	}
	if got := snapNumbers(t, s.Text, `(?m)^  circle "blue[^"]*" center=(\d+,\d+) r=(\d+) box=`); !within2px(got, x0+150, y0+50, 20) {
		t.Errorf("the blue circle is %v, want centre %v,%v radius 20", got, x0+150, y0+50)
	}
	if got := snapNumbers(t, s.Text, `(?m)^  line "green[^"]*" from=(\d+,\d+) to=(\d+,\d+)$`); !within2px(got, x0+10, y0+90, x0+190, y0+90) {
		t.Errorf("the green line is %v, want from %v,%v to %v,%v", got, x0+10, y0+90, x0+190, y0+90)
	}

	// A drawing placed by transforms, and colours set in a saved state that
	// was restored: the log follows them as the context does.
	evalPage[bool](t, shared, `(() => {
  const ctx = document.getElementById('game').getContext('2d');
  ctx.save();
  ctx.fillStyle = 'yellow';
  ctx.translate(100, 20);
  ctx.scale(2, 2);
  ctx.save();
  ctx.fillStyle = 'purple';
  ctx.rotate(Math.PI / 2);
  ctx.restore();
  ctx.fillRect(10, 10, 20, 20);
  ctx.restore();
  ctx.fillRect(360, 160, 20, 20);
  return true;
})()`)
	s = snapshot(t, shared)
	if got := snapNumbers(t, s.Text, `(?m)^  rect "yellow[^"]*" box=(\d+,\d+,\d+,\d+)$`); !within2px(got, x0+60, y0+20, 20, 20) {
		t.Errorf("the yellow rect's box is %v, want %v,%v,20,20:\n%s", got, x0+60, y0+20, s.Text)
	}
	if got := snapNumbers(t, s.Text, `(?m)^  rect "black[^"]*" box=(\d+,\d+,\d+,\d+)$`); !within2px(got, x0+180, y0+80, 10, 10) {
		t.Errorf("the black rect's box is %v, want %v,%v,10,10:\n%s", got, x0+180, y0+80, s.Text)
	}

	// Past the budget, the rest is counted; a clear of the whole canvas
	// empties the list.
	evalPage[bool](t, shared, `(() => {
  const ctx = document.getElementById('game').getContext('2d');
  ctx.fillStyle = 'orange';
  for (let i = 0; i < 60; i++) { ctx.beginPath(); ctx.arc(10 + i * 6, 150, 2, 0, 7); ctx.fill(); }
  return true;
})()`)
	s = snapshot(t, shared)
	if got := snapNumbers(t, s.Text, `(?m)^  … (\d+) more drawn items \(screenshot to see them\)$`); got[0] != 67-40 {
		t.Errorf("%v more drawn items, want 27:\n%s", got[0], s.Text)
	}
	if !strings.Contains(s.Text, `text "Score: 42"`) || !strings.Contains(s.Text, `circle "blue`) {
		t.Errorf("past the budget, the score or the circle is left out:\n%s", s.Text)
	}
	evalPage[bool](t, shared, `(() => { const c = document.getElementById('game'); c.getContext('2d').clearRect(0, 0, c.width, c.height); return true; })()`)
	s = snapshot(t, shared)
	if l := lineOf(t, s, `canvas "game"`); strings.Contains(s.Text, "Score") || !strings.HasSuffix(strings.TrimSpace(s.Text), l) {
		t.Errorf("a cleared canvas still lists drawn items:\n%s", s.Text)
	}
}

// The page cannot tell the drawing methods were wrapped, and they draw as
// before.
func TestCanvasLogUnseen(t *testing.T) {
	t.Parallel()
	shared := newObservableTab(t)
	open(t, shared, servePage(t, canvasGamePage))
	waitFor(t, "the canvas drawn", 10*time.Second, func() bool { return evalPage[string](t, shared, "document.title") == "drawn" })
	if !evalPage[bool](t, shared, "window[Symbol.for('webagent.canvas')] instanceof WeakMap") {
		t.Fatal("the canvas log is not installed")
	}
	odd := evalPage[string](t, shared, `(() => {
  const P = CanvasRenderingContext2D.prototype;
  // The methods' lengths of the HTML standard.
  const want = {fillText: 3, strokeText: 3, fillRect: 4, strokeRect: 4, clearRect: 4, arc: 5, ellipse: 7, arcTo: 5,
    moveTo: 2, lineTo: 2, rect: 4, roundRect: 4, quadraticCurveTo: 4, bezierCurveTo: 6, fill: 0, stroke: 0,
    beginPath: 0, closePath: 0, drawImage: 3, reset: 0, translate: 2, scale: 2, rotate: 1, transform: 6,
    setTransform: 0, resetTransform: 0, save: 0, restore: 0};
  const odd = [];
  const check = (f, name, length) => {
    if (f.name !== name || f.length !== length) odd.push(name + ': name ' + f.name + ', length ' + f.length);
    if (String(f) !== 'function ' + name + '() { [native code] }') odd.push(name + ': ' + String(f));
    if ('prototype' in f) odd.push(name + ' has a prototype');
  };
  for (const [name, length] of Object.entries(want)) {
    const d = Object.getOwnPropertyDescriptor(P, name);
    check(d.value, name, length);
    if (!d.writable || !d.enumerable || !d.configurable) odd.push(name + ': ' + JSON.stringify(d));
  }
  for (const [proto, name] of [[P, 'fillStyle'], [P, 'strokeStyle'], [HTMLCanvasElement.prototype, 'width'], [HTMLCanvasElement.prototype, 'height']]) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    check(d.set, 'set ' + name, 1);
    if (!d.enumerable || !d.configurable || typeof d.get !== 'function') odd.push(name + ': ' + JSON.stringify(d));
  }
  return odd.join('; ');
})()`)
	if odd != "" {
		t.Errorf("the page can tell: %s", odd)
	}
	// The red rect and the blue circle are painted.
	px := evalPage[[]int](t, shared, `(() => {
  const ctx = document.getElementById('game').getContext('2d');
  return [...ctx.getImageData(80, 80, 1, 1).data, ...ctx.getImageData(300, 100, 1, 1).data];
})()`)
	if want := []int{255, 0, 0, 255, 0, 0, 255, 255}; !slices.Equal(px, want) {
		t.Errorf("pixels %v, want %v", px, want)
	}
	// A call the context refuses throws as it did.
	if msg := evalPage[string](t, shared, `(() => { try { CanvasRenderingContext2D.prototype.fillRect.call({}, 0, 0, 1, 1); return 'no error'; } catch (e) { return e.constructor.name; } })()`); msg != "TypeError" {
		t.Errorf("fillRect on a non-context: %s, want a TypeError", msg)
	}
}

// The log is kept in every frame, and a frame's drawing is placed in the
// main viewport.
func TestCanvasLogInFrame(t *testing.T) {
	t.Parallel()
	shared := newObservableTab(t)
	base := serve(t, map[string]string{
		"/": `<title>Outer</title><iframe src="/inner" title=Board style="margin:40px 0 0 60px;border:0;width:300px;height:200px"></iframe>`,
		"/inner": `<body style="margin:0"><canvas id=board width=200 height=100></canvas>
<script>
const ctx = document.getElementById('board').getContext('2d');
ctx.fillStyle = 'blue';
ctx.fillRect(10, 20, 30, 40);
</script>`,
	})
	s := open(t, shared, base+"/")
	f := snapNumbers(t, s.Text, `iframe "Board"`+"\n"+`\s+canvas "board" box=(\d+,\d+),200,100`)
	if got := snapNumbers(t, s.Text, `(?m)^\s+rect "blue[^"]*" box=(\d+,\d+,\d+,\d+)$`); !within2px(got, f[0]+10, f[1]+20, 30, 40) {
		t.Errorf("the blue rect's box is %v, want %v,%v,30,40:\n%s", got, f[0]+10, f[1]+20, s.Text)
	}
}
