package agent

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/outline"
)

// marksNote tells the model what the screenshot of an observation is.
const marksNote = "\n\nThe screenshot shows the viewport with each element's ref drawn on its box (the label at its top-left corner). " +
	"Act by ref, or with mouse at x, y in the screenshot's pixels (CSS pixels of the viewport); the \"In view\" line gives where a click reaches each ref."

// inViewBudget bounds reading where the refs in view are.
const inViewBudget = 5 * time.Second

// refLocator is a browser that can say where the refs in view are and
// where a click reaches each, and how large the view is (package
// browser's InView and Viewport).
type refLocator interface {
	InView(ctx context.Context) ([]contract.RefInView, error)
	Viewport() (width, height int)
}

// markedViewer is a browser that gives the marked screenshot and the
// refs in view from one reading (package browser's MarkedView), so the
// picture and the in-view line agree.
type markedViewer interface {
	MarkedView(ctx context.Context) ([]byte, []contract.RefInView, error)
}

// observationMessage is the observation's message, with the marked
// screenshot under vision marks. A model that answers in coordinates
// (vision marks, a vendor's computer tool) is also told where each ref in
// view is on the screen (outline.InViewLine): what ties the outline's
// names to the screenshot's pixels. A screenshot or a reading that fails
// leaves the observation as text: the snapshot is enough to act on.
func (r *run) observationMessage(ctx context.Context, text string) contract.Message {
	obs := contract.Message{Role: contract.RoleUser, Content: text}
	computer := r.tools.native != nil && r.tools.native.Kind == contract.NativeComputer
	var shot []byte
	var err error
	switch mv, both := r.a.browser.(markedViewer); {
	case r.a.cfg.visionMarks && both:
		var refs []contract.RefInView
		if shot, refs, err = mv.MarkedView(ctx); err == nil {
			obs.Content += r.inViewText(refs)
		}
	case r.a.cfg.visionMarks:
		obs.Content += r.inViewLine(ctx)
		shot, err = r.a.browser.(contract.MarkedScreenshotter).ScreenshotMarked(ctx)
	case computer:
		obs.Content += r.inViewLine(ctx)
	}
	if err != nil {
		if ctx.Err() == nil {
			r.a.cfg.logger.Warn("vision marks: no screenshot for this observation", "err", err)
		}
		return obs
	}
	if shot != nil {
		// The note last: the history drops it with the picture once it
		// has been shown (dropScreenshots), and keeps the in-view line.
		obs.Images = [][]byte{shot}
		obs.Content += marksNote
	}
	return obs
}

// inViewLine is the in-view line of the page as it is now, after a blank
// line; "" when the browser cannot tell or nothing with a ref is in view.
func (r *run) inViewLine(ctx context.Context) string {
	loc, ok := r.a.browser.(refLocator)
	if !ok {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, inViewBudget)
	defer cancel()
	refs, err := loc.InView(ctx)
	if err != nil {
		if ctx.Err() == nil {
			r.a.cfg.logger.Warn("where the refs are on the screen could not be read", "err", err)
		}
		return ""
	}
	return r.inViewText(refs)
}

// inViewText is the in-view line of refs, after a blank line; "" when no
// ref is in view or the browser cannot say the view's size.
func (r *run) inViewText(refs []contract.RefInView) string {
	loc, ok := r.a.browser.(refLocator)
	if !ok {
		return ""
	}
	spots := make([]outline.Spot, len(refs))
	for i, v := range refs {
		spots[i] = outline.Spot{Ref: v.Ref, X: int(math.Round(v.At.X)), Y: int(math.Round(v.At.Y)), Covered: v.Covered}
	}
	w, h := loc.Viewport()
	if line := outline.InViewLine(w, h, spots); line != "" {
		return "\n\n" + line
	}
	return ""
}

// typeAtFocus offers, under vision marks, a type tool whose ref may be
// left out: the text goes where the focus is, as coordinate dialects type
// after a click at x, y (UI-TARS' type(content=...)). The focused field's
// origin decides where a secret may go, as for a vendor's computer tool.
func (ts *toolset) typeAtFocus() {
	t, ok := ts.byName[contract.ActType]
	if !ok {
		return
	}
	relaxed := *t
	relaxed.required = slices.DeleteFunc(slices.Clone(t.required), func(n string) bool { return n == "ref" })
	relaxed.props = slices.Clone(t.props)
	for i, p := range relaxed.props {
		if p.name == "ref" {
			relaxed.props[i].desc = "the field's ref from the latest snapshot, e.g. e12; without it, the text goes to the focused field (click it first)"
		}
	}
	ts.byName[t.name] = &relaxed
	for i := range ts.defs {
		if ts.defs[i].Name == t.name {
			ts.defs[i] = relaxed.def()
		}
	}
}
