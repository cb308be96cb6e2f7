package browser

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"github.com/webagent/webagent/contract"
)

// What the vendors' computer tools need beyond the page tools (--tools
// native): typing where the focus is, a screenshot whose pixels are the
// viewport's CSS pixels, a zoomed part of it, and the viewport's size.

// focusedFieldJS describes the focused element: its name, its document's
// origin, whether it takes text.
var focusedFieldJS = program("focusedField")

// setFocusedPickerJS sets the value of a focused date, time or colour
// input as its picker would: such an input takes its value in a fixed
// format, not keystrokes, when typed into by ref or where the focus is.
var setFocusedPickerJS = program("setFocusedPicker")

type focusedField struct {
	Desc     string `json:"desc"`
	Origin   string `json:"origin"`
	Editable bool   `json:"editable"`
	Frame    bool   `json:"frame"`
}

// typeFocused types a.Text where the focus is, without clearing the
// field first (a computer tool's type). A secret goes only into a field
// whose document is on one of its origins (a.Origins), as with a ref. A
// focused date, time or colour input takes the text as its value, as
// typing by ref does.
func (o *op) typeFocused(a contract.Action) (string, error) {
	var f focusedField
	if err := o.evalValue(jsCall(focusedFieldJS), &f); err != nil {
		return "", err
	}
	where := f.Desc
	if where == "" {
		where = "the page (nothing is focused)"
	}
	if a.Origins != nil {
		origin := strings.ToLower(f.Origin)
		switch {
		case f.Desc == "":
			return "", contract.ActionErrorf("the secret %s must be typed into a field, and nothing is focused; click the field first, so nothing was typed",
				strings.Join(a.SecretNames, ", "))
		case !slices.Contains(a.Origins, origin):
			return "", contract.ActionErrorf("the secret %s may only be typed on %s; the focused %s is on %s, so nothing was typed",
				strings.Join(a.SecretNames, ", "), strings.Join(a.Origins, ", "), where, cmpOr(origin, "an unknown origin"))
		}
	}
	var picked *struct{ OK bool }
	if f.Desc != "" && a.Origins == nil {
		if err := o.evalValue(jsCall(setFocusedPickerJS, a.Text), &picked); err != nil {
			return "", err
		}
	}
	if picked != nil && !picked.OK {
		return "", contract.ActionErrorf("%s does not accept %q: it takes its value in a fixed format (a date as YYYY-MM-DD, a time as HH:MM, a colour as #rrggbb)", where, a.Text)
	}
	did := ""
	if picked == nil {
		var err error
		if did, err = o.sendInput(func() error { return o.typeText(a.Text) }); err != nil {
			return "", err
		}
	}
	typed := strconv.Quote(a.Text)
	if a.Origins != nil {
		typed = fmt.Sprintf("%d characters", len([]rune(a.Text)))
	}
	out := fmt.Sprintf("typed %s into %s", typed, where)
	if f.Desc != "" && !f.Editable {
		out += " (which is not a text field: the keys went to it as presses)"
	}
	if a.Submit {
		did2, err := o.sendInput(func() error { return o.press(chord{key: namedKeys["enter"]}) })
		if err != nil {
			return "", err
		}
		return out + did + "; then pressed Enter" + did2, nil
	}
	return out + did, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Viewport returns the viewport's size in CSS pixels, as set by
// Options.Width and Height (or the default): the display a computer tool
// declares.
func (b *Browser) Viewport() (width, height int) { return b.width, b.height }

// ScreenshotCSS captures the visual viewport as a PNG whose pixels are its
// CSS pixels, whatever the device's scale: a vendor's computer tool reads
// coordinates off it. With a region (x0, y0, x1, y1 in CSS pixels of the
// viewport) it captures that part, scaled to fill width x height at most
// (zoom).
func (b *Browser) ScreenshotCSS(ctx context.Context, region []float64, width, height int) ([]byte, error) {
	return b.capture(ctx, func(o *op) ([]byte, error) {
		lm, err := cdp.Call(o.ctx, b.target, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		clip := page.Viewport{Width: float64(b.width), Height: float64(b.height), Scale: 1}
		if v := lm.CSSVisualViewport; v != nil && v.ClientWidth > 0 {
			clip.X, clip.Y, clip.Width, clip.Height = v.PageX, v.PageY, v.ClientWidth, v.ClientHeight
		}
		if len(region) == 4 {
			x0, y0 := max(region[0], 0), max(region[1], 0)
			x1, y1 := min(region[2], clip.Width), min(region[3], clip.Height)
			if x1-x0 < 1 || y1-y0 < 1 {
				return nil, contract.ActionErrorf("the region (%g, %g, %g, %g) holds no pixel of the %gx%g screen",
					region[0], region[1], region[2], region[3], clip.Width, clip.Height)
			}
			clip.X, clip.Y, clip.Width, clip.Height = clip.X+x0, clip.Y+y0, x1-x0, y1-y0
			if width > 0 && height > 0 {
				clip.Scale = math.Min(float64(width)/clip.Width, float64(height)/clip.Height)
			}
		}
		res, err := cdp.Call(o.ctx, b.target, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatPng, Clip: &clip,
		})
		if err != nil {
			return nil, err
		}
		return res.Data, nil
	})
}

// TabStates describes the tabs, in the order they were opened (those the
// pages opened taken in): each one's id, title and address, the current
// one marked. A browser tool's result reports them.
func (b *Browser) TabStates(ctx context.Context) ([]contract.TabState, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer o.end()
	if err := b.adoptOpened(o.ctx); err != nil {
		return nil, o.fail("listing the tabs", err)
	}
	var out []contract.TabState
	for _, t := range b.tabs {
		s := contract.TabState{ID: t.id, URL: t.nav.state().url, Active: t == b.cur}
		if info, err := cdp.Call(o.ctx, b.sess.browser, target.GetTargetInfo, target.GetTargetInfoParams{TargetID: t.target.TargetID}); err == nil && info.TargetInfo != nil {
			s.URL, s.Title = info.TargetInfo.URL, info.TargetInfo.Title
		}
		out = append(out, s)
	}
	return out, nil
}
