// clear.js empties a text field or an editable element directly, as a page's
// own script would, and fires input: for a field whose key handler kept its
// text.
(function () {
  const el = this, win = el.ownerDocument.defaultView;
  if (el.localName === 'input' || el.localName === 'textarea') {
    const proto = el.localName === 'input' ? win.HTMLInputElement.prototype : win.HTMLTextAreaElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, '');
  } else {
    el.textContent = '';
  }
  el.dispatchEvent(new win.Event('input', {bubbles: true}));
})
