// atPoint.js describes the element at a viewport point of the main
// document, through open shadow roots, with its ref when it has one.
(function (x, y) {
  let h = document.elementFromPoint(x, y);
  while (h && h.shadowRoot) {
    const s = h.shadowRoot.elementFromPoint(x, y);
    if (!s || s === h) break;
    h = s;
  }
  if (!h) return '';
  const reg = window[Symbol.for('webagent.refs')];
  let d = reg && reg.describe ? reg.describe(h) : h.localName;
  const r = reg && reg.byEl ? reg.byEl.get(h) : null;
  return r ? d + ' [ref=' + r + ']' : d;
})
