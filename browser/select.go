package browser

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/webagent/webagent/contract"
)

// The select action: a native <select> takes its option directly (its own
// input and change events fire); in an ARIA widget, a listbox holds its
// options, and a combobox opens a popup listbox when clicked, or filters
// one as the user types.

// selectJS picks an option of a native select by label or value.
var selectJS = program("select")

// doSelect picks a.Option of a native select, or of an ARIA listbox or
// combobox (selectARIA), and reads the choice back.
func (o *op) doSelect(a contract.Action) (string, error) {
	ref, option := a.Ref, a.Option
	b := o.b
	el, err := o.resolve(ref)
	if err != nil {
		return "", err
	}
	var res struct {
		Error, Chosen string
		Options       []string
	}
	s0 := b.nav.state()
	if err := o.callEl(el, selectJS, &res, option); err != nil {
		return "", err
	}
	switch res.Error {
	case "":
	case "notselect":
		return o.selectARIA(el, option)
	case "disabled":
		return "", contract.ActionErrorf("%s is disabled", el.desc)
	case "optdisabled":
		return "", contract.ActionErrorf("option %q of %s is disabled", res.Chosen, el.desc)
	default:
		return "", contract.ActionErrorf("%s has no option %q; %s", el.desc, option, optionsHint(el, []string{option}, res.Options, false))
	}
	nav, err := o.afterInput(s0, inputGrace)
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("selected %s in %s", strconv.Quote(res.Chosen), el.desc)
	if nav != "" {
		return out + nav, nil
	}
	// Read the choice back: a change handler may have altered it.
	var chosen []string
	if err := o.callEl(el, chosenJS, &chosen); err != nil {
		return "", err
	}
	switch {
	case len(chosen) == 1 && chosen[0] == res.Chosen:
		return out, nil
	case len(chosen) == 0:
		return out + "; but now nothing is chosen (the page changed it)", nil
	case !slices.Contains(chosen, res.Chosen):
		return out + "; but the page changed it: it shows " + quoteAll(chosen), nil
	}
	return out + "; chosen now " + quoteAll(chosen), nil
}

// ariaKindJS tells what kind of select-like widget the element is.
var ariaKindJS = program("ariaKind")

// ariaOptionsJS finds the options that belong to an ARIA widget: in the
// listbox itself, in the popups named by aria-controls and aria-owns (also
// of a descendant), else every visible option of the page. With want set
// it returns the option whose name matches best (exactly, ignoring case,
// by prefix, then by substring), or null; with listNames, the visible
// options' names.
var ariaOptionsJS = program("ariaOptions")

// waitOptionJS waits up to about 1.5 s (a popup opening, suggestions
// fetched after typing) for an option matching want to be shown.
var waitOptionJS = program("waitOption")

// selectedJS reports what the widget shows as chosen after the click.
var selectedJS = program("selected")

// selectARIA picks an option of an ARIA listbox or combobox: it opens a
// combobox's popup (typing the option into an editable one) and clicks
// the option.
func (o *op) selectARIA(el element, option string) (string, error) {
	var kind struct {
		Kind     string
		Editable bool
	}
	if err := o.callEl(el, ariaKindJS, &kind); err != nil {
		return "", err
	}
	switch kind.Kind {
	case "listbox", "combobox":
	case "option":
		return "", contract.ActionErrorf("%s is an option: click it, or give select the ref of its listbox or combobox", el.desc)
	default:
		return "", contract.ActionErrorf("%s is not a select, listbox or combobox: click it, then click the option you want", el.desc)
	}
	opt, found, err := o.findOption(el, option)
	if err != nil {
		return "", err
	}
	prefix := ""
	if !found && kind.Kind == "combobox" {
		// Open the popup: type into an editable combobox, else click it.
		if kind.Editable {
			// Key by key: a combobox filters its options as keys arrive.
			if err := o.fill(el, option, true); err != nil {
				return "", err
			}
			prefix = fmt.Sprintf("typed %s into %s and ", strconv.Quote(option), el.desc)
		} else {
			nav, err := o.clickElement(el, "click on")
			if err != nil {
				return "", err
			}
			if nav != "" {
				return "clicked " + el.desc + nav, nil
			}
		}
		var shown bool
		if err := o.callEl(el, waitOptionJS, &shown, option); err != nil {
			return "", err
		}
		if opt, found, err = o.findOption(el, option); err != nil {
			return "", err
		}
	}
	if !found {
		var names []string
		if err := o.callEl(el, ariaOptionsJS, &names, "", true); err != nil {
			return "", err
		}
		if len(names) == 0 {
			return "", contract.ActionErrorf("%sno option %q of %s is shown, and it shows no options; take a new snapshot", prefix, option, el.desc)
		}
		return "", contract.ActionErrorf("%s%s has no option %q; %s", prefix, el.desc, option, optionsHint(el, []string{option}, names, true))
	}
	oel := opt
	if err := o.callEl(oel, describeJS, &oel.desc); err != nil {
		return "", err
	}
	nav, err := o.clickElement(oel, "click on")
	if err != nil {
		return "", err
	}
	var shown string
	if nav == "" {
		// The widget's element is still there: say what it shows now.
		_ = o.callEl(el, selectedJS, &shown)
	}
	out := fmt.Sprintf("%sclicked %s in %s", prefix, oel.desc, el.desc)
	if shown != "" {
		out += fmt.Sprintf("; it shows %s", strconv.Quote(shown))
	}
	return out + nav, nil
}

// findOption returns the shown option of el that matches want; ok is
// false when none does.
func (o *op) findOption(el element, want string) (opt element, ok bool, err error) {
	return o.childEl(el, ariaOptionsJS, want, false)
}
