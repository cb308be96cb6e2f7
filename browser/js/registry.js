// registry.js records, in webagent's world of a document, what the page's
// scripts listen to, as Chromium lists it (registry.go): the elements with
// a listener for an event a person triggers with the pointer or the keyboard
// (the snapshot walker gives them a ref even when nothing else marks them
// as actionable: a span made clickable by addEventListener or jQuery's
// .on), the elements with a listener for drops (shown as drop targets),
// whether any listener for pointer motion exists (a click sends its mouse
// move, which costs a frame, only where the page can see one), and the
// nodes with key listeners (type sends key events one by one only where
// the page can see them: a key listener on the field, one of its
// ancestors, the document or the window).
//
// It is a function of (moves, keys, nClick, nKey, ...nodes): the first
// nClick nodes have pointer or key listeners, the next nKey key listeners,
// the others drop listeners; keys says the window has a key listener. The
// records sit on each window of the document's frames that webagent's
// world reaches, under registered symbols, in webagent's world only: page
// scripts never see them. It returns how many windows it marked.
(function (moves, keys, nClick, nKey, ...nodes) {
  const LKEY = Symbol.for('webagent.listeners'), DKEY = Symbol.for('webagent.drops');
  const MKEY = Symbol.for('webagent.moves'), KKEY = Symbol.for('webagent.keys');
  const mark = (w) => {
    if (!w[LKEY]) w[LKEY] = new WeakSet();
    if (!w[DKEY]) w[DKEY] = new WeakSet();
    w[MKEY] = {on: moves};
    const k = w[KKEY] || {nodes: new WeakSet()};
    k.on = k.on || keys; // a document key listener found earlier stays
    w[KKEY] = k;
  };
  const wins = new Set();
  const visit = (w) => {
    if (!w || wins.has(w)) return;
    try { if (!w.document) return; } catch (e) { return; } // another origin
    wins.add(w);
    mark(w);
    for (let i = 0; i < w.frames.length; i++) visit(w.frames[i]);
  };
  visit(window);
  nodes.forEach((n, i) => {
    if (!n) return;
    const d = n.nodeType === 9 ? n : n.ownerDocument;
    const w = d.defaultView;
    if (!w) return;
    if (!wins.has(w)) { wins.add(w); mark(w); }
    if (i >= nClick && i < nClick + nKey) {
      if (n.nodeType === 9) w[KKEY].on = true; else w[KKEY].nodes.add(n);
      return;
    }
    if (n.nodeType !== 1 || n.localName === 'body' || n.localName === 'html') return;
    (i < nClick ? w[LKEY] : w[DKEY]).add(n);
  });
  return wins.size;
})
