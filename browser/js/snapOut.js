// snapOut.js: the outline the snapshot walker writes (see snapshot.js).
// Given the walker's kit, it returns out, the line records and where the
// walk stands (the element, the frame's offset, the list item, the
// dialogs around it), which the walker moves; push, which adds a line;
// addText and flush, which gather the inline text of a block into one
// line; and boxOf and point, which place an element or a point in the
// main viewport.
(function (k) {
  'use strict';

  const {clean, WORDY} = k;

  // Output: line records, plus a buffer for the inline text of the current
  // block. Kinds: 'a' actionable, 'h' heading, 's' structure (kept), 't'
  // text (kept by distance from the viewport), 'x' a cross-origin frame.
  const out = {
    L: [],
    bullet: false, // the next text line starts a list item
    inDialog: 0, // dialogs open around the walk
    curEl: null, // the element being walked
    yOff: 0, // offset of the frame being walked
    xOff: 0,
    rep: -1, // the repeated structure (group) being walked, or -1
    item: -1, // the list item or row being walked
    items: 0,
    groups: [], // {unit, of}
    xframes: [],
  };
  let buf = '';
  let bufDepth = 0;
  let bufEl = null;

  // A record's el gives its position (y, read only when the budget needs
  // it), off the offset of its frame.
  function push(depth, s, kind, el) {
    if (out.bullet) {
      if (kind === 't') s = '- ' + s;
      out.bullet = false;
    }
    out.L.push({ d: depth, s, k: kind, el: el || out.curEl, off: out.yOff, g: out.rep, it: out.item, y: NaN, dl: out.inDialog > 0 });
  }
  function addText(depth, t) {
    if (!buf) { bufDepth = depth; bufEl = out.curEl; }
    buf += t;
  }
  function flush() {
    if (!buf) return;
    const t = clean(buf);
    buf = '';
    // Separators alone (",", "|", "·") are noise. Page text must not pass
    // for a ref.
    if (t && WORDY.test(t)) push(bufDepth, t.replace(/\[(ref|region)=/g, '[$1:'), 't', bufEl);
  }

  // boxOf is ' box=x,y,w,h': el's border box in CSS pixels of the main
  // viewport.
  function boxOf(el) {
    const r = el.getBoundingClientRect();
    return ' box=' + Math.round(r.left + out.xOff) + ',' + Math.round(r.top + out.yOff) + ',' + Math.round(r.width) + ',' + Math.round(r.height);
  }
  // point is 'x,y' in CSS pixels of the main viewport, (x, y) of the
  // frame being walked.
  const point = (x, y) => Math.round(x + out.xOff) + ',' + Math.round(y + out.yOff);

  return {out, push, addText, flush, boxOf, point};
})
