// restore.js puts a text field's value back, as a page's own script would.
(function (v) {
  const el = this, win = el.ownerDocument.defaultView;
  if (el.localName === 'input' || el.localName === 'textarea') {
    const proto = el.localName === 'input' ? win.HTMLInputElement.prototype : win.HTMLTextAreaElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, v);
  } else {
    el.textContent = v;
  }
  el.dispatchEvent(new win.Event('input', {bubbles: true}));
  el.dispatchEvent(new win.Event('change', {bubbles: true}));
})
