// clickTarget.js returns what to click to toggle a checkbox: the element
// itself when it is shown, else its first shown label.
(function () {
  const shown = (e) => e.checkVisibility({checkVisibilityCSS: true}) && e.getBoundingClientRect().width > 0;
  if (shown(this)) return this;
  return Array.from(this.labels || []).find(shown) || this;
})
