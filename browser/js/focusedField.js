// focusedField.js describes the focused element, for typing into it
// without a ref (a vendor's computer tool types where the focus is):
// through open shadow roots and same-origin frames; a focused frame of
// another site gives that frame's origin, read from its address. desc is
// the element as the snapshot names it, origin its document's origin,
// editable whether it takes text.
(function () {
  let a = document.activeElement;
  let origin = document.location.origin;
  while (a) {
    if (a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
    if (a.localName === 'iframe' || a.localName === 'frame') {
      let d = null;
      try { d = a.contentDocument; } catch (e) { /* another site's frame */ }
      if (!d) {
        let o = '';
        try { o = new URL(a.src, document.baseURI).origin; } catch (e) { /* no address */ }
        return {desc: 'iframe', origin: o, editable: true, frame: true};
      }
      if (d.activeElement && d.activeElement !== d.body) { a = d.activeElement; origin = d.location.origin; continue; }
    }
    break;
  }
  if (!a || a === document.body || a === document.documentElement) return {desc: '', origin: origin, editable: false, frame: false};
  const reg = window[Symbol.for('webagent.refs')];
  const desc = reg && reg.describe ? reg.describe(a) : a.localName;
  const editable = a.isContentEditable || a.localName === 'textarea' ||
    (a.localName === 'input' && !['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'hidden', 'range', 'color'].includes((a.type || '').toLowerCase()));
  return {desc: desc, origin: a.ownerDocument.location.origin, editable: editable, frame: false};
})
