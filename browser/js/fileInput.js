// fileInput.js finds the file input an element stands for: itself, the
// control of a label, the one file input inside it, or the one file input
// of a nearby ancestor (a styled "Choose file" button next to a hidden
// input).
(function () {
  const isFile = (e) => e && e.localName === 'input' && e.type === 'file';
  if (isFile(this)) return this;
  if (this.localName === 'label' && isFile(this.control)) return this.control;
  let n = this;
  for (let i = 0; i < 4 && n; i++, n = n.parentElement) {
    const all = n.querySelectorAll('input[type=file]');
    if (all.length === 1) return all[0];
    if (all.length > 1) return null;
  }
  return null;
})
