package outline

import (
	"fmt"
	"strconv"
	"strings"
)

// A model that answers in coordinates (a vendor's computer tool, an
// open-weight vision model under set-of-mark) reads the page's outline and
// a screenshot; the in-view line ties the two together: each ref shown in
// the viewport with the point where a click reaches it, in the
// screenshot's pixels.
//
//	In view on the 1280x900 screen (ref x,y: where a click reaches it, in the screenshot's pixels): e1 175,115; e4 300,40; e9 covered
//
// A ref whose point is under another element (a dialog, a banner) is
// "covered": no click on the screen reaches it until that is gone.

// inViewStart and inViewEnd frame the in-view line's header, around the
// screen's size.
const (
	inViewStart = "In view on the "
	inViewEnd   = " screen (ref x,y: where a click reaches it, in the screenshot's pixels):"
)

// Spot is a ref in view: where a click reaches it, in whole pixels, or
// Covered.
type Spot struct {
	Ref     string
	X, Y    int
	Covered bool
}

// InViewLine writes the in-view line of spots on a screen (the viewport)
// of w by h pixels; "" when there are none.
func InViewLine(w, h int, spots []Spot) string {
	if len(spots) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%dx%d%s", inViewStart, w, h, inViewEnd)
	for i, s := range spots {
		if i > 0 {
			b.WriteByte(';')
		}
		if s.Covered {
			fmt.Fprintf(&b, " %s covered", s.Ref)
			continue
		}
		fmt.Fprintf(&b, " %s %d,%d", s.Ref, s.X, s.Y)
	}
	return b.String()
}

// CutInView finds the in-view line in an observation: the text without
// it, and its spots by ref (nil when it has none).
func CutInView(text string) (rest string, spots map[string]Spot) {
	i, j := inViewHeader(text)
	if i < 0 {
		return text, nil
	}
	line, after, _ := strings.Cut(text[j:], "\n")
	spots = map[string]Spot{}
	for item := range strings.SplitSeq(line, ";") {
		f := strings.Fields(item)
		if len(f) != 2 {
			continue
		}
		s := Spot{Ref: f[0], Covered: f[1] == "covered"}
		if !s.Covered {
			xs, ys, ok := strings.Cut(f[1], ",")
			x, err1 := strconv.Atoi(xs)
			y, err2 := strconv.Atoi(ys)
			if !ok || err1 != nil || err2 != nil {
				continue
			}
			s.X, s.Y = x, y
		}
		spots[s.Ref] = s
	}
	return strings.TrimRight(text[:i], "\n") + cond(after != "", "\n"+after), spots
}

// InViewScreen is the screen's size the in-view line gives; 0, 0 without
// one.
func InViewScreen(text string) (w, h int) {
	i, j := inViewHeader(text)
	if i < 0 {
		return 0, 0
	}
	size := text[i+len(inViewStart) : j-len(inViewEnd)]
	if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil {
		return 0, 0
	}
	return w, h
}

// inViewHeader finds the in-view line's header: where it starts and where
// the spots after it start; -1 without one.
func inViewHeader(text string) (start, end int) {
	for off := 0; ; {
		i := strings.Index(text[off:], inViewStart)
		if i < 0 {
			return -1, -1
		}
		i += off
		line, _, _ := strings.Cut(text[i:], "\n")
		if k := strings.Index(line, inViewEnd); k > 0 {
			return i, i + k + len(inViewEnd)
		}
		off = i + len(inViewStart)
	}
}

func cond(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}
