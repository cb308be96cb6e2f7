// snapRefs.js: the registry of refs, kept on the top window of a document
// (see snapshot.js). It returns the document's registry, made by the first
// snapshot of the document and found again by the next ones, so that an
// element keeps its ref across snapshots; a new document starts a new one,
// shared by its same-origin frames. New refs are numbered above floor, the
// highest ref Go has handed out, so that a ref of a page that was left is
// never reused. Refs point to their elements by weak references, and the
// refs of elements that are gone are forgotten here.
//
// refFor gives an element its ref; resolve finds a ref's element
// (resolve.js), or says "unknown" or "stale". The walker adds describe,
// slider and trackOf, and what its latest snapshot showed (xframes,
// regions, shown).
(function (floor) {
  'use strict';

  const KEY = Symbol.for('webagent.refs');

  // live reports whether el is still in the page: connected, and in a
  // document that is still shown (its frames were not navigated away).
  function live(el) {
    if (!el.isConnected) return false;
    let doc = el.ownerDocument;
    while (doc !== document) {
      const win = doc.defaultView;
      if (!win) return false;
      let fe = null;
      try { fe = win.frameElement; } catch (e) { return false; }
      if (!fe || !fe.isConnected || fe.contentDocument !== doc) return false;
      doc = fe.ownerDocument;
    }
    return true;
  }

  function resolve(ref) {
    const w = reg.byRef.get(ref);
    if (!w) return 'unknown';
    const el = w.deref();
    if (!el || !live(el)) return 'stale';
    return el;
  }

  function refFor(el) {
    let r = reg.byEl.get(el);
    if (!r) {
      r = 'e' + reg.next++;
      reg.byEl.set(el, r);
      reg.byRef.set(r, new WeakRef(el));
    }
    return r;
  }

  let reg = window[KEY];
  if (!reg) {
    reg = { next: floor + 1, byEl: new WeakMap(), byRef: new Map() };
    Object.defineProperty(window, KEY, { value: reg, configurable: true });
  }
  if (reg.next <= floor) reg.next = floor + 1;
  reg.resolve = resolve;
  reg.refFor = refFor;
  for (const [r, w] of reg.byRef) if (!w.deref()) reg.byRef.delete(r);
  return reg;
})
