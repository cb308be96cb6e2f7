package browser

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"reflect"
	"strings"
	"testing"

	"github.com/webagent/webagent/contract"
)

// isMark reports whether a pixel has the mark colour.
func isMark(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	return r>>8 == uint32(MarkColour.R) && g>>8 == uint32(MarkColour.G) && b>>8 == uint32(MarkColour.B)
}

// TestScreenshotMarked: a button in view is outlined in the mark colour on
// its box's edge, a button below the view is not, and the page itself is
// unchanged (the plain screenshot shows no mark).
func TestScreenshotMarked(t *testing.T) {
	t.Parallel()
	tab := newTab(t)
	open(t, tab, servePage(t, `<body style="margin:0;background:#fff">
<button style="position:absolute;left:100px;top:80px;width:120px;height:40px">Go</button>
<button style="position:absolute;left:100px;top:3000px;width:120px;height:40px">Far</button></body>`))
	data, err := tab.ScreenshotMarked(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != tab.width || b.Dy() != tab.height {
		t.Errorf("size %v, want %dx%d", b, tab.width, tab.height)
	}
	for _, p := range []image.Point{{100, 100}, {219, 100}, {160, 80}, {160, 119}} {
		if !isMark(img, p.X, p.Y) {
			t.Errorf("pixel %v on the button's edge is %v, want the mark colour", p, img.At(p.X, p.Y))
		}
	}
	if isMark(img, 160, 100) {
		t.Error("the button's middle is painted over")
	}
	// The label sits above the box's top-left corner.
	found := false
	for x := 100; x < 120; x++ {
		found = found || isMark(img, x, 70)
	}
	if !found {
		t.Error("no label above the button")
	}
	plain, err := tab.Screenshot(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	pimg, _ := png.Decode(bytes.NewReader(plain))
	if isMark(pimg, 100, 100) {
		t.Error("the page itself shows the mark")
	}
}

func TestAnnotateLabels(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 50, 30))); err != nil {
		t.Fatal(err)
	}
	out, err := annotate(buf.Bytes(), markList{VW: 25, Marks: []mark{{Ref: "e12", X0: 0, Y0: 0, X1: 25, Y1: 15}}})
	if err != nil {
		t.Fatal(err)
	}
	img, _ := png.Decode(bytes.NewReader(out))
	// Device scale 2: the box is the whole image; the label is inside it,
	// at the top left, as there is no room above.
	if !isMark(img, 49, 29) || !isMark(img, 0, 0) {
		t.Error("the outline is not scaled to the image")
	}
	if r, g, b, _ := img.At(labelPad+labelScale, labelPad).RGBA(); r>>8 != 255 || g>>8 != 255 || b>>8 != 255 {
		t.Errorf("the label's first glyph pixel is %d,%d,%d, want white", r>>8, g>>8, b>>8)
	}
}

// TestInView: the refs in view come with the point a click reaches them
// at, the centre of their part in view; a ref below the view is not
// listed; one under a banner is covered; a checkbox whose label sits on
// it, and a button in a shadow root, are reached.
func TestInView(t *testing.T) {
	t.Parallel()
	tab := newTab(t)
	s := open(t, tab, servePage(t, `<body style="margin:0">
<button style="position:absolute;left:100px;top:80px;width:120px;height:40px">Go</button>
<button style="position:absolute;left:100px;top:3000px;width:120px;height:40px">Far</button>
<button style="position:absolute;left:400px;top:80px;width:120px;height:40px">Hidden</button>
<div style="position:absolute;left:380px;top:60px;width:200px;height:100px;background:#eee">A banner</div>
<label style="position:absolute;left:100px;top:200px"><input type=checkbox style="margin:0;width:20px;height:20px"> Agree</label>
<div id=host style="position:absolute;left:100px;top:300px"></div>
<script>host.attachShadow({mode:'open'}).innerHTML='<button style="width:80px;height:30px">Inner</button>'</script></body>`))
	got := map[string]contract.RefInView{}
	refs, err := tab.InView(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		got[r.Ref] = r
	}
	goRef, far, hidden := refOf(t, s, `button "Go"`), refOf(t, s, `button "Far"`), refOf(t, s, `button "Hidden"`)
	if g := got[goRef]; g.At != (contract.Point{X: 160, Y: 100}) || g.Covered || g.Box != [4]float64{100, 80, 220, 120} {
		t.Errorf("Go: %+v, want its box 100,80-220,120 reached at 160,100", g)
	}
	if _, ok := got[far]; ok {
		t.Error("the button below the view is listed")
	}
	if !got[hidden].Covered {
		t.Errorf("the button under the banner: %+v, want covered", got[hidden])
	}
	for _, name := range []string{`checkbox "Agree"`, `button "Inner"`} {
		if r, ok := got[refOf(t, s, name)]; !ok || r.Covered {
			t.Errorf("%s: %+v (listed %v), want reached", name, r, ok)
		}
	}
	// The marked picture's reading lists the same refs at the same points.
	shot, both, err := tab.MarkedView(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(both, refs) {
		t.Errorf("MarkedView's refs %+v, InView's %+v", both, refs)
	}
	if img, err := png.Decode(bytes.NewReader(shot)); err != nil || !isMark(img, 100, 100) {
		t.Errorf("MarkedView's picture: %v; want Go's box outlined at 100,80", err)
	}
}

// TestTypeFocusedPicker: typing without a ref into a focused date input
// (a computer tool's type after a click on it) sets its value as typing
// by ref does, and a value in another format is refused with the format.
func TestTypeFocusedPicker(t *testing.T) {
	t.Parallel()
	tab := newTab(t)
	open(t, tab, servePage(t, `<body style="margin:0"><label>Arrival <input id=d type=date style="position:absolute;left:100px;top:100px;width:160px;height:30px"></label>
<p id=out></p><script>d.onchange=()=>out.textContent='changed to '+d.value</script></body>`))
	do(t, tab, contract.Action{Name: contract.ActMouse, Op: contract.MouseClick, At: &contract.Point{X: 180, Y: 115}})
	out := do(t, tab, contract.Action{Name: contract.ActType, Text: "2026-06-01"})
	if !strings.Contains(out, `typed "2026-06-01" into textbox "Arrival"`) {
		t.Errorf("type said %q", out)
	}
	if v, err := tab.Eval(tctx(t), "out.textContent"); err != nil || v != "changed to 2026-06-01" {
		t.Errorf("the page saw %v (%v), want the value set and changed", v, err)
	}
	_, err := tab.Do(tctx(t), contract.Action{Name: contract.ActType, Text: "June 1st"})
	var ae *contract.ActionError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "YYYY-MM-DD") {
		t.Errorf("a date in words: %v, want an action error naming the format", err)
	}
}
