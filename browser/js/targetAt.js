// targetAt.js is target.js for the element at a viewport point of the
// main document (a mouse action without a ref), through open shadow roots:
// the control that holds the point, with its name as the snapshot gives
// it (desc).
/* global target */
(function (x, y, kind) {
  let h = document.elementFromPoint(x, y);
  while (h && h.shadowRoot) {
    const s = h.shadowRoot.elementFromPoint(x, y);
    if (!s || s === h) break;
    h = s;
  }
  if (!h) return {aims: false, form: null};
  const el = h.closest('a, button, input, select, textarea, summary, [role]') || h;
  const r = target.call(el, kind);
  const reg = window[Symbol.for('webagent.refs')];
  r.desc = reg && reg.describe ? reg.describe(el) : el.localName;
  return r;
})
