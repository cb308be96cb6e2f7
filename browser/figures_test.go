package browser

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Polygons and paths say how many sides or segments they have, drawn on a
// canvas or in an SVG scene (an SVG polygon lists its first vertices too):
// "how many sides" is answered by the snapshot.
func TestFigureVertices(t *testing.T) {
	t.Parallel()
	b := newObservableTab(t)
	s := open(t, b, servePage(t, `<title>Shapes</title>
<canvas id=c width=200 height=200 aria-label="board"></canvas>
<svg width=300 height=200>
  <polygon points="10,10 60,10 80,50 40,90 5,50" fill="orange"/>
  <path d="M100 100 L150 100 L150 150 Z" fill="none" stroke="blue"/>
  <circle cx=250 cy=50 r=20 fill=red />
</svg>
<script>
const x = document.getElementById('c').getContext('2d');
x.fillStyle = 'green';
x.beginPath(); x.moveTo(100, 20); x.lineTo(180, 80); x.lineTo(150, 170); x.lineTo(50, 170); x.lineTo(20, 80); x.closePath(); x.fill();
</script>`))
	for _, want := range []string{
		`polygon "green #008000" sides=5 108,28 188,88 158,178 58,178 28,88 box=`,
		`polygon "orange #ffa500" points=5 222,18 272,18 292,58 252,98 217,58 box=`,
		`path "blue #0000ff outline" segments=3 312,108 362,108 362,158 box=`,
	} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, s.Text)
		}
	}
}

// A dialog that shows keeps its words even when marked aria-hidden (a
// consent modal as some sites ship it), not only its buttons.
func TestShownHiddenDialogKeepsText(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	s := open(t, b, servePage(t, `<title>News</title><p>Today's news.</p>
<div class="modal fade show" role="dialog" aria-hidden="true" style="display:block; position:fixed; top:20px; left:20px; width:420px; height:220px; background:#fff">
  <h2>We value your privacy</h2>
  <p>By clicking Accept and Continue below, you consent to these activities.</p>
  <button>Accept and Continue</button>
</div>`))
	for _, want := range []string{"By clicking Accept and Continue below", "We value your privacy", `button "Accept and Continue"`} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, s.Text)
		}
	}
}

// A small figure drawn by a script (no listener, 50x50: "name the shape")
// is listed with its shapes, as a larger scene or a target is.
func TestSmallStaticSVGFigure(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	s := open(t, b, servePage(t, `<title>Identify</title><div id=area></div>
<button>Rectangle</button><button>Circle</button><button>Triangle</button><button>Number</button>
<script>
const ns = 'http://www.w3.org/2000/svg';
const svg = document.createElementNS(ns, 'svg');
svg.setAttribute('width', 50); svg.setAttribute('height', 50);
const p = document.createElementNS(ns, 'polygon');
p.setAttribute('points', '25,5 45,45 5,45'); p.setAttribute('fill', 'blue');
svg.appendChild(p);
document.getElementById('area').appendChild(svg);
</script>`))
	if !strings.Contains(s.Text, `polygon "blue #0000ff" points=3 `) || !strings.Contains(s.Text, `button "Number"`) {
		t.Errorf("the snapshot lacks the figure or the answers:\n%s", s.Text)
	}
	// An icon (16x16) standing alone is still left out.
	s = open(t, b, servePage(t, `<title>Icon</title><p>Hello <svg width=16 height=16><circle cx=8 cy=8 r=6 fill=red /></svg> world</p>`))
	if strings.Contains(s.Text, "circle") {
		t.Errorf("an icon was listed as a figure:\n%s", s.Text)
	}
}

