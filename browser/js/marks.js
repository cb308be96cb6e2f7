// marks.js lists the refs the page's registry holds (snapRefs.js) whose
// elements show in the viewport, with their boxes in CSS pixels of the
// viewport, at most max of them: the marks of an annotated screenshot
// (marks.go). Each also has the centre of its part in view (cx, cy) and
// whether a click there reaches it (hit: the element, or one inside it, is
// the topmost there; an element of a frame is taken as reached). It
// returns null when no snapshot made a registry yet. It changes nothing on
// the page.
(function (max) {
  // A click on a label reaches its control.
  const labelOf = (top, el) => { const l = top.closest && top.closest('label'); return !!l && l.control === el; };
  const reg = window[Symbol.for('webagent.refs')];
  if (!reg) return null;
  const vw = innerWidth, vh = innerHeight, out = [];
  for (const [ref, w] of reg.byRef) {
    const el = w.deref();
    if (!el || !el.isConnected) continue;
    // An element of a same-origin frame: add the frames' offsets.
    let dx = 0, dy = 0, doc = el.ownerDocument, inView = true;
    while (doc !== document) {
      let fe = null;
      try { fe = doc.defaultView && doc.defaultView.frameElement; } catch (e) { fe = null; }
      if (!fe || !fe.isConnected) { inView = false; break; }
      const fr = fe.getBoundingClientRect();
      dx += fr.left + fe.clientLeft;
      dy += fr.top + fe.clientTop;
      doc = fe.ownerDocument;
    }
    if (!inView) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const x0 = r.left + dx, y0 = r.top + dy, x1 = x0 + r.width, y1 = y0 + r.height;
    if (x1 <= 0 || y1 <= 0 || x0 >= vw || y0 >= vh) continue;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const cx = (Math.max(x0, 0) + Math.min(x1, vw)) / 2, cy = (Math.max(y0, 0) + Math.min(y1, vh)) / 2;
    let hit = true;
    if (el.ownerDocument === document) {
      const root = el.getRootNode(), top = (root.elementFromPoint ? root : document).elementFromPoint(cx, cy);
      hit = !!top && (top === el || el.contains(top) || labelOf(top, el));
    }
    out.push({ ref, x0, y0, x1, y1, cx, cy, hit });
    if (out.length >= max) break;
  }
  return { vw, vh, marks: out };
})
