package browser

import (
	"fmt"
	"strconv"

	"github.com/webagent/webagent/contract"
)

// checkStateJS describes a checkable control: its kind, whether it is
// checked, and whether the element itself can be clicked (a hidden styled
// input cannot; its label is clicked instead).
var checkStateJS = program("checkState")

// clickTargetJS returns what to click to toggle a checkbox: the element
// itself when it is shown, else its first shown label.
var clickTargetJS = program("clickTarget")

// waitCheckedJS waits a few frames for the control's checked state to be
// want (a framework may update it after the click).
var waitCheckedJS = program("waitChecked")

// doCheck checks (check) or unchecks (uncheck) a checkbox, radio button or
// switch, unless it is already so.
func (o *op) doCheck(a contract.Action) (string, error) {
	ref, want := a.Ref, a.Name == contract.ActCheck
	el, err := o.resolve(ref)
	if err != nil {
		return "", err
	}
	var st struct {
		Kind, Checked       string
		Disabled, Clickable bool
	}
	if err := o.callEl(el, checkStateJS, &st); err != nil {
		return "", err
	}
	verb, state := "check", "checked"
	if !want {
		verb, state = "uncheck", "not checked"
	}
	switch {
	case st.Kind == "":
		return "", contract.ActionErrorf("%s is not a checkbox, radio button or switch; click it instead", el.desc)
	case st.Checked == strconv.FormatBool(want):
		return fmt.Sprintf("%s is already %s", el.desc, state), nil
	case !want && st.Kind == "radio":
		return "", contract.ActionErrorf("%s is a radio button: it cannot be unchecked; check another option of its group", el.desc)
	case st.Disabled:
		return "", contract.ActionErrorf("%s is disabled, so it cannot be %s", el.desc, map[bool]string{true: "checked", false: "unchecked"}[want])
	case !st.Clickable:
		return "", contract.ActionErrorf("%s is not visible, and no visible label stands for it; take a new snapshot", el.desc)
	}
	target, ok, err := o.childEl(el, clickTargetJS)
	if err != nil {
		return "", err
	}
	if !ok {
		target = el
	}
	nav, err := o.clickElement(target, verb+"ing")
	if err != nil {
		return "", err
	}
	if nav != "" {
		return fmt.Sprintf("clicked %s to %s it%s", el.desc, verb, nav), nil
	}
	var done bool
	if err := o.callEl(el, waitCheckedJS, &done, strconv.FormatBool(want)); err != nil {
		return "", err
	}
	if !done {
		return "", contract.ActionErrorf("clicked %s, but it is still not %s; take a new snapshot to see why", el.desc, map[bool]string{true: "checked", false: "unchecked"}[want])
	}
	return fmt.Sprintf("%sed %s", verb, el.desc), nil
}
