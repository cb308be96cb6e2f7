package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"github.com/webagent/webagent/agent"
)

// Do performs one action and returns a short description of what happened,
// such as `clicked link "Pricing" [e7]; navigated to https://x.org/pricing
// ("Pricing")`.
//
//   - goto loads a URL (one without a scheme gets https://) and waits for
//     DOMContentLoaded, then up to 1.5 s for load.
//   - click scrolls the element into view and clicks the centre of its
//     visible part with mouse events. A navigation it starts is waited for
//     like goto's; a new tab it opens is closed and its page loaded in this
//     tab instead.
//   - type clicks the field, selects and deletes its text with the keyboard
//     and types the new text key by key (Input.insertText for characters no
//     key types), then presses Enter if Submit is set. Date, time, colour and
//     range inputs get their value set directly.
//   - select picks the option of a native <select> whose label or value
//     matches, exactly or else ignoring case, and fires input and change.
//   - press sends a key or chord ("Enter", "Shift+Tab", "Control+A") to the
//     focused element.
//   - scroll turns the mouse wheel at the viewport's centre by about a
//     viewport in a direction (up, down, left, right).
//   - back goes one step back in the tab's history.
//
// Unknown actions, refs and keys, stale refs, elements that are hidden or
// cannot take the action, and URLs that do not load are *agent.ActionError.
func (b *Browser) Do(ctx context.Context, a agent.Action) (string, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return "", err
	}
	defer o.end()
	var out string
	switch a.Name {
	case agent.ActGoto:
		out, err = b.doGoto(o, a.URL)
	case agent.ActClick:
		out, err = b.doClick(o, a.Ref)
	case agent.ActType:
		out, err = b.doType(o, a.Ref, a.Text, a.Submit)
	case agent.ActSelect:
		out, err = b.doSelect(o, a.Ref, a.Option)
	case agent.ActPress:
		out, err = b.doPress(o, a.Key)
	case agent.ActScroll:
		out, err = b.doScroll(o, a.Direction)
	case agent.ActBack:
		out, err = b.doBack(o)
	default:
		return "", agent.ActionErrorf("unknown action %q: use goto, click, type, select, press, scroll or back", a.Name)
	}
	if err != nil {
		return "", o.fail(a.Name, err)
	}
	if notes := b.notices.since(o.noticeMark); len(notes) > 0 {
		out += "; " + strings.Join(notes, "; ")
	}
	return out, nil
}

// element is a page element resolved from a ref.
type element struct {
	ref  string
	id   runtime.RemoteObjectID
	desc string // role and name, as in the snapshot
}

var refPattern = regexp.MustCompile(`^\[?(?:ref\s*=\s*)?(e\d+)\]?$`)

const resolveJS = `(function (ref) {
  const r = window[Symbol.for('webagent.refs')];
  return r ? r.resolve(ref) : 'unknown';
})(%s)`

const describeJS = `function () {
  const r = window[Symbol.for('webagent.refs')];
  return r ? r.describe(this) : this.localName;
}`

// resolve finds the element of a ref from the latest snapshot.
func (b *Browser) resolve(o *op, ref string) (element, error) {
	m := refPattern.FindStringSubmatch(strings.TrimSpace(ref))
	if m == nil {
		return element{}, agent.ActionErrorf("%q is not a ref: give a ref such as e12 from the latest snapshot", ref)
	}
	ref = m[1]
	r, err := b.eval(o, runtime.EvaluateParams{Expression: fmt.Sprintf(resolveJS, strconv.Quote(ref)), ObjectGroup: o.objectGroup()})
	if err != nil {
		return element{}, err
	}
	if r.ObjectID == "" {
		var code string
		_ = json.Unmarshal(r.Value, &code)
		if code == "stale" {
			return element{}, agent.ActionErrorf("ref %s is not on the page any more; take the new snapshot's refs", ref)
		}
		return element{}, agent.ActionErrorf("ref %s is not on this page; use a ref from the latest snapshot", ref)
	}
	el := element{ref: ref, id: r.ObjectID}
	if err := b.callOn(o, el.id, describeJS, &el.desc); err != nil {
		return element{}, err
	}
	el.desc += " [" + ref + "]"
	return el, nil
}

