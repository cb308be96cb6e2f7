// focus.js gives the keyboard focus to a text field or editable element
// (when the click did not) and reports whether it has it.
(function () {
  const root = this.getRootNode();
  const has = () => root.activeElement === this || (this.isContentEditable && this.contains(root.activeElement));
  if (!has()) this.focus();
  return has();
})
