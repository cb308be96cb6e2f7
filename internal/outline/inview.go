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
//	In view (ref x,y: where a click reaches it, in the screenshot's pixels): e1 175,115; e4 300,40; e9 covered
//
// A ref whose point is under another element (a dialog, a banner) is
// "covered": no click on the screen reaches it until that is gone.

// InViewHeader starts the in-view line.
const InViewHeader = "In view (ref x,y: where a click reaches it, in the screenshot's pixels):"

// Spot is a ref in view: where a click reaches it, in whole pixels, or
// Covered.
type Spot struct {
	Ref     string
	X, Y    int
	Covered bool
}

// InViewLine writes the in-view line of spots; "" when there are none.
func InViewLine(spots []Spot) string {
	if len(spots) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(InViewHeader)
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
	i := strings.Index(text, InViewHeader)
	if i < 0 {
		return text, nil
	}
	line, after, _ := strings.Cut(text[i+len(InViewHeader):], "\n")
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

func cond(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}
