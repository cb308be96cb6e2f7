// setValue.js sets the value of an input that takes it in a fixed format
// (date, time, colour, range), as its picker would, and fires input and
// change; ok is false when the input refused the value.
(function (v) {
  const el = this, win = el.ownerDocument.defaultView;
  const set = Object.getOwnPropertyDescriptor(win.HTMLInputElement.prototype, 'value').set;
  el.focus();
  set.call(el, v);
  if (v !== '' && el.value === '') return {ok: false};
  el.dispatchEvent(new win.Event('input', {bubbles: true}));
  el.dispatchEvent(new win.Event('change', {bubbles: true}));
  return {ok: true, value: el.value};
})
