package browser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/input"

	"github.com/webagent/webagent/contract"
)

// Multi-select: options are added to or removed from a <select multiple>
// without touching the others.

// multiSelectJS finds every option asked for first, and changes nothing
// unless all are found and enabled; then it sets them and fires input and
// change once.
var multiSelectJS = program("multiSelect")

// chosenJS lists the labels of the chosen options of a select.
var chosenJS = program("chosen")

// quoteAll quotes each of list and joins them with commas.
func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// doMultiSelect adds a.Options to, and removes a.Remove from, the choice
// of a multiple select, or of an ARIA listbox with several choices.
func (o *op) doMultiSelect(a contract.Action) (string, error) {
	ref, add, remove := a.Ref, a.Options, a.Remove
	b := o.b
	el, err := o.resolve(ref)
	if err != nil {
		return "", err
	}
	var res struct {
		Error            string
		Missing, Options []string
		Chosen           []string
		Changed          bool
	}
	s0 := b.nav.state()
	if err := o.callEl(el, multiSelectJS, &res, add, remove); err != nil {
		return "", err
	}
	switch res.Error {
	case "":
	case "notselect":
		return o.multiSelectARIA(el, add, remove)
	case "single":
		return "", contract.ActionErrorf("%s allows one choice only (it has %s chosen); use select; %s", el.desc, quoteAll(res.Chosen), optionsHint(el, add, res.Options, false))
	case "disabled":
		return "", contract.ActionErrorf("%s is disabled; nothing was changed", el.desc)
	case "optdisabled":
		return "", contract.ActionErrorf("options %s of %s are disabled; nothing was changed", quoteAll(res.Missing), el.desc)
	default:
		return "", contract.ActionErrorf("%s has no option %s; nothing was changed; %s", el.desc, quoteAll(res.Missing), optionsHint(el, res.Missing, res.Options, false))
	}
	nav, err := o.afterInput(s0, inputGrace)
	if err != nil {
		return "", err
	}
	if nav != "" {
		return "changed the choice of " + el.desc + nav, nil
	}
	// Read the choice back: a change handler may have altered it.
	var chosen []string
	if err := o.callEl(el, chosenJS, &chosen); err != nil {
		return "", err
	}
	verb := "changed"
	if !res.Changed {
		verb = "left unchanged (already so)"
	}
	what := "nothing"
	if len(chosen) > 0 {
		what = quoteAll(chosen)
	}
	return fmt.Sprintf("%s the choice of %s: chosen now %s", verb, el.desc, what), nil
}

// ariaMultiJS tells whether the element is an ARIA listbox that allows
// several choices.
var ariaMultiJS = program("ariaMulti")

// optionStateJS reports whether an ARIA option is chosen, and its name.
var optionStateJS = program("optionState")

// ariaChosenJS lists the names of the chosen options of a listbox.
var ariaChosenJS = program("ariaChosen")

// multiSelectARIA adds and removes options of an ARIA listbox that allows
// several choices by clicking those whose state must change (with Control
// held, as such listboxes expect), after finding all of them.
func (o *op) multiSelectARIA(el element, add, remove []string) (string, error) {
	var multi bool
	if err := o.callEl(el, ariaMultiJS, &multi); err != nil {
		return "", err
	}
	if !multi {
		return "", contract.ActionErrorf("%s is not a select or listbox that allows several choices; use select, or click the options", el.desc)
	}
	type step struct {
		opt  element
		want bool
	}
	var plan []step
	var missing []string
	for _, list := range []struct {
		names []string
		want  bool
	}{{add, true}, {remove, false}} {
		for _, name := range list.names {
			opt, ok, err := o.findOption(el, name)
			if err != nil {
				return "", err
			}
			if !ok {
				missing = append(missing, name)
				continue
			}
			plan = append(plan, step{opt, list.want})
		}
	}
	if len(missing) > 0 {
		var names []string
		if err := o.callEl(el, ariaOptionsJS, &names, "", true); err != nil {
			return "", err
		}
		return "", contract.ActionErrorf("%s has no option %s; nothing was changed; %s", el.desc, quoteAll(missing), optionsHint(el, missing, names, true))
	}
	changed := false
	for _, st := range plan {
		var cur struct {
			Selected bool
			Name     string
		}
		if err := o.callEl(st.opt, optionStateJS, &cur); err != nil {
			return "", err
		}
		if cur.Selected == st.want {
			continue
		}
		st.opt.desc = "option " + strconv.Quote(cur.Name)
		at, err := o.aim(st.opt, "click on", true)
		if err != nil {
			return "", err
		}
		ctrl, _ := parseChord("Control")
		if err := o.keyEvent(input.DispatchKeyEventTypeRawKeyDown, ctrl.key, modCtrl); err != nil {
			return "", err
		}
		err = o.clickWith(at, modCtrl)
		if uerr := o.keyEvent(input.DispatchKeyEventTypeKeyUp, ctrl.key, 0); err == nil {
			err = uerr
		}
		if err != nil {
			return "", err
		}
		changed = true
	}
	var chosen []string
	if err := o.callEl(el, ariaChosenJS, &chosen); err != nil {
		return "", err
	}
	verb := "changed"
	if !changed {
		verb = "left unchanged (already so)"
	}
	what := "nothing"
	if len(chosen) > 0 {
		what = quoteAll(chosen)
	}
	return fmt.Sprintf("%s the choice of %s: chosen now %s", verb, el.desc, what), nil
}
