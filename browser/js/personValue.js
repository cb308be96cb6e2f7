// personValue.js is the value of the field personTarget.js last named, as
// a person's key or text left it; null when it named none or the field is
// gone.
(function () {
  const w = window[Symbol.for('webagent.personField')];
  const el = w && w.deref();
  if (!el || !el.isConnected) return null;
  return el.localName === 'input' || el.localName === 'textarea' ? el.value : el.innerText;
})
