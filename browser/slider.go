package browser

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Sliders: a native range input takes its value directly (its own input
// and change events fire); an ARIA slider is moved with the keys it
// handles, else dragged along its track, and the value it shows is read
// back. A handle without ARIA (a jQuery UI slider's, which the snapshot
// shows as a slider handle at a percentage of its track) is set in percent
// of its track the same way: dragged, then moved with the keys it takes.

// sliderJS describes a slider: its kind, bounds and current value.
var sliderJS = program("slider")

// sliderInnerJS returns the slider inside an element.
var sliderInnerJS = program("sliderInner")

// focusElJS focuses an element without the mouse.
var focusElJS = program("focusEl")

// trackJS returns the track a slider's thumb moves along (see trackOf in
// snapshot.js): its box and whether it is vertical.
var trackJS = program("track")

// track is the answer of trackJS.
type track struct {
	Box      []float64
	Vertical bool
}

type sliderState struct {
	Kind           string
	Min, Max, Step float64
	Now            *float64
	Text           string
	Disabled       bool
	Focusable      bool
}

func (b *Browser) doSetSlider(o *op, ref, value string) (string, error) {
	// A percentage (of a handle's track) may come with its sign.
	want, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), "%"), 64)
	if err != nil {
		return "", contract.ActionErrorf("%q is not a number: give the value to set, e.g. 42", value)
	}
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	var st sliderState
	if err := b.callEl(o, el, sliderJS, &st); err != nil {
		return "", err
	}
	if st.Kind == "inner" {
		inner, ok, err := b.childEl(o, el, sliderInnerJS)
		if err != nil {
			return "", err
		}
		if ok {
			el = inner
			if err := b.callEl(o, el, sliderJS, &st); err != nil {
				return "", err
			}
		}
	}
	switch {
	case st.Kind == "no" || st.Kind == "inner":
		return "", contract.ActionErrorf("%s is not a slider or range input; nothing was changed", el.desc)
	case st.Disabled:
		return "", contract.ActionErrorf("%s is disabled; nothing was changed", el.desc)
	case st.Kind == "handle" && (want < 0 || want > 100):
		return "", contract.ActionErrorf("%s takes a percentage of its track, from 0 to 100, not %g; nothing was changed", el.desc, want)
	case want < st.Min || want > st.Max:
		return "", contract.ActionErrorf("%s takes values from %g to %g, not %g; nothing was changed", el.desc, st.Min, st.Max, want)
	}
	s0 := b.nav.state()
	if st.Kind == "range" {
		var res struct {
			OK    bool
			Value string
		}
		if err := b.callEl(o, el, setValueJS, &res, strconv.FormatFloat(want, 'f', -1, 64)); err != nil {
			return "", err
		}
	} else if err := b.moveSlider(o, el, want, st); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil || nav != "" {
		return "set " + el.desc + nav, err
	}
	if err := b.callEl(o, el, sliderJS, &st); err != nil {
		return "", err
	}
	unit := ""
	if st.Kind == "handle" {
		unit = "% of its track"
	}
	if st.Now == nil || math.Abs(*st.Now-want) > sliderTolerance(st) {
		shown := "no value"
		if st.Now != nil {
			shown = strconv.FormatFloat(*st.Now, 'f', -1, 64) + unit
		}
		return "", contract.ActionErrorf("could not set %s to %g%s: it shows %s (the nearest value it accepts with its keys and track)", el.desc, want, unit, shown)
	}
	out := fmt.Sprintf("set %s to %g%s", el.desc, want, unit)
	if st.Kind == "handle" {
		return out, nil
	}
	if st.Text != "" && st.Text != strconv.FormatFloat(want, 'f', -1, 64) {
		out += fmt.Sprintf("; it shows %s", strconv.Quote(st.Text))
	}
	return out, nil
}

// sliderTolerance is how far the value read back may be from the one
// asked for: none for a value the page states; a handle's position, read
// in whole percent of its track, may be off by one.
func sliderTolerance(st sliderState) float64 {
	if st.Kind == "handle" {
		return 1
	}
	return 1e-9
}

// maxSliderKeys bounds the key presses that move one slider.
const maxSliderKeys = 400

// moveSlider moves an ARIA slider towards want: a drag along its track
// when it is far or takes no keys, then arrow keys, reading the value after
// each press.
func (b *Browser) moveSlider(o *op, el element, want float64, st sliderState) error {
	read := func() (float64, bool, error) {
		var s sliderState
		if err := b.callEl(o, el, sliderJS, &s); err != nil {
			return 0, false, err
		}
		if s.Now == nil {
			return 0, false, nil
		}
		return *s.Now, true, nil
	}
	focused := false
	if st.Focusable {
		if err := b.callEl(o, el, focusElJS, &focused); err != nil {
			return err
		}
	}
	now, ok, err := read()
	if err != nil {
		return err
	}
	if !focused || !ok || math.Abs(now-want) > (st.Max-st.Min)/10 {
		if err := b.dragSlider(o, el, want, st); err != nil {
			return err
		}
		if st.Focusable {
			if err := b.callEl(o, el, focusElJS, &focused); err != nil {
				return err
			}
		}
	}
	if !focused {
		return nil
	}
	for i := 0; i < maxSliderKeys; i++ {
		now, ok, err := read()
		if err != nil || !ok || math.Abs(now-want) < sliderTolerance(st)/2 {
			return err
		}
		k := "arrowright"
		switch {
		case want == st.Min:
			k = "home"
		case want == st.Max:
			k = "end"
		case now > want:
			k = "arrowleft"
		}
		if err := b.press(o.ctx, chord{key: namedKeys[k]}); err != nil {
			return err
		}
		after, ok, err := read()
		if err != nil || !ok {
			return err
		}
		if after == now || (now < want) != (after < want) && math.Abs(after-want) > 1e-9 {
			return nil // the keys do not move it, or it stepped over want
		}
	}
	return nil
}

// dragSlider drags a slider's thumb to where want lies on its track: from
// the left, or from the bottom of a vertical track.
func (b *Browser) dragSlider(o *op, el element, want float64, st sliderState) error {
	box, err := b.elementBox(o, el)
	if err != nil {
		return err
	}
	var tr *track
	if err := b.callEl(o, el, trackJS, &tr); err != nil {
		return err
	}
	if tr == nil || len(tr.Box) != 4 || st.Max <= st.Min || el.frame != nil {
		return nil
	}
	sx, sy := (box[0]+box[2])/2, (box[1]+box[3])/2
	f := (want - st.Min) / (st.Max - st.Min)
	if tr.Vertical {
		_, err = b.dragMouse(o, straightMoves(sx, sy, sx, tr.Box[3]-f*(tr.Box[3]-tr.Box[1])))
		return err
	}
	_, err = b.dragMouse(o, straightMoves(sx, sy, tr.Box[0]+f*(tr.Box[2]-tr.Box[0]), sy))
	return err
}
