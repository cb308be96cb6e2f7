// ariaMulti.js tells whether the element is an ARIA listbox that allows
// several choices.
(function () {
  const role = (this.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  return role === 'listbox' && this.getAttribute('aria-multiselectable') === 'true';
})