// point scrolls el into view and returns the centre of its visible part in
// main-viewport CSS pixels, also for elements in same-origin iframes.
func (b *Browser) point(o *op, el element) (x, y float64, err error) {
	notVisible := agent.ActionErrorf("%s is not visible, so it cannot be clicked; take a new snapshot", el.desc)
	if _, err := cdp.Call(o.ctx, b.target, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{ObjectID: el.id}); err != nil {
		if isProtocolError(err) {
			return 0, 0, notVisible
		}
		return 0, 0, err
	}
	quads, err := cdp.Call(o.ctx, b.target, dom.GetContentQuads, dom.GetContentQuadsParams{ObjectID: el.id})
	if err != nil {
		if isProtocolError(err) {
			return 0, 0, notVisible
		}
		return 0, 0, err
	}
	lm, err := cdp.Call(o.ctx, b.target, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return 0, 0, err
	}
	vw, vh := float64(b.width), float64(b.height)
	if v := lm.CSSLayoutViewport; v != nil && v.ClientWidth > 0 {
		vw, vh = float64(v.ClientWidth), float64(v.ClientHeight)
	}
	best := 0.0
	for _, q := range quads.Quads {
		if len(q) != 8 {
			continue
		}
		x0, x1 := min(q[0], q[2], q[4], q[6]), max(q[0], q[2], q[4], q[6])
		y0, y1 := min(q[1], q[3], q[5], q[7]), max(q[1], q[3], q[5], q[7])
		// The part inside the viewport.
		x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, vw), min(y1, vh)
		if a := (x1 - x0) * (y1 - y0); x1 > x0 && y1 > y0 && a > best {
			best, x, y = a, (x0+x1)/2, (y0+y1)/2
		}
	}
	if best == 0 {
		return 0, 0, notVisible
	}
	return x, y, nil
}

func (b *Browser) doClick(o *op, ref string) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	x, y, err := b.point(o, el)
	if err != nil {
		return "", err
	}
	var cover string
	if err := b.callOn(o, el.id, coverJS, &cover, x, y); err != nil {
		return "", err
	}
	s0 := b.nav.state()
	if err := b.click(o.ctx, x, y); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	out := "clicked " + el.desc
	if cover != "" {
		out += " (but " + cover + " covers it there and got the click)"
	}
	return out + nav, nil
}

// coverJS names the element at (x, y), main-viewport coordinates, if it is
// not this element, a part of it, or one of its labels: the element a click
// there reaches instead.
const coverJS = `function (x, y) {
  const el = this, doc = el.ownerDocument;
  let d = doc;
  while (d !== document && d.defaultView && d.defaultView.frameElement) {
    const fe = d.defaultView.frameElement, r = fe.getBoundingClientRect();
    const st = fe.ownerDocument.defaultView.getComputedStyle(fe);
    x -= r.left + fe.clientLeft + parseFloat(st.paddingLeft);
    y -= r.top + fe.clientTop + parseFloat(st.paddingTop);
    d = fe.ownerDocument;
  }
  let hit = doc.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const h = hit.shadowRoot.elementFromPoint(x, y);
    if (!h || h === hit) break;
    hit = h;
  }
  if (!hit) return '';
  const within = (a, b) => { for (let n = a; n; n = n.parentNode || n.host) if (n === b) return true; return false; };
  if (within(hit, el) || within(el, hit)) return '';
  if (el.labels && Array.from(el.labels).some((l) => within(hit, l))) return '';
  let name = hit.localName + (hit.id ? '#' + hit.id : '');
  const cls = typeof hit.className === 'string' ? hit.className.trim().split(/\s+/)[0] : '';
  if (cls) name += '.' + cls;
  const text = (hit.innerText || '').replace(/\s+/g, ' ').trim();
  if (text) name += ' ' + JSON.stringify(text.length > 40 ? text.slice(0, 39) + '…' : text);
  return name;
}`

