// hit.js hit-tests the candidate points (CSS pixels in the viewport of the
// element's top document) in every frame from that document down to the
// element's: it returns for each point whether a click there reaches the
// element (or a part or label of it), and unless the first point does, a
// description of what covers the element there.
/* global clicks */
(function (points, expect, binding) {
  const el = this;
  // A click is about to be sent: forget the window's latest one, and
  // expect this one (clicks.js reports where it landed).
  const win = el.ownerDocument.defaultView;
  const rec = win && clicks(win, binding);
  if (rec) {
    rec.target = null;
    rec.down = null;
    rec.expect = expect ? {el, token: expect} : null;
  }
  const chain = [];
  for (let d = el.ownerDocument; d !== document;) {
    let fe = null;
    try { fe = d.defaultView && d.defaultView.frameElement; } catch (e) { /* cross-origin */ }
    if (!fe) break;
    chain.unshift(fe);
    d = fe.ownerDocument;
  }
  const deepHit = (doc, x, y) => {
    let h = doc.elementFromPoint(x, y);
    while (h && h.shadowRoot) {
      const s = h.shadowRoot.elementFromPoint(x, y);
      if (!s || s === h) break;
      h = s;
    }
    return h;
  };
  const within = (a, b) => { for (let n = a; n; n = n.parentNode || n.host) if (n === b) return true; return false; };
  // A click on an element around el reaches el only when el lets the
  // pointer through (pointer-events: none): else the point lies outside
  // what shows of el (a scrolled container clips it there), and the click
  // would land on the container.
  const through = el.ownerDocument.defaultView.getComputedStyle(el).pointerEvents === 'none';
  const reaches = (hit) => within(hit, el) || (through && within(el, hit)) ||
    (el.labels && Array.from(el.labels).some((l) => within(hit, l))) ||
    (el.localName === 'label' && el.control && within(hit, el.control));
  // hitAt returns null when the click at (x, y) reaches el, else what it hits.
  const hitAt = (x, y) => {
    let doc = chain.length ? chain[0].ownerDocument : el.ownerDocument;
    for (const fe of chain) {
      const h = deepHit(doc, x, y);
      if (h !== fe) return h || doc.documentElement;
      const r = fe.getBoundingClientRect(), st = fe.ownerDocument.defaultView.getComputedStyle(fe);
      x -= r.left + fe.clientLeft + parseFloat(st.paddingLeft);
      y -= r.top + fe.clientTop + parseFloat(st.paddingTop);
      doc = fe.contentDocument;
    }
    const h = deepHit(doc, x, y);
    return h && reaches(h) ? null : (h || doc.documentElement);
  };
  // moves tells whether the page can see the mouse move to el: a listener
  // for pointer motion in one of its documents (or no record of them, in a
  // document loaded before the tab was set up), or a handler property on
  // the way to el.
  const moves = () => {
    const MOVES = Symbol.for('webagent.moves');
    const watched = (n) => !!(n && (n.onmousemove || n.onpointermove));
    const path = [el, ...chain];
    for (const n of path) {
      const d = n.ownerDocument, w = d.defaultView;
      const rec = w && w[MOVES];
      if (!rec || rec.on || watched(w) || watched(d)) return true;
      for (let a = n; a; a = a.parentNode || a.host) if (watched(a)) return true;
    }
    return false;
  };
  // describe names an element as the snapshot does, with its ref.
  const reg = window[Symbol.for('webagent.refs')];
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const cut = (s, n) => s.length > n ? s.slice(0, n - 1).trimEnd() + '…' : s;
  const nameOf = (n) => {
    const al = clean(n.getAttribute('aria-label'));
    if (al) return al;
    const lb = n.getAttribute('aria-labelledby');
    if (lb) {
      const t = clean(lb.split(/\s+/).map((id) => { const e = n.ownerDocument.getElementById(id); return e ? e.textContent : ''; }).join(' '));
      if (t) return t;
    }
    const h = n.querySelector('h1,h2,h3,h4,h5,h6,[role=heading]');
    if (h && clean(h.textContent)) return clean(h.textContent);
    return clean(n.innerText || n.textContent);
  };
  const describe = (n) => {
    let d = reg && reg.describe ? reg.describe(n) : '';
    if (!d || d.startsWith(n.localName + ' ') || d === n.localName) {
      const role = (n.getAttribute('role') || '').split(/\s+/)[0] || n.localName;
      d = role + ' ' + JSON.stringify(cut(nameOf(n), 40));
    }
    const r = reg && reg.byEl ? reg.byEl.get(n) : null;
    return r ? d + ' [ref=' + r + ']' : d;
  };
  let first = null;
  const ok = points.map(({X: x, Y: y}) => {
    const h = hitAt(x, y);
    if (h && !first) first = h;
    return !h;
  });
  if (ok[0] || !first) return {ok: ok, moves: moves()};
  // Nothing covers el where the click would land, but a container around
  // it cuts it off there (scrolled away from it).
  if (within(el, first)) return {ok: ok, clipped: describe(first)};
  // Describe the covering layer: the outermost ancestor of the hit element
  // that does not contain the element, and the controls in it.
  let layer = first;
  for (let n = first; n && n.nodeType === 1; n = n.parentElement || (n.parentNode && n.parentNode.host)) {
    if (within(el, n) || n === n.ownerDocument.body || n === n.ownerDocument.documentElement) break;
    layer = n;
  }
  const controls = [];
  const sel = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=switch],[role=tab],[role=menuitem]';
  const cand = layer.matches(sel) ? [layer] : Array.from(layer.querySelectorAll(sel));
  for (const c of cand) {
    if (controls.length >= 3) break;
    if (c === layer || !c.checkVisibility({checkVisibilityCSS: true})) continue;
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) controls.push(describe(c));
  }
  return {ok: ok, cover: describe(layer), controls: controls};
})
