package browser

import (
	"strings"
	"testing"
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
	for _, want := range []string{`polygon "green #008000" sides=5`, `polygon "orange #ffa500" points=5 222,18 272,18 292,58 252,98 217,58 box=`, `path "blue #0000ff outline" segments=3`} {
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