const typeKindJS = `function () {
  const el = this, tag = el.localName;
  if (tag === 'input' || tag === 'textarea') {
    const t = tag === 'textarea' ? 'textarea' : (el.type || 'text').toLowerCase();
    if (['checkbox', 'radio', 'submit', 'reset', 'button', 'image', 'file', 'hidden'].includes(t))
      return {kind: 'no', why: 'it is a ' + t + ' input; click it instead'};
    if (el.disabled) return {kind: 'no', why: 'it is disabled'};
    if (el.readOnly) return {kind: 'no', why: 'it is read-only'};
    if (['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(t))
      return {kind: 'value', type: t};
    return {kind: 'text', type: t, secret: t === 'password'};
  }
  if (el.isContentEditable) return {kind: 'text', type: 'contenteditable'};
  if (tag === 'select') return {kind: 'no', why: 'it is a select; use the select action'};
  return {kind: 'no', why: 'it is not a text field'};
}`

const setValueJS = `function (v) {
  const el = this, win = el.ownerDocument.defaultView;
  const set = Object.getOwnPropertyDescriptor(win.HTMLInputElement.prototype, 'value').set;
  el.focus();
  set.call(el, v);
  if (v !== '' && el.value === '') return {ok: false};
  el.dispatchEvent(new win.Event('input', {bubbles: true}));
  el.dispatchEvent(new win.Event('change', {bubbles: true}));
  return {ok: true, value: el.value};
}`

const focusJS = `function () {
  const root = this.getRootNode();
  const has = () => root.activeElement === this || (this.isContentEditable && this.contains(root.activeElement));
  if (!has()) this.focus();
  return has();
}`

const valueJS = `function () {
  return (this.localName === 'input' || this.localName === 'textarea') ? this.value : this.innerText.trim();
}`

const clearJS = `function () {
  const el = this, win = el.ownerDocument.defaultView;
  if (el.localName === 'input' || el.localName === 'textarea') {
    const proto = el.localName === 'input' ? win.HTMLInputElement.prototype : win.HTMLTextAreaElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, '');
  } else {
    el.textContent = '';
  }
  el.dispatchEvent(new win.Event('input', {bubbles: true}));
}`

var valueFormats = map[string]string{
	"date":           "a date as YYYY-MM-DD",
	"time":           "a time as HH:MM",
	"datetime-local": "a date and time as YYYY-MM-DDTHH:MM",
	"month":          "a month as YYYY-MM",
	"week":           "a week as YYYY-Www",
	"color":          "a colour as #rrggbb",
	"range":          "a number within its range",
}

func (b *Browser) doType(o *op, ref, text string, submit bool) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	var kind struct {
		Kind, Type, Why string
		Secret          bool
	}
	if err := b.callOn(o, el.id, typeKindJS, &kind); err != nil {
		return "", err
	}
	switch kind.Kind {
	case "no":
		return "", agent.ActionErrorf("%s cannot be typed into: %s", el.desc, kind.Why)
	case "value":
		// Pickers take their value in a fixed format, not keystrokes.
		var res struct{ OK bool }
		if err := b.callOn(o, el.id, setValueJS, &res, text); err != nil {
			return "", err
		}
		if !res.OK {
			return "", agent.ActionErrorf("%s does not accept %q: it takes %s", el.desc, text, valueFormats[kind.Type])
		}
	default:
		if err := b.focusAndClear(o, el); err != nil {
			return "", err
		}
		if err := b.typeText(o.ctx, text); err != nil {
			return "", err
		}
	}
	typed := strconv.Quote(text)
	if kind.Secret {
		typed = fmt.Sprintf("%d characters", len([]rune(text)))
	}
	out := fmt.Sprintf("typed %s into %s", typed, el.desc)
	if !submit {
		return out, nil
	}
	s0 := b.nav.state()
	if err := b.press(o.ctx, chord{key: namedKeys["enter"]}); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	return out + " and pressed Enter" + nav, nil
}

