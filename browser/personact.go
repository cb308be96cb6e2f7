package browser

import (
	"context"
	"encoding/json"

	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/contract"
)

// What a person's input acted on, for the record of a takeover (package
// liveview): the control under the pointer or the focused field, named as
// the snapshot names it, and a field's value once the keys acted. Like
// PersonInput, it takes no sem: a live view sends a person's input only
// while the loop is held at a step boundary.

var (
	personTargetJS = program("personTarget")
	personValueJS  = program("personValue")
)

// PersonAct implements contract.PersonRecorder.
func (b *Browser) PersonAct(ctx context.Context, in contract.PersonInput) (contract.PersonTarget, error) {
	var tg contract.PersonTarget
	atPoint, aims := personAims(in)
	if aims {
		tg = b.personTarget(ctx, atPoint, in.X, in.Y)
	}
	if err := b.PersonInput(ctx, in); err != nil {
		return tg, err
	}
	if tg.Field && !atPoint {
		tg.Value, tg.HasValue = b.personValue(ctx)
	}
	return tg, nil
}

// personAims says whether in aims at an element a record names: a press
// of the mouse's main button or a choice in a select (at its point), a
// key or a text (at the focused element).
func personAims(in contract.PersonInput) (atPoint, aims bool) {
	switch in.Kind {
	case contract.InputMouseDown:
		return true, in.Button != "right" && in.Button != "middle"
	case contract.InputSelectOption:
		return true, true
	case contract.InputKeyDown, contract.InputText:
		return false, true
	}
	return false, false
}

// personTarget names the control at (x, y), or the focused element; the
// zero PersonTarget when there is none or the page does not answer (a
// record is never worth refusing a person's input).
func (b *Browser) personTarget(ctx context.Context, atPoint bool, x, y float64) contract.PersonTarget {
	var tg contract.PersonTarget
	t, _ := b.shown.get()
	if t == nil {
		return tg
	}
	res, err := b.evalWorld(ctx, t.target, runtime.EvaluateParams{Expression: jsCall(personTargetJS, x, y, atPoint), ReturnByValue: new(true)})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil {
		return tg
	}
	var got struct {
		Role, Name, Ref, URL string
		Field, Multiline     bool
	}
	if json.Unmarshal(res.Result.Value, &got) != nil {
		return tg
	}
	return contract.PersonTarget{Role: got.Role, Name: got.Name, Ref: got.Ref, URL: got.URL, Field: got.Field, Multiline: got.Multiline}
}

// personValue is the value of the field personTarget named last.
func (b *Browser) personValue(ctx context.Context) (string, bool) {
	t, _ := b.shown.get()
	if t == nil {
		return "", false
	}
	res, err := b.evalWorld(ctx, t.target, runtime.EvaluateParams{Expression: jsCall(personValueJS), ReturnByValue: new(true)})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil {
		return "", false
	}
	var v *string
	if json.Unmarshal(res.Result.Value, &v) != nil || v == nil {
		return "", false
	}
	return *v, true
}

var _ contract.PersonRecorder = (*Browser)(nil)
