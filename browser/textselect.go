package browser

import (
	"fmt"
	"strconv"

	"github.com/chromedp/cdproto/input"

	"github.com/webagent/webagent/contract"
)

// Text selection: a range of an element's text is selected with the
// mouse, pressed before its first character and released after its last,
// so that the page sees mousedown, selectstart, selectionchange and
// mouseup as from a person. Text fields get setSelectionRange (their
// select event fires).

// textRangeJS finds the range of an element's text, given as the text
// itself or as offsets into the element's text with its spaces collapsed.
// It changes nothing. For a field it returns the offsets; else the mouse
// points before the first and after the last character, checked with the
// caret hit test, when they are in the viewport.
const textRangeJS = `function (want, start, end) {
  const el = this, doc = el.ownerDocument, win = doc.defaultView;
  want = want || ''; // an empty string arrives as undefined
  if (el.localName === 'input' || el.localName === 'textarea') {
    const v = el.value;
    if (want !== '') { start = v.indexOf(want); if (start < 0) return {error: 'notfound', text: v.slice(0, 300)}; end = start + want.length; }
    if (start < 0 || end > v.length || start >= end) return {error: 'offsets', text: v.slice(0, 300), len: v.length};
    return {kind: 'field', start: start, end: end, text: v.slice(start, end)};
  }
  // The text with spaces collapsed, and for each character where it is.
  const map = [];
  let norm = '', space = true;
  const tw = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = tw.nextNode(); n; n = tw.nextNode()) {
    const p = n.parentElement;
    if (p && (p.closest('script,style,noscript') || !p.checkVisibility({checkVisibilityCSS: true}))) continue;
    const d = n.data;
    for (let i = 0; i < d.length; i++) {
      if (/\s/.test(d[i])) { if (!space) { norm += ' '; map.push([n, i]); space = true; } continue; }
      norm += d[i]; map.push([n, i]); space = false;
    }
  }
  while (norm.endsWith(' ')) { norm = norm.slice(0, -1); map.pop(); }
  if (want !== '') {
    const w = want.replace(/\s+/g, ' ').trim();
    start = w ? norm.indexOf(w) : -1;
    if (start < 0) return {error: 'notfound', text: norm.slice(0, 300)};
    end = start + w.length;
  }
  if (start < 0 || end > norm.length || start >= end) return {error: 'offsets', text: norm.slice(0, 300), len: norm.length};
  const [sn, so] = map[start], [en, eo] = map[end - 1];
  const range = doc.createRange();
  range.setStart(sn, so);
  range.setEnd(en, eo + 1);
  const res = {kind: 'text', start: start, end: end, text: norm.slice(start, end)};
  const charRect = (n, o) => { const r = doc.createRange(); r.setStart(n, o); r.setEnd(n, o + 1); return r.getClientRects()[0]; };
  const a = charRect(sn, so), b = charRect(en, eo);
  if (!a || !b || doc !== document) return res;
  const caret = (x, y) => {
    const c = doc.caretPositionFromPoint ? doc.caretPositionFromPoint(x, y) : null;
    return c ? [c.offsetNode, c.offset] : null;
  };
  const same = (c, n, o) => c && c[0] === n && c[1] === o;
  const inView = (x, y) => x >= 0 && y >= 0 && x < win.innerWidth && y < win.innerHeight;
  let p = null, q = null;
  for (const f of [0.2, 0.1, 0.3]) {
    const x = a.left + a.width * f, y = a.top + a.height / 2;
    if (inView(x, y) && same(caret(x, y), sn, so)) { p = [x, y]; break; }
  }
  for (const f of [0.8, 0.9, 0.7]) {
    const x = b.left + b.width * f, y = b.top + b.height / 2;
    if (inView(x, y) && same(caret(x, y), en, eo + 1)) { q = [x, y]; break; }
  }
  if (p && q) { res.from = p; res.to = q; }
  return res;
}`

