// focusedPicker.js returns the focused input when it takes its value in
// a fixed format (date, time, month, week, colour), through open shadow
// roots and same-origin frames; else null.
(function () {
  let a = document.activeElement;
  while (a) {
    if (a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
    if (a.localName === 'iframe' || a.localName === 'frame') {
      let d = null;
      try { d = a.contentDocument; } catch (e) { return null; }
      if (d && d.activeElement && d.activeElement !== d.body) { a = d.activeElement; continue; }
      return null;
    }
    break;
  }
  const pickers = ['date', 'time', 'datetime-local', 'month', 'week', 'color'];
  return a && a.localName === 'input' && pickers.includes((a.type || '').toLowerCase()) ? a : null;
})
