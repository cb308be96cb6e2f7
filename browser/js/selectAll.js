// selectAll.js focuses a text field (when the click did not) and selects
// its text; it returns whether the field has the focus.
(function () {
  const root = this.getRootNode();
  if (root.activeElement !== this) this.focus();
  if (root.activeElement !== this) return false;
  this.select();
  return true;
})