// focusAndClear clicks el to focus it, then selects its text and deletes it
// with the keyboard, as a user replacing a value would.
func (b *Browser) focusAndClear(o *op, el element) error {
	x, y, err := b.point(o, el)
	if err != nil {
		return err
	}
	if err := b.click(o.ctx, x, y); err != nil {
		return err
	}
	var focused bool
	if err := b.callOn(o, el.id, focusJS, &focused); err != nil {
		return err
	}
	if !focused {
		return agent.ActionErrorf("%s did not take the keyboard focus; click it first or take a new snapshot", el.desc)
	}
	var cur string
	if err := b.callOn(o, el.id, valueJS, &cur); err != nil {
		return err
	}
	if cur == "" {
		return nil
	}
	selectAll, _ := parseChord("Control+A")
	if err := b.press(o.ctx, selectAll); err != nil {
		return err
	}
	if err := b.press(o.ctx, chord{key: namedKeys["backspace"]}); err != nil {
		return err
	}
	if err := b.callOn(o, el.id, valueJS, &cur); err != nil {
		return err
	}
	if cur != "" {
		// The page kept the text (a key handler); clear it directly.
		return b.callOn(o, el.id, clearJS, nil)
	}
	return nil
}

const selectJS = `function (want) {
  const el = this;
  if (el.localName !== 'select') return {error: 'notselect'};
  if (el.disabled) return {error: 'disabled'};
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const opts = Array.from(el.options);
  const w = norm(want), lw = w.toLowerCase();
  const m = opts.find((o) => norm(o.label) === w || o.value === want) ||
    opts.find((o) => norm(o.label).toLowerCase() === lw || o.value.toLowerCase() === lw);
  if (!m) return {error: 'nomatch', options: opts.filter((o) => !o.disabled).map((o) => norm(o.label)).slice(0, 60)};
  if (m.disabled) return {error: 'optdisabled', chosen: norm(m.label)};
  el.focus();
  if (el.multiple) for (const o of opts) o.selected = o === m;
  else el.selectedIndex = m.index;
  const win = el.ownerDocument.defaultView;
  el.dispatchEvent(new win.Event('input', {bubbles: true}));
  el.dispatchEvent(new win.Event('change', {bubbles: true}));
  return {chosen: norm(m.label)};
}`

