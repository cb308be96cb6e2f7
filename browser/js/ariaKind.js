// ariaKind.js tells what kind of select-like widget the element is.
(function () {
  const el = this;
  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  const tag = el.localName;
  const editable = (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'hidden', 'image'].includes(el.type)) ||
    tag === 'textarea' || el.isContentEditable;
  const ro = el.readOnly || el.getAttribute('aria-readonly') === 'true';
  if (role === 'listbox') return {kind: 'listbox'};
  if (role === 'combobox' || el.getAttribute('aria-haspopup') === 'listbox' ||
      (tag === 'input' && (el.getAttribute('aria-autocomplete') || el.hasAttribute('list'))))
    return {kind: 'combobox', editable: editable && !ro && !el.disabled};
  if (role === 'option') return {kind: 'option'};
  return {kind: 'no'};
})
