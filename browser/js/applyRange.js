// applyRange.js selects the range directly: offsets in a field, else
// offsets into the element's text with its spaces collapsed (textMap);
// with clear, it only clears the selection. It returns the selected text,
// spaces collapsed.
/* global textMap */
(function (want, start, end, clear, direct) {
  const el = this, doc = el.ownerDocument, win = doc.defaultView;
  const sel = win.getSelection();
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  if (clear) { sel.removeAllRanges(); return ''; }
  if (!direct) return norm(el.localName === 'input' || el.localName === 'textarea' ? el.value.slice(el.selectionStart, el.selectionEnd) : sel.toString());
  if (el.localName === 'input' || el.localName === 'textarea') {
    el.focus();
    el.setSelectionRange(start, end);
    return norm(el.value.slice(el.selectionStart, el.selectionEnd));
  }
  const m = textMap(el);
  if (start < 0 || end > m.norm.length || start >= end) return '';
  const range = doc.createRange();
  range.setStart(m.nodes[start], m.offs[start]);
  range.setEnd(m.nodes[end - 1], m.offs[end - 1] + 1);
  sel.removeAllRanges();
  sel.addRange(range);
  const rect = range.getBoundingClientRect();
  el.dispatchEvent(new win.MouseEvent('mouseup', {bubbles: true, clientX: rect.right, clientY: rect.bottom - 1}));
  return norm(sel.toString());
})
