// visibleBox.js tells how much of the element (this) its own document
// shows: its border box less what an ancestor clips (an overflow other
// than visible hides what passes the ancestor's padding box) and what lies
// outside the viewport. Clipping follows the containing blocks, as layout
// does: an absolutely positioned box escapes the ancestors that are not
// positioned, a fixed one every ancestor. It returns clip, the rectangle
// [left, top, right, bottom] that shows (in CSS pixels of the document's
// viewport, which the element's boxes are cut to), and whole, whether
// the element shows entirely; clip is null when nothing of it can show.
(function () {
  const el = this, doc = el.ownerDocument, win = doc.defaultView, de = doc.documentElement;
  const parent = (n) => n.assignedSlot || n.parentElement || (n.getRootNode().host || null);
  let x0 = 0, y0 = 0, x1 = de.clientWidth, y1 = de.clientHeight;
  let pos = win.getComputedStyle(el).position;
  for (let a = parent(el); a && a !== de && a !== doc.body && pos !== 'fixed'; a = parent(a)) {
    const st = win.getComputedStyle(a);
    if (st.display === 'contents') continue;
    if (pos === 'absolute' && st.position === 'static' && st.transform === 'none') continue; // not its containing block
    const cx = st.overflowX !== 'visible', cy = st.overflowY !== 'visible';
    if (cx || cy) {
      const r = a.getBoundingClientRect();
      const left = r.left + a.clientLeft, top = r.top + a.clientTop;
      if (cx) { x0 = Math.max(x0, left); x1 = Math.min(x1, left + a.clientWidth); }
      if (cy) { y0 = Math.max(y0, top); y1 = Math.min(y1, top + a.clientHeight); }
    }
    pos = st.position;
  }
  if (x1 <= x0 || y1 <= y0) return {clip: null, whole: false};
  const r = el.getBoundingClientRect();
  const whole = r.width > 0 && r.height > 0 && r.left >= x0 && r.top >= y0 && r.right <= x1 && r.bottom <= y1;
  const shows = r.right > x0 && r.left < x1 && r.bottom > y0 && r.top < y1;
  return {clip: shows ? [x0, y0, x1, y1] : null, whole};
})
