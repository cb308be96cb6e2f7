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
const multiSelectJS = `function (add, remove) {
  const el = this;
  add = add || []; remove = remove || []; // empty arguments arrive as undefined
  if (el.localName !== 'select') return {error: 'notselect'};
  if (el.disabled) return {error: 'disabled'};
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const opts = Array.from(el.options);
  const find = (want) => {
    const w = norm(want), lw = w.toLowerCase();
    return opts.find((o) => norm(o.label) === w || o.value === want) ||
      opts.find((o) => norm(o.label).toLowerCase() === lw || o.value.toLowerCase() === lw);
  };
  const chosen = () => opts.filter((o) => o.selected).map((o) => norm(o.label));
  const all = opts.filter((o) => !o.disabled).map((o) => norm(o.label)).slice(0, 60);
  if (!el.multiple) return {error: 'single', options: all, chosen: chosen()};
  const missing = [], disabled = [], plan = [];
  for (const [list, on] of [[add, true], [remove, false]]) {
    for (const want of list) {
      const m = find(want);
      if (!m) missing.push(want);
      else if (m.disabled) disabled.push(norm(m.label));
      else plan.push([m, on]);
    }
  }
  if (missing.length) return {error: 'nomatch', missing: missing, options: all};
  if (disabled.length) return {error: 'optdisabled', missing: disabled};
  let changed = false;
  el.focus();
  for (const [m, on] of plan) if (m.selected !== on) { m.selected = on; changed = true; }
  if (changed) {
    const win = el.ownerDocument.defaultView;
    el.dispatchEvent(new win.Event('input', {bubbles: true}));
    el.dispatchEvent(new win.Event('change', {bubbles: true}));
  }
  return {changed: changed, chosen: chosen()};
}`

// chosenJS lists the labels of the chosen options of a select.
const chosenJS = `function () {
  return Array.from(this.selectedOptions || []).map((o) => (o.label || '').replace(/\s+/g, ' ').trim());
}`

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

func (b *Browser) doMultiSelect(o *op, ref string, add, remove []string) (string, error) {
	el, err := b.resolve(o, ref)
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
	if err := b.callEl(o, el, multiSelectJS, &res, add, remove); err != nil {
		return "", err
	}
	switch res.Error {
	case "":
	case "notselect":
		return b.multiSelectARIA(o, el, add, remove)
	case "single":
		return "", contract.ActionErrorf("%s allows one choice only (it has %s chosen); use select with one of %s", el.desc, quoteAll(res.Chosen), quoteAll(res.Options))
	case "disabled":
		return "", contract.ActionErrorf("%s is disabled; nothing was changed", el.desc)
	case "optdisabled":
		return "", contract.ActionErrorf("options %s of %s are disabled; nothing was changed", quoteAll(res.Missing), el.desc)
	default:
		return "", contract.ActionErrorf("%s has no option %s; nothing was changed; its options are %s", el.desc, quoteAll(res.Missing), quoteAll(res.Options))
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	if nav != "" {
		return "changed the choice of " + el.desc + nav, nil
	}
	// Read the choice back: a change handler may have altered it.
	var chosen []string
	if err := b.callEl(o, el, chosenJS, &chosen); err != nil {
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
const ariaMultiJS = `function () {
  const role = (this.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  return role === 'listbox' && this.getAttribute('aria-multiselectable') === 'true';
}`

// optionStateJS reports whether an ARIA option is chosen, and its name.
const optionStateJS = `function () {
  return {selected: this.getAttribute('aria-selected') === 'true' || this.getAttribute('aria-checked') === 'true',
    name: (this.getAttribute('aria-label') || this.innerText || this.textContent || '').replace(/\s+/g, ' ').trim()};
}`

// ariaChosenJS lists the names of the chosen options of a listbox.
const ariaChosenJS = `function () {
  return Array.from(this.querySelectorAll('[role=option]')).filter((o) => o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true')
    .map((o) => (o.getAttribute('aria-label') || o.innerText || o.textContent || '').replace(/\s+/g, ' ').trim());
}`

// multiSelectARIA adds and removes options of an ARIA listbox that allows
// several choices by clicking those whose state must change (with Control
// held, as such listboxes expect), after finding all of them.
func (b *Browser) multiSelectARIA(o *op, el element, add, remove []string) (string, error) {
	var multi bool
	if err := b.callEl(o, el, ariaMultiJS, &multi); err != nil {
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
			opt, ok, err := b.findOption(o, el, name)
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
		if err := b.callEl(o, el, optionsJS, &names, "", true); err != nil {
			return "", err
		}
		return "", contract.ActionErrorf("%s has no option %s; nothing was changed; the options shown are %s", el.desc, quoteAll(missing), quoteAll(names))
	}
	changed := false
	for _, st := range plan {
		var cur struct {
			Selected bool
			Name     string
		}
		if err := b.callEl(o, st.opt, optionStateJS, &cur); err != nil {
			return "", err
		}
		if cur.Selected == st.want {
			continue
		}
		st.opt.desc = "option " + strconv.Quote(cur.Name)
		at, err := b.aim(o, st.opt, "click on", true)
		if err != nil {
			return "", err
		}
		ctrl, _ := parseChord("Control")
		if err := b.keyEvent(o.ctx, input.DispatchKeyEventTypeRawKeyDown, ctrl.key, modCtrl); err != nil {
			return "", err
		}
		err = b.clickWith(o.ctx, at, modCtrl)
		if uerr := b.keyEvent(o.ctx, input.DispatchKeyEventTypeKeyUp, ctrl.key, 0); err == nil {
			err = uerr
		}
		if err != nil {
			return "", err
		}
		changed = true
	}
	var chosen []string
	if err := b.callEl(o, el, ariaChosenJS, &chosen); err != nil {
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