func (b *Browser) doSelect(o *op, ref, option string) (string, error) {
	el, err := b.resolve(o, ref)
	if err != nil {
		return "", err
	}
	var res struct {
		Error, Chosen string
		Options       []string
	}
	s0 := b.nav.state()
	if err := b.callOn(o, el.id, selectJS, &res, option); err != nil {
		return "", err
	}
	switch res.Error {
	case "":
	case "notselect":
		return "", agent.ActionErrorf("%s is not a native select: click it, then click the option you want", el.desc)
	case "disabled":
		return "", agent.ActionErrorf("%s is disabled", el.desc)
	case "optdisabled":
		return "", agent.ActionErrorf("option %q of %s is disabled", res.Chosen, el.desc)
	default:
		quoted := make([]string, len(res.Options))
		for i, s := range res.Options {
			quoted[i] = strconv.Quote(s)
		}
		return "", agent.ActionErrorf("%s has no option %q; its options are %s", el.desc, option, strings.Join(quoted, ", "))
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("selected %s in %s%s", strconv.Quote(res.Chosen), el.desc, nav), nil
}

func (b *Browser) doPress(o *op, keys string) (string, error) {
	c, err := parseChord(keys)
	if err != nil {
		return "", err
	}
	s0 := b.nav.state()
	if err := b.press(o.ctx, c); err != nil {
		return "", err
	}
	nav, err := b.afterInput(o, s0, inputGrace)
	if err != nil {
		return "", err
	}
	return "pressed " + strings.TrimSpace(keys) + nav, nil
}

// scrollerJS finds what a wheel at (x, y) scrolls in the direction (dx, dy):
// the innermost scrollable element there that has room, else the page.
const scrollerJS = `(function (x, y, dx, dy) {
  const room = (e) => {
    const s = getComputedStyle(e);
    const ok = (o) => o === 'auto' || o === 'scroll' || o === 'overlay';
    if (dy > 0) return ok(s.overflowY) && e.scrollTop + e.clientHeight < e.scrollHeight - 1;
    if (dy < 0) return ok(s.overflowY) && e.scrollTop > 0;
    if (dx > 0) return ok(s.overflowX) && e.scrollLeft + e.clientWidth < e.scrollWidth - 1;
    return ok(s.overflowX) && e.scrollLeft > 0;
  };
  let e = document.elementFromPoint(x, y);
  while (e && e !== document.body && e !== document.documentElement) {
    if (room(e)) return e;
    e = e.parentElement || (e.getRootNode().host || null);
  }
  return document.scrollingElement || document.documentElement;
})(%g, %g, %g, %g)`

// scrollPosJS reports the position of a scroller once it has stopped
// moving (smooth scrolling takes a few frames), or after a second.
const scrollPosJS = `function (settle) {
  const e = this, doc = e.ownerDocument, win = doc.defaultView;
  const pos = () => ({
    x: Math.round(e.scrollLeft), y: Math.round(e.scrollTop),
    maxX: Math.max(0, e.scrollWidth - e.clientWidth), maxY: Math.max(0, e.scrollHeight - e.clientHeight),
    page: e === doc.scrollingElement,
  });
  if (!settle) return pos();
  return new Promise((resolve) => {
    let last = '', same = 0, frames = 0;
    const done = setTimeout(() => resolve(pos()), 1000);
    const tick = () => {
      const p = e.scrollLeft + ',' + e.scrollTop;
      same = p === last ? same + 1 : 0;
      last = p;
      if (++frames >= 6 && same >= 3) { clearTimeout(done); resolve(pos()); } else win.requestAnimationFrame(tick);
    };
    win.requestAnimationFrame(tick);
  });
}`

type scrollPos struct {
	X, Y, MaxX, MaxY int
	Page             bool
}

func (b *Browser) doScroll(o *op, direction string) (string, error) {
	dir := strings.ToLower(strings.TrimSpace(direction))
	var dx, dy float64
	w, h := float64(b.width), float64(b.height)
	switch dir {
	case "down":
		dy = h * 0.85
	case "up":
		dy = -h * 0.85
	case "right":
		dx = w * 0.85
	case "left":
		dx = -w * 0.85
	default:
		return "", agent.ActionErrorf("unknown scroll direction %q: use up, down, left or right", direction)
	}
	cx, cy := w/2, h/2
	r, err := b.eval(o, runtime.EvaluateParams{Expression: fmt.Sprintf(scrollerJS, cx, cy, dx, dy), ObjectGroup: o.objectGroup()})
	if err != nil {
		return "", err
	}
	var before, after scrollPos
	if err := b.callOn(o, r.ObjectID, scrollPosJS, &before, false); err != nil {
		return "", err
	}
	if err := b.wheel(o.ctx, cx, cy, dx, dy); err != nil {
		return "", err
	}
	if err := b.callOn(o, r.ObjectID, scrollPosJS, &after, true); err != nil {
		return "", err
	}
	what := "the page"
	if !after.Page {
		what = "the scrollable area"
	}
	vertical := dy != 0
	pos, end := after.Y, after.MaxY
	if !vertical {
		pos, end = after.X, after.MaxX
	}
	atEnd := (dy > 0 || dx > 0) && pos >= end || (dy < 0 || dx < 0) && pos <= 0
	edge := map[string]string{"down": "bottom", "up": "top", "left": "left edge", "right": "right edge"}[dir]
	if before.X == after.X && before.Y == after.Y {
		return fmt.Sprintf("could not scroll %s: %s is already at the %s", dir, what, edge), nil
	}
	axis := "y"
	if !vertical {
		axis = "x"
	}
	out := fmt.Sprintf("scrolled %s %s: now at %s=%d of %d", what, dir, axis, pos, end)
	if atEnd {
		out += "; reached the " + edge
	}
	return out, nil
}
