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
const ariaKindJS = `function () {
  const el = this;
  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  const tag = el.localName;
  const editable = (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'hidden', 'image'].includes(el.type)) ||
    tag === 'textarea' || el.isContentEditable;
  const ro = el.readOnly || el.getAttribute('aria-readonly') === 'true';
  if (role === 'listbox') return {kind: 'listbox'};
  if (role === 'combobox' || el.getAttribute('aria-haspopup') === 'listbox' ||
      (tag === 'input' && (el.getAttribute('aria-autocomplete') || el.hasAttribute('list'))))
    return {kind: 'combobox', editable: editable && !ro && !el.disabled};
  if (role === 'option') return {kind: 'option'};
  return {kind: 'no'};
}`

// optionsJS finds the options that belong to the widget: in the listbox
// itself, in the popups named by aria-controls and aria-owns (also of a
// descendant), else every visible option of the page. With want set it
// returns the option whose name matches best (exactly, ignoring case, by
// prefix, then by substring), or null; without it, the visible options'
// names.
const optionsJS = `function (want, listNames) {
  const el = this, doc = el.ownerDocument;
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const visible = (o) => {
    if (!o.checkVisibility({checkVisibilityCSS: true})) return false;
    const r = o.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const nameOf = (o) => clean(o.getAttribute('aria-label')) || clean(o.innerText || o.textContent);
  const roots = [];
  const role = (el.getAttribute('role') || '').toLowerCase();
  if (role === 'listbox') roots.push(el);
  const ids = [];
  for (const n of [el, ...el.querySelectorAll('[aria-controls],[aria-owns]')]) {
    for (const a of ['aria-controls', 'aria-owns']) ids.push(...(n.getAttribute(a) || '').split(/\s+/).filter(Boolean));
  }
  for (const id of ids) {
    const r = el.getRootNode().getElementById ? el.getRootNode().getElementById(id) : doc.getElementById(id);
    if (r) roots.push(r);
  }
  let opts = [];
  for (const r of roots) {
    opts.push(...(r.getAttribute('role') === 'option' ? [r] : r.querySelectorAll('[role=option]')));
  }
  opts = opts.filter(visible);
  if (!opts.length) opts = Array.from(doc.querySelectorAll('[role=option]')).filter(visible);
  if (listNames) return opts.map(nameOf).filter(Boolean).slice(0, 40);
  const w = clean(want), lw = w.toLowerCase();
  const named = opts.map((o) => [o, nameOf(o)]);
  const m = named.find(([, n]) => n === w) || named.find(([, n]) => n.toLowerCase() === lw) ||
    named.find(([, n]) => n.toLowerCase().startsWith(lw)) || named.find(([, n]) => n.toLowerCase().includes(lw));
  return m ? m[0] : null;
}`

// waitOptionJS waits up to about 1.5 s (a popup opening, suggestions
// fetched after typing) for an option matching want to be shown.
var waitOptionJS = `async function (want) {
  const el = this, win = el.ownerDocument.defaultView;
  const f = ` + optionsJS + `;
  const t0 = Date.now();
  for (;;) {
    const o = f.call(el, want, false);
    if (o || Date.now() - t0 > 1500) return !!o;
    await new Promise((r) => { let d = false; const g = () => { if (!d) { d = true; r(); } }; win.requestAnimationFrame(g); win.setTimeout(g, 50); });
  }
}`

// selectedJS reports what the widget shows as chosen after the click.
const selectedJS = `function () {
  const el = this;
  if (el.localName === 'input' || el.localName === 'textarea') return el.value;
  const s = el.querySelector('[role=option][aria-selected=true]');
  return ((s || el).innerText || '').replace(/\s+/g, ' ').trim().slice(0, 100);
}`

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
