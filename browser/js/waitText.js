// waitText.js waits, for one chunk, until the number of times the page shows
// the text (spaces collapsed, case ignored) passes base (appear) or is zero
// (disappear), and returns that number; with base below zero it returns it
// at once. It checks on every DOM change (at most once a frame) and every
// 100 ms. With an element (this), only its text counts.
/* global pageText */
(function (want, ms, base, disappear) {
  const el = this && this.nodeType === 1 ? this : null;
  const doc = el ? el.ownerDocument : document, win = doc.defaultView;
  const norm = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const w = norm(want);
  const text = () => {
    if (!el) return pageText(document, 0);
    if (el.localName === 'input' || el.localName === 'textarea') return el.value;
    return el.innerText || el.textContent || '';
  };
  const count = () => {
    const t = norm(text());
    let n = 0;
    for (let i = t.indexOf(w); w && i >= 0; i = t.indexOf(w, i + w.length)) n++;
    return n;
  };
  const ok = (n) => disappear ? n === 0 : n > base;
  const n0 = count();
  if (base < 0 || ok(n0)) return Promise.resolve(n0);
  return new Promise((resolve) => {
    let done = false, queued = false;
    const finish = (v) => {
      if (done) return;
      done = true; obs.disconnect(); clearInterval(iv); clearTimeout(to); resolve(v);
    };
    const check = () => { queued = false; const n = count(); if (ok(n)) finish(n); };
    const obs = new MutationObserver(() => { if (!queued) { queued = true; win.requestAnimationFrame(check); } });
    obs.observe(el || doc, {subtree: true, childList: true, characterData: true, attributes: true});
    const iv = setInterval(check, 100);
    const to = setTimeout(() => finish(count()), ms);
  });
})
