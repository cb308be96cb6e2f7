// chosen.js lists the labels of the chosen options of a select.
(function () {
  return Array.from(this.selectedOptions || []).map((o) => (o.label || '').replace(/\s+/g, ' ').trim());
})
