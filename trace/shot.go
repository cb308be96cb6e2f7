package trace

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
)

// maxShotBytes bounds one JPEG: past it the quality is lowered.
const maxShotBytes = 300 << 10

// toJPEG converts a PNG screenshot to a JPEG at most maxWidth wide (scaled
// down by a whole factor, averaging each block of pixels) and at most
// maxShotBytes.
func toJPEG(pngData []byte, maxWidth, quality int) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	if f := (img.Bounds().Dx() + maxWidth - 1) / maxWidth; f > 1 {
		img = shrink(img, f)
	}
	var buf bytes.Buffer
	for q := quality; ; q = q * 2 / 3 {
		buf.Reset()
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
			return nil, fmt.Errorf("screenshot: %w", err)
		}
		if buf.Len() <= maxShotBytes || q <= 10 {
			return buf.Bytes(), nil
		}
	}
}

// boundJPEG re-encodes a JPEG larger than maxShotBytes at a lower quality.
func boundJPEG(data []byte, quality int) ([]byte, error) {
	if len(data) <= maxShotBytes {
		return data, nil
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	var buf bytes.Buffer
	for q := quality * 2 / 3; ; q = q * 2 / 3 {
		buf.Reset()
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
			return nil, fmt.Errorf("screenshot: %w", err)
		}
		if buf.Len() <= maxShotBytes || q <= 10 {
			return buf.Bytes(), nil
		}
	}
}

// shrink scales img down by f, each output pixel the mean of an f×f block.
func shrink(img image.Image, f int) image.Image {
	b := img.Bounds()
	w, h := b.Dx()/f, b.Dy()/f
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	n := uint32(f * f)
	src, fast := img.(*image.RGBA)
	if !fast {
		if nr, ok := img.(*image.NRGBA); ok {
			// Screenshots are opaque: NRGBA and RGBA pixels are equal.
			src, fast = &image.RGBA{Pix: nr.Pix, Stride: nr.Stride, Rect: nr.Rect}, true
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var r, g, bl, a uint32
			for dy := 0; dy < f; dy++ {
				sy := b.Min.Y + y*f + dy
				if fast {
					i := src.PixOffset(b.Min.X+x*f, sy)
					for dx := 0; dx < f; dx++ {
						p := src.Pix[i+4*dx : i+4*dx+4]
						r, g, bl, a = r+uint32(p[0]), g+uint32(p[1]), bl+uint32(p[2]), a+uint32(p[3])
					}
					continue
				}
				for dx := 0; dx < f; dx++ {
					cr, cg, cb, ca := img.At(b.Min.X+x*f+dx, sy).RGBA()
					r, g, bl, a = r+cr>>8, g+cg>>8, bl+cb>>8, a+ca>>8
				}
			}
			o := out.PixOffset(x, y)
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = uint8(r/n), uint8(g/n), uint8(bl/n), uint8(a/n)
		}
	}
	return out
}
