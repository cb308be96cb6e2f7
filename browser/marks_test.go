package browser

import (
	"bytes"
	"image"
	"image/png"
	"testing"
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