// A digit drawn with coloured divs beside a grid of checkboxes: the digit
// is a figure, written row by row, and the checkboxes stay controls; a
// board of tiles to click beside them stays tiles with refs.
func TestBoxFigure(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	s := open(t, b, servePage(t, `<title>Digits</title>
<style>.row{display:flex}.c{width:10px;height:10px;margin:1px}.on{background:black}.off{background:white}#boxes input{margin:1px}</style>
<p>Draw the number in the checkboxes using the example on the right.</p>
<div id=boxes></div>
<div id=digit style="position:absolute;left:200px;top:60px"></div>
<div id=board style="position:absolute;left:300px;top:60px;display:grid;grid-template-columns:repeat(3,30px);gap:2px"></div>
<script>
// A board of tiles to click, its listener on the document: tiles, not a figure.
const board = document.getElementById('board');
for (let i = 0; i < 9; i++) { const c = document.createElement('div'); c.style.cssText = 'width:30px;height:30px;cursor:pointer;background:' + (i % 2 ? 'red' : 'blue'); board.appendChild(c); }
document.addEventListener('click', (e) => { if (e.target.parentElement === board) window.picked = e.target; });
const seven = ['####', '#..#', '...#', '..#.', '..#.', '.#..', '.#..'];
const d = document.getElementById('digit'), bx = document.getElementById('boxes');
for (const r of seven) {
  const row = document.createElement('div'); row.className = 'row';
  for (const ch of r) { const c = document.createElement('div'); c.className = 'c ' + (ch === '#' ? 'on' : 'off'); row.appendChild(c); }
  d.appendChild(row);
  const p = document.createElement('p');
  for (let i = 0; i < 4; i++) { const cb = document.createElement('input'); cb.type = 'checkbox'; p.appendChild(cb); }
  bx.appendChild(p);
}
</script>`))
	want := "figure 4x7 \". white, # black\" box="
	if !strings.Contains(s.Text, want) {
		t.Fatalf("the snapshot lacks %q:\n%s", want, s.Text)
	}
	rows := strings.Join([]string{"####", "#..#", "...#", "..#.", "..#.", ".#..", ".#.."}, "\n")
	if !strings.Contains(lines(s.Text), rows) {
		t.Errorf("the figure's rows are not the digit:\n%s", s.Text)
	}
	if n := strings.Count(s.Text, "figure "); n != 1 {
		t.Errorf("%d figures, want the digit alone:\n%s", n, s.Text)
	}
	if n := strings.Count(s.Text, ` tile #`); n != 9 {
		t.Errorf("%d tiles listed, want the board's 9:\n%s", n, s.Text)
	}
	if n := strings.Count(s.Text, `checkbox "`); n != 28 {
		t.Errorf("%d checkboxes listed, want 28:\n%s", n, s.Text)
	}
}

// lines is text with each line's indentation left out.
func lines(text string) string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		out = append(out, strings.TrimSpace(l))
	}
	return strings.Join(out, "\n")
}

// A CSS cube: the faces turned towards the viewer are listed with their
// text and boxes; faces turned away with hidden backs are not, a card
// turned over with its back shown is said to be mirrored.
func TestCSSCubeFaces(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	s := open(t, b, servePage(t, `<title>Cube</title>
<style>
.scene{width:120px;height:120px;perspective:400px;margin:60px}
.cube{width:120px;height:120px;position:relative;transform-style:preserve-3d;transform:rotateX(-20deg) rotateY(-30deg)}
.f{position:absolute;width:120px;height:120px;line-height:120px;text-align:center;font-size:40px;backface-visibility:hidden;border:1px solid #333;background:#eef}
.front{transform:rotateY(0deg) translateZ(60px)}.right{transform:rotateY(90deg) translateZ(60px)}
.back{transform:rotateY(180deg) translateZ(60px)}.left{transform:rotateY(-90deg) translateZ(60px)}
.top{transform:rotateX(90deg) translateZ(60px)}.bottom{transform:rotateX(-90deg) translateZ(60px)}
</style>
<p>Which numbers can you see?</p>
<div class=scene><div class=cube>
<div class="f front">1</div><div class="f right">2</div><div class="f back">3</div>
<div class="f left">4</div><div class="f top">5</div><div class="f bottom">6</div>
</div></div>
<div style="width:160px;height:40px;transform:rotateY(180deg);background:#ffd">Card back</div>
<div style="width:400px;transform:perspective(600px) rotateY(20deg)"><p>`+strings.Repeat("A panel of long text, turned a little. ", 6)+`The end of the panel.</p></div>`))
	for _, want := range []string{`face "1" box=`, `face "2" box=`, `face "5" box=`, `face "Card back" (mirrored: seen from behind) box=`} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, s.Text)
		}
	}
	if !strings.Contains(s.Text, "The end of the panel.") {
		t.Errorf("a turned panel of long text lost its text:\n%s", s.Text)
	}
	for _, unseen := range []string{`face "3"`, `face "4"`, `face "6"`} {
		if strings.Contains(s.Text, unseen) {
			t.Errorf("the snapshot lists a face turned away, %q:\n%s", unseen, s.Text)
		}
	}
}

