package browser

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
)

var _ contract.MarkedScreenshotter = (*Browser)(nil)

// marksJS lists the refs shown in the viewport with their boxes.
var marksJS = program("marks")

// maxMarks bounds the marks drawn on one screenshot: past it, labels
// cover the page more than they help.
const maxMarks = 300

// MarkColour is the colour of the marks: each ref's box outline and the
// ground of its label.
var MarkColour = color.RGBA{R: 255, G: 0, B: 170, A: 255}

// mark is one ref's box, in CSS pixels of the viewport, the centre of its
// part in view, and whether a click there reaches it.
type mark struct {
	Ref            string
	X0, Y0, X1, Y1 float64
	CX, CY         float64
	Hit            bool
}

type markList struct {
	VW, VH float64
	Marks  []mark
}

// ScreenshotMarked captures the viewport as a PNG with every ref in view
// drawn on it (set-of-mark): its box outlined and its ref written at the
// box's top-left corner. The marks are drawn in Go on the image; the page
// is not changed. A document no snapshot has read yet is read first, so
// that its elements have refs.
func (b *Browser) ScreenshotMarked(ctx context.Context) ([]byte, error) {
	shot, _, err := b.MarkedView(ctx)
	return shot, err
}

// MarkedView is ScreenshotMarked and InView from one reading of the refs
// in view: the picture's marks and the points listed are the same.
func (b *Browser) MarkedView(ctx context.Context) ([]byte, []contract.RefInView, error) {
	var marks *markList
	// read reads the marks, then the picture; with unread (nil marks:
	// no snapshot has read the document yet) it stops at the marks.
	read := func(unread bool) func(o *op) ([]byte, error) {
		return func(o *op) ([]byte, error) {
			var err error
			if marks, err = o.marks(); err != nil || (marks == nil && unread) {
				return nil, err
			}
			return o.png()
		}
	}
	shot, err := b.capture(ctx, read(true))
	if err == nil && marks == nil {
		if _, err = b.Snapshot(ctx); err != nil {
			return nil, nil, err
		}
		shot, err = b.capture(ctx, read(false))
	}
	if err != nil {
		return nil, nil, err
	}
	if marks == nil {
		marks = &markList{}
	}
	png, err := annotate(shot, *marks)
	if err != nil {
		return nil, nil, err
	}
	return png, marks.inView(), nil
}

// InView lists the refs shown in the viewport, in the order they were given:
// each one's box and the point a click reaches it at, in CSS pixels of the
// viewport (the pixels of Screenshot, ScreenshotMarked and ScreenshotCSS).
// A document no snapshot has read yet has no refs: the list is empty.
func (b *Browser) InView(ctx context.Context) ([]contract.RefInView, error) {
	var marks *markList
	_, err := b.capture(ctx, func(o *op) ([]byte, error) {
		var err error
		marks, err = o.marks()
		return nil, err
	})
	if err != nil || marks == nil {
		return nil, err
	}
	return marks.inView(), nil
}

// inView is the marks as the contract's list.
func (m *markList) inView() []contract.RefInView {
	out := make([]contract.RefInView, len(m.Marks))
	for i, k := range m.Marks {
		out[i] = contract.RefInView{Ref: k.Ref, Box: [4]float64{k.X0, k.Y0, k.X1, k.Y1},
			At: contract.Point{X: k.CX, Y: k.CY}, Covered: !k.Hit}
	}
	return out
}

// marks reads the refs in view; nil when the document has no refs yet.
func (o *op) marks() (*markList, error) {
	var m *markList
	if err := o.evalValue(jsCall(marksJS, maxMarks), &m); err != nil {
		return nil, fmt.Errorf("marks: %w", err)
	}
	return m, nil
}

// png captures the viewport as a PNG.
func (o *op) png() ([]byte, error) {
	res, err := cdp.Call(o.ctx, o.b.target, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// annotate draws the marks on a PNG of the viewport. The image may have
// more pixels than the viewport has CSS pixels (a device scale): boxes
// are scaled to it.
func annotate(shot []byte, m markList) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return nil, fmt.Errorf("marks: the screenshot: %w", err)
	}
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	scale := 1.0
	if m.VW > 0 {
		scale = float64(img.Bounds().Dx()) / m.VW
	}
	for _, k := range m.Marks {
		r := image.Rect(int(k.X0*scale), int(k.Y0*scale), int(k.X1*scale+0.5), int(k.Y1*scale+0.5)).Intersect(img.Bounds())
		drawBorder(img, r, 2)
	}
	// Labels last, so that no outline crosses a label.
	for _, k := range m.Marks {
		label(img, k.Ref, int(k.X0*scale), int(k.Y0*scale))
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// drawBorder draws a rectangle's border, w pixels wide, inside it.
func drawBorder(img *image.RGBA, r image.Rectangle, w int) {
	if r.Empty() {
		return
	}
	c := image.NewUniform(MarkColour)
	for _, side := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+w)}, {image.Pt(r.Min.X, r.Max.Y-w), r.Max},
		{r.Min, image.Pt(r.Min.X+w, r.Max.Y)}, {image.Pt(r.Max.X-w, r.Min.Y), r.Max},
	} {
		draw.Draw(img, side.Intersect(r), c, image.Point{}, draw.Src)
	}
}
