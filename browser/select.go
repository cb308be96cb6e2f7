package browser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/webagent/webagent/contract"
)

// Selecting in ARIA widgets: a listbox holds its options; a combobox opens
// a popup listbox when clicked, or filters one as the user types.

// ariaKindJS tells what kind of select-like widget the element is.
var ariaKindJS = program("ariaKind")

// optionsJS finds the options that belong to the widget: in the listbox
// itself, in the popups named by aria-controls and aria-owns (also of a
// descendant), else every visible option of the page. With want set it
// returns the option whose name matches best (exactly, ignoring case, by
// prefix, then by substring), or null; without it, the visible options'
// names.
var optionsJS = program("options")

// waitOptionJS waits up to about 1.5 s (a popup opening, suggestions
// fetched after typing) for an option matching want to be shown.
var waitOptionJS = program("waitOption")

// selectedJS reports what the widget shows as chosen after the click.
var selectedJS = program("selected")

func (b *Browser) selectARIA(o *op, el element, option string) (string, error) {
	var kind struct {
		Kind     string
		Editable bool
	}
	if err := b.callEl(o, el, ariaKindJS, &kind); err != nil {
		return "", err
	}
	switch kind.Kind {
	case "listbox", "combobox":
	case "option":
		return "", contract.ActionErrorf("%s is an option: click it, or give select the ref of its listbox or combobox", el.desc)
	default:
		return "", contract.ActionErrorf("%s is not a select, listbox or combobox: click it, then click the option you want", el.desc)
	}
	opt, found, err := b.findOption(o, el, option)
	if err != nil {
		return "", err
	}
	prefix := ""
	if !found && kind.Kind == "combobox" {
		// Open the popup: type into an editable combobox, else click it.
		if kind.Editable {
			// Key by key: a combobox filters its options as keys arrive.
			if err := b.fill(o, el, option, true); err != nil {
				return "", err
			}
			prefix = fmt.Sprintf("typed %s into %s and ", strconv.Quote(option), el.desc)
		} else {
			nav, err := b.clickElement(o, el, "click on")
			if err != nil {
				return "", err
			}
			if nav != "" {
				return "clicked " + el.desc + nav, nil
			}
		}
		var shown bool
		if err := b.callEl(o, el, waitOptionJS, &shown, option); err != nil {
			return "", err
		}
		if opt, found, err = b.findOption(o, el, option); err != nil {
			return "", err
		}
	}
	if !found {
		var names []string
		if err := b.callEl(o, el, optionsJS, &names, "", true); err != nil {
			return "", err
		}
		if len(names) == 0 {
			return "", contract.ActionErrorf("%sno option %q of %s is shown, and it shows no options; take a new snapshot", prefix, option, el.desc)
		}
		quoted := make([]string, len(names))
		for i, s := range names {
			quoted[i] = strconv.Quote(s)
		}
		return "", contract.ActionErrorf("%s%s has no option %q; the options shown are %s", prefix, el.desc, option, strings.Join(quoted, ", "))
	}
	oel := opt
	if err := b.callEl(o, oel, describeJS, &oel.desc); err != nil {
		return "", err
	}
	nav, err := b.clickElement(o, oel, "click on")
	if err != nil {
		return "", err
	}
	var shown string
	if nav == "" {
		// The widget's element is still there: say what it shows now.
		_ = b.callEl(o, el, selectedJS, &shown)
	}
	out := fmt.Sprintf("%sclicked %s in %s", prefix, oel.desc, el.desc)
	if shown != "" {
		out += fmt.Sprintf("; it shows %s", strconv.Quote(shown))
	}
	return out + nav, nil
}

// findOption returns the shown option of el that matches want; ok is
// false when none does.
func (b *Browser) findOption(o *op, el element, want string) (opt element, ok bool, err error) {
	return b.childEl(o, el, optionsJS, want, false)
}