// unreadPicturePage has pictures the snapshot cannot read: a canvas drawn
// with a background, shapes and a score, one drawn with another origin's
// picture (tainted), one blank and one of a single colour; a 65x111 image
// without text (from {{other}}, another origin), and images that must
// stay out: a 16x16 icon in a named button, a spacer, one marked as
// decoration. The page notes what webagent could change of it: its
// globals, and whether its canvases can still get any context.
const unreadPicturePage = `<title>Puzzle</title>
<p>Which piece fits? The example:</p>
<img id=ex src="{{other}}/piece.png">
<canvas id=score width=300 height=150 aria-label="score"></canvas>
<canvas id=taint width=100 height=100 aria-label="taint"></canvas>
<canvas id=blank width=300 height=150 aria-label="blank"></canvas>
<canvas id=plain width=100 height=100 aria-label="plain"></canvas>
<button aria-label="Search"><img src="{{other}}/icon.png" width=16 height=16></button>
<img src="{{other}}/piece.png" width=1 height=1>
<img src="{{other}}/piece.png" alt="" width=65 height=111>
<script>
const x = document.getElementById('score').getContext('2d');
x.fillStyle = 'white'; x.fillRect(0, 0, 300, 150);
x.fillStyle = 'red'; x.fillRect(20, 20, 120, 100);
x.fillStyle = 'black'; x.font = '20px sans-serif'; x.fillText('Score 3', 180, 80);
const p = document.getElementById('plain').getContext('2d');
p.fillStyle = 'navy'; p.fillRect(0, 0, 100, 100);
window.globals = 0;
window.globals = Object.getOwnPropertyNames(window).length;
window.addEventListener('load', () => {
  document.getElementById('taint').getContext('2d').drawImage(document.getElementById('ex'), 0, 0);
  document.title = 'ready';
});
</script>`

// A canvas drawn on says so without the canvas log, with its main
// colours and how to see it (a tainted one, that it is drawn, unknown
// what); a blank or one-colour canvas does not. A content picture without
// text is listed with its box; an icon in a named button, a spacer and
// decoration are not. Nothing of it shows to the page.
func TestUnreadPictures(t *testing.T) {
	t.Parallel()
	b := newTab(t)
	other := strings.Replace(serve(t, map[string]string{"/piece.png": pngOf(t, 65, 111), "/icon.png": pngOf(t, 16, 16)}), "127.0.0.1", "localhost", 1)
	url := servePage(t, strings.ReplaceAll(unreadPicturePage, "{{other}}", other))
	s := open(t, b, url)
	waitFor(t, "the page drawn", 10*time.Second, func() bool {
		if s.Title != "ready" {
			s = snapshot(t, b)
		}
		return s.Title == "ready"
	})
	const hint = " (screenshot to see it; --observable lists what is drawn) [ref="
	for _, want := range []string{
		`canvas "score" drawn colours="white #ffffff, red #ff0000" box=`,
		`canvas "taint" drawn=unknown box=`,
	} {
		if line := lineOf(t, s, want); !strings.Contains(line, hint) {
			t.Errorf("the drawn canvas's line lacks how to see it: %s", line)
		}
	}
	for _, blank := range []string{`canvas "blank" box=`, `canvas "plain" box=`} {
		if line := lineOf(t, s, blank); strings.Contains(line, "drawn") || strings.Contains(line, "screenshot") {
			t.Errorf("a blank canvas is said drawn: %s", line)
		}
	}
	var pictures []string
	for l := range strings.Lines(s.Text) {
		if strings.HasPrefix(strings.TrimSpace(l), `img ""`) {
			pictures = append(pictures, strings.TrimSpace(l))
		}
	}
	if len(pictures) != 1 || !regexp.MustCompile(`^img "" box=\d+,\d+,65,111 \(screenshot to see it\)$`).MatchString(pictures[0]) {
		t.Errorf("want one picture without text, the 65x111 one, got %q:\n%s", pictures, s.Text)
	}
	lineOf(t, s, `button "Search"`)
	// The page sees no new global, and its canvases were only read: the
	// blank one, which had no context, can still get any.
	if got := evalPage[bool](t, b, `Object.getOwnPropertyNames(window).length === window.globals && !!document.getElementById('blank').getContext('bitmaprenderer')`); !got {
		t.Error("the page sees a change: a new global, or a context made on its blank canvas")
	}
}

// With the canvas log, a canvas drawn in ways the log does not follow
// (pixels put whole) is said drawn from its pixels, and the hint leaves
// out the option already on.
func TestUnreadCanvasObservable(t *testing.T) {
	t.Parallel()
	b := newObservableTab(t)
	s := open(t, b, servePage(t, `<title>Put</title><canvas id=c width=40 height=40 aria-label="put"></canvas>
<script>
const x = document.getElementById('c').getContext('2d');
const d = x.createImageData(40, 40);
for (let i = 0; i < d.data.length; i += 4) { d.data[i] = i < d.data.length / 2 ? 255 : 0; d.data[i + 3] = 255; }
x.putImageData(d, 0, 0);
</script>`))
	line := lineOf(t, s, `canvas "put" drawn colours="`)
	if !strings.Contains(line, "red #ff0000") || !strings.HasSuffix(strings.TrimSpace(line), ",40,40 (screenshot to see it) [ref="+refOf(t, s, `canvas "put"`)+"]") {
		t.Errorf("the canvas drawn with pixels put: %s", line)
	}
}

// pngOf is a w x h PNG picture: a red top half, a blue bottom half.
func pngOf(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{R: 255, A: 255}
			if y >= h/2 {
				c = color.RGBA{B: 255, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
