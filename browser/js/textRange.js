// textRange.js finds the range of an element's text, given as the text
// itself or as offsets into the element's text with its spaces collapsed
// (textMap). It changes nothing. A text found more than once is an error
// that lists where (its first few places, with the words around them).
// For a field it returns the offsets; else the mouse points before the
// first and after the last character, checked with the caret hit test,
// when they are in the viewport.
/* global textMap */
(function (want, start, end) {
  const el = this, doc = el.ownerDocument, win = doc.defaultView;
  const PLACES = 5, AROUND = 30;
  want = want || ''; // an empty string arrives as undefined
  if (el.localName === 'input' || el.localName === 'textarea') {
    const v = el.value;
    if (want !== '') { start = v.indexOf(want); if (start < 0) return {error: 'notfound', text: v.slice(0, 300)}; end = start + want.length; }
    if (start < 0 || end > v.length || start >= end) return {error: 'offsets', text: v.slice(0, 300), len: v.length};
    return {kind: 'field', start: start, end: end, text: v.slice(start, end)};
  }
  const {norm, nodes, offs} = textMap(el);
  if (want !== '') {
    const w = want.replace(/\s+/g, ' ').trim();
    const at = [];
    for (let i = w ? norm.indexOf(w) : -1; i >= 0; i = norm.indexOf(w, i + w.length)) at.push(i);
    if (!at.length) return {error: 'notfound', text: norm.slice(0, 300)};
    if (at.length > 1) {
      const places = at.slice(0, PLACES).map((s) => ({
        start: s, end: s + w.length,
        before: norm.slice(Math.max(0, s - AROUND), s), after: norm.slice(s + w.length, s + w.length + AROUND),
      }));
      return {error: 'ambiguous', count: at.length, places: places};
    }
    start = at[0];
    end = start + w.length;
  }
  if (start < 0 || end > norm.length || start >= end) return {error: 'offsets', text: norm.slice(0, 300), len: norm.length};
  const sn = nodes[start], so = offs[start], en = nodes[end - 1], eo = offs[end - 1];
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
})
