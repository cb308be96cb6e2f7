// textRange.js finds the range of an element's text, given as the text
// itself or as offsets into the element's text with its spaces collapsed.
// It changes nothing. For a field it returns the offsets; else the mouse
// points before the first and after the last character, checked with the
// caret hit test, when they are in the viewport.
(function (want, start, end) {
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
})
