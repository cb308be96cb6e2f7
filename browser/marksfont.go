package browser

import (
	"image"
	"image/color"
	"image/draw"
)

// glyphs is a 3x5 bitmap font of what a ref is written with: 'e' and the
// digits (other characters are skipped). Each row is three bits, the
// leftmost the highest.
var glyphs = map[rune][5]uint8{
	'e': {0b010, 0b101, 0b111, 0b100, 0b011},
	'0': {0b111, 0b101, 0b101, 0b101, 0b111},
	'1': {0b010, 0b110, 0b010, 0b010, 0b111},
	'2': {0b111, 0b001, 0b111, 0b100, 0b111},
	'3': {0b111, 0b001, 0b111, 0b001, 0b111},
	'4': {0b101, 0b101, 0b111, 0b001, 0b001},
	'5': {0b111, 0b100, 0b111, 0b001, 0b111},
	'6': {0b111, 0b100, 0b111, 0b101, 0b111},
	'7': {0b111, 0b001, 0b001, 0b001, 0b001},
	'8': {0b111, 0b101, 0b111, 0b101, 0b111},
	'9': {0b111, 0b101, 0b111, 0b001, 0b111},
}

// The label's geometry in image pixels: each font pixel is a square of
// labelScale, with labelPad around the text and one font pixel between
// characters.
const (
	labelScale = 2
	labelPad   = 2
)

// label writes text in white on the mark colour, above the point (x, y)
// when there is room, else just below it.
func label(img *image.RGBA, text string, x, y int) {
	n := 0
	for _, ch := range text {
		if _, ok := glyphs[ch]; ok {
			n++
		}
	}
	if n == 0 {
		return
	}
	w := n*4*labelScale - labelScale + 2*labelPad
	h := 5*labelScale + 2*labelPad
	b := img.Bounds()
	top := y - h
	if top < b.Min.Y {
		top = y
	}
	x = min(max(x, b.Min.X), b.Max.X-w)
	r := image.Rect(x, top, x+w, top+h)
	draw.Draw(img, r.Intersect(b), image.NewUniform(MarkColour), image.Point{}, draw.Src)
	white := image.NewUniform(color.White)
	cx := x + labelPad
	for _, ch := range text {
		g, ok := glyphs[ch]
		if !ok {
			continue
		}
		for row, bits := range g {
			for col := range 3 {
				if bits&(1<<(2-col)) == 0 {
					continue
				}
				px := image.Rect(cx+col*labelScale, top+labelPad+row*labelScale, cx+(col+1)*labelScale, top+labelPad+(row+1)*labelScale)
				draw.Draw(img, px.Intersect(b), white, image.Point{}, draw.Src)
			}
		}
		cx += 4 * labelScale
	}
}
