// targetFocused.js is target.js for the focused element (a press acts on
// it), through open shadow roots and same-origin frames, with its name as
// the snapshot gives it (desc); aims is false when nothing is focused.
/* global target */
(function (kind) {
  let a = document.activeElement;
  while (a) {
    if (a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
    if (a.localName === 'iframe' || a.localName === 'frame') {
      let d = null;
      try { d = a.contentDocument; } catch (e) { /* another site's frame */ }
      if (d && d.activeElement && d.activeElement !== d.body) { a = d.activeElement; continue; }
    }
    break;
  }
  if (!a || a === document.body || a === document.documentElement) return {aims: false, form: null};
  const r = target.call(a, kind);
  const reg = window[Symbol.for('webagent.refs')];
  r.desc = reg && reg.describe ? reg.describe(a) : a.localName;
  return r;
})
