// typeKind.js tells how text goes into the element: typed key by key
// (text), set as a value in a fixed format (value), or not at all (no, with
// why); and whether the page can see key events there.
(function () {
  const el = this, tag = el.localName;
  // keys tells whether the page can see key events on el: a key listener
  // on el, one of its ancestors (across shadow roots), its document or its
  // window (registry.js), or no record of them.
  const keys = () => {
    const d = el.ownerDocument, w = d.defaultView, rec = w && w[Symbol.for('webagent.keys')];
    if (!rec || rec.on) return true;
    for (let a = el; a; a = a.parentNode || a.host) if (rec.nodes.has(a)) return true;
    return false;
  };
  if (tag === 'input' || tag === 'textarea') {
    const t = tag === 'textarea' ? 'textarea' : (el.type || 'text').toLowerCase();
    if (['checkbox', 'radio', 'submit', 'reset', 'button', 'image', 'file', 'hidden'].includes(t))
      return {kind: 'no', why: 'it is a ' + t + ' input; click it instead'};
    if (el.disabled) return {kind: 'no', why: 'it is disabled'};
    if (el.readOnly) return {kind: 'no', why: 'it is read-only'};
    if (['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(t))
      return {kind: 'value', type: t};
    return {kind: 'text', type: t, secret: t === 'password', value: el.value, keys: keys()};
  }
  if (el.isContentEditable) return {kind: 'text', type: 'contenteditable', value: el.innerText.trim(), keys: true};
  if (tag === 'select') return {kind: 'no', why: 'it is a select; use the select action'};
  return {kind: 'no', why: 'it is not a text field'};
})
