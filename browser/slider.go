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
// snapRole.js): its box and whether it is vertical.
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

// doSetSlider sets a slider to a.Value: a range input directly, another
// slider with its keys or along its track; it reads the value back.
func (o *op) doSetSlider(a contract.Action) (string, error) {
	// A percentage (of a handle's track) may come with its sign.
	want, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(a.Value), "%"), 64)
	if err != nil {
		return "", contract.ActionErrorf("%q is not a number: give the value to set, e.g. 42", a.Value)
	}
	el, err := o.resolve(a.Ref)
	if err != nil {
		return "", err
	}
	el, st, err := o.slider(el)
	if err != nil {
		return "", err
	}
	if err := checkSliderValue(el, st, want); err != nil {
		return "", err
	}
	s0 := o.b.nav.state()
	if st.Kind == "range" {
		var res struct {
			OK    bool
			Value string
		}
		if err := o.callEl(el, setValueJS, &res, strconv.FormatFloat(want, 'f', -1, 64)); err != nil {
			return "", err
		}
	} else if err := o.moveSlider(el, want, st); err != nil {
		return "", err
	}
	nav, err := o.afterInput(s0, inputGrace)
	if err != nil || nav != "" {
		return "set " + el.desc + nav, err
	}
	if err := o.callEl(el, sliderJS, &st); err != nil {
		return "", err
	}
	return sliderOutcome(el, st, want)
}

// slider returns the slider el stands for, itself or one inside it, and
// its state.
func (o *op) slider(el element) (element, sliderState, error) {
	var st sliderState
	if err := o.callEl(el, sliderJS, &st); err != nil {
		return el, st, err
	}
	if st.Kind != "inner" {
		return el, st, nil
	}
	inner, ok, err := o.childEl(el, sliderInnerJS)
	if err != nil || !ok {
		return el, st, err
	}
	err = o.callEl(inner, sliderJS, &st)
	return inner, st, err
}

// checkSliderValue refuses a value the slider cannot take, and a slider
// that takes none.
func checkSliderValue(el element, st sliderState, want float64) error {
	switch {
	case st.Kind == "no" || st.Kind == "inner":
		return contract.ActionErrorf("%s is not a slider or range input; nothing was changed", el.desc)
	case st.Disabled:
		return contract.ActionErrorf("%s is disabled; nothing was changed", el.desc)
	case st.Kind == "handle" && (want < 0 || want > 100):
		return contract.ActionErrorf("%s takes a percentage of its track, from 0 to 100, not %g; nothing was changed", el.desc, want)
	case want < st.Min || want > st.Max:
		return contract.ActionErrorf("%s takes values from %g to %g, not %g; nothing was changed", el.desc, st.Min, st.Max, want)
	}
	return nil
}

// sliderOutcome says what the slider shows now that it was set to want,
// or that it could not be.
func sliderOutcome(el element, st sliderState, want float64) (string, error) {
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
func (o *op) moveSlider(el element, want float64, st sliderState) error {
	focused, err := o.focusSlider(el, st)
	if err != nil {
		return err
	}
	now, ok, err := o.sliderValue(el)
	if err != nil {
		return err
	}
	if !focused || !ok || math.Abs(now-want) > (st.Max-st.Min)/10 {
		if err := o.dragSlider(el, want, st); err != nil {
			return err
		}
		if focused, err = o.focusSlider(el, st); err != nil {
			return err
		}
	}
	if !focused {
		return nil
	}
	return o.keySlider(el, want, st)
}

// focusSlider gives a slider that takes the focus the focus; it reports
// whether it has it.
func (o *op) focusSlider(el element, st sliderState) (bool, error) {
	focused := false
	if !st.Focusable {
		return false, nil
	}
	err := o.callEl(el, focusElJS, &focused)
	return focused, err
}

// sliderValue reads the value a slider shows; ok is false when it shows
// none.
func (o *op) sliderValue(el element) (now float64, ok bool, err error) {
	var s sliderState
	if err := o.callEl(el, sliderJS, &s); err != nil {
		return 0, false, err
	}
	if s.Now == nil {
		return 0, false, nil
	}
	return *s.Now, true, nil
}

// keySlider presses the focused slider's keys towards want, reading the
// value after each press, until it shows want, the keys do not move it,
// or it steps over want.
func (o *op) keySlider(el element, want float64, st sliderState) error {
	for range maxSliderKeys {
		now, ok, err := o.sliderValue(el)
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
		if err := o.press(chord{key: namedKeys[k]}); err != nil {
			return err
		}
		after, ok, err := o.sliderValue(el)
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
func (o *op) dragSlider(el element, want float64, st sliderState) error {
	box, err := o.elementBox(el)
	if err != nil {
		return err
	}
	var tr *track
	if err := o.callEl(el, trackJS, &tr); err != nil {
		return err
	}
	if tr == nil || len(tr.Box) != 4 || st.Max <= st.Min || el.frame != nil {
		return nil
	}
	from := box.center()
	f := (want - st.Min) / (st.Max - st.Min)
	to := contract.Point{X: tr.Box[0] + f*(tr.Box[2]-tr.Box[0]), Y: from.Y}
	if tr.Vertical {
		to = contract.Point{X: from.X, Y: tr.Box[3] - f*(tr.Box[3]-tr.Box[1])}
	}
	_, err = o.dragMouse(straightMoves(from, to))
	return err
}