// applyRangeJS selects the range directly: offsets in a field, else the
// range textRangeJS describes; with clear, it only clears the selection.
// It returns the selected text, spaces collapsed.
var applyRangeJS = `function (want, start, end, clear, direct) {
  const el = this, doc = el.ownerDocument, win = doc.defaultView;
  const sel = win.getSelection();
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  if (clear) { sel.removeAllRanges(); return ''; }
  if (!direct) return norm(el.localName === 'input' || el.localName === 'textarea' ? el.value.slice(el.selectionStart, el.selectionEnd) : sel.toString());
  if (el.localName === 'input' || el.localName === 'textarea') {
    el.focus();
    el.setSelectionRange(start, end);
    return norm(el.value.slice(el.selectionStart, el.selectionEnd));
  }
  const f = ` + textRangeJS + `;
  const r = f.call(el, '', start, end);
  if (r.error) return '';
  // Rebuild the range from the offsets.
  const map = [];
  const tw = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let space = true;
  for (let n = tw.nextNode(); n; n = tw.nextNode()) {
    const p = n.parentElement;
    if (p && (p.closest('script,style,noscript') || !p.checkVisibility({checkVisibilityCSS: true}))) continue;
    for (let i = 0; i < n.data.length; i++) {
      if (/\s/.test(n.data[i])) { if (!space) { map.push([n, i]); space = true; } continue; }
      map.push([n, i]); space = false;
    }
  }
  const range = doc.createRange();
  range.setStart(map[start][0], map[start][1]);
  range.setEnd(map[end - 1][0], map[end - 1][1] + 1);
  sel.removeAllRanges();
  sel.addRange(range);
  const rect = range.getBoundingClientRect();
  el.dispatchEvent(new win.MouseEvent('mouseup', {bubbles: true, clientX: rect.right, clientY: rect.bottom - 1}));
  return norm(sel.toString());
}`

type textRange struct {
	Error, Kind, Text string
	Start, End, Len   int
	From, To          []float64
}

func (b *Browser) doSelectText(o *op, a contract.Action) (string, error) {
	el, err := b.resolve(o, a.Ref)
	if err != nil {
		return "", err
	}
	start, end := -1, -1
	if a.Text == "" { // then Start and End are set (Validate)
		start, end = *a.Start, *a.End
	}
	if _, err := b.elementBox(o, el); err != nil {
		return "", err
	}
	var r textRange
	if err := b.callEl(o, el, textRangeJS, &r, a.Text, start, end); err != nil {
		return "", err
	}
	switch r.Error {
	case "notfound":
		return "", contract.ActionErrorf("%s does not contain the text %q; nothing was selected; its text begins %q", el.desc, a.Text, r.Text)
	case "offsets":
		return "", contract.ActionErrorf("offsets %d to %d are not a range of the text of %s, which has %d characters (spaces collapsed); nothing was selected", start, end, el.desc, r.Len)
	}
	how := ""
	var got string
	if r.Kind == "text" && len(r.From) == 2 && len(r.To) == 2 {
		if err := b.callEl(o, el, applyRangeJS, nil, "", 0, 0, true, false); err != nil {
			return "", err
		}
		moves := pathMoves([]contract.Point{{X: r.From[0], Y: r.From[1]}, {X: r.To[0], Y: r.To[1]}}, 12)
		if err := b.mouseSweep(o, moves); err != nil {
			return "", err
		}
		if err := b.callEl(o, el, applyRangeJS, &got, "", 0, 0, false, false); err != nil {
			return "", err
		}
	}
	if got != r.Text {
		// No mouse path selects it exactly (or a field): select it directly.
		if err := b.callEl(o, el, applyRangeJS, &got, "", r.Start, r.End, false, true); err != nil {
			return "", err
		}
		how = " (directly, not with the mouse)"
		if r.Kind == "field" {
			how = ""
		}
	}
	if got != r.Text {
		return "", contract.ActionErrorf("could not select %q in %s: the page selected %q instead (it may forbid selecting)", r.Text, el.desc, got)
	}
	return fmt.Sprintf("selected %s in %s (characters %d to %d)%s", strconv.Quote(r.Text), el.desc, r.Start, r.End, how), nil
}

// mouseSweep presses the left button at the first point, moves through the
// others and releases it at the last, without drag interception.
func (b *Browser) mouseSweep(o *op, moves []contract.Point) error {
	if len(moves) < 2 {
		return fmt.Errorf("a sweep needs two points")
	}
	p0, pn := moves[0], moves[len(moves)-1]
	if err := b.mouse(o.ctx, input.DispatchMouseEventTypeMouseMoved, p0.X, p0.Y, input.MouseButtonNone, 0, 0); err != nil {
		return err
	}
	if err := b.mouse(o.ctx, input.DispatchMouseEventTypeMousePressed, p0.X, p0.Y, input.MouseButtonLeft, 1, 1); err != nil {
		return err
	}
	for _, p := range moves[1:] {
		if err := b.mouse(o.ctx, input.DispatchMouseEventTypeMouseMoved, p.X, p.Y, input.MouseButtonLeft, 1, 0); err != nil {
			return err
		}
	}
	return b.mouse(o.ctx, input.DispatchMouseEventTypeMouseReleased, pn.X, pn.Y, input.MouseButtonLeft, 0, 1)
}
