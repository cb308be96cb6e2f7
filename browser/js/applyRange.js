// applyRange.js selects the range directly: offsets in a field, else the
// range textRange.js describes; with clear, it only clears the selection.
// It returns the selected text, spaces collapsed.
/* global textRange */
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
  const r = textRange.call(el, '', start, end);
  if (r.error) return '';
  // Rebuild the range from the offsets.
  const map = [];
  const tw = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let space = true;
  for (let n = tw.nextNode(); n; n = tw.nextNode()) {
    const p = n.parentElement;
    if (p && (p.closest('script,style,noscript') || !p.checkVisibility({checkVisibilityCSS: true}))) continue;
    for (let i = 0; i < n.data.length; i++) {
      if (/\s/.test(n.data[i])) { if (!space) { map.push([n, i]); space = true; } continue; }
      map.push([n, i]); space = false;
    }
  }
  const range = doc.createRange();
  range.setStart(map[start][0], map[start][1]);
  range.setEnd(map[end - 1][0], map[end - 1][1] + 1);
  sel.removeAllRanges();
  sel.addRange(range);
  const rect = range.getBoundingClientRect();
  el.dispatchEvent(new win.MouseEvent('mouseup', {bubbles: true, clientX: rect.right, clientY: rect.bottom - 1}));
  return norm(sel.toString());
})
