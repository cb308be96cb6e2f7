// pageText.js returns the shown text of a document: its body's innerText,
// the text of open shadow roots (which innerText leaves out) and of
// same-origin frames.
(function pageText(doc, depth) {
  if (!doc || !doc.body || depth > 5) return '';
  let s = doc.body.innerText || '';
  const walk = (root) => {
    for (const e of root.querySelectorAll('*')) {
      if (e.shadowRoot) {
        for (const c of e.shadowRoot.children) {
          if (c.localName === 'style' || c.localName === 'script') continue;
          if (c.checkVisibility && !c.checkVisibility({checkVisibilityCSS: true})) continue;
          s += '\n' + (c.innerText || '');
        }
        walk(e.shadowRoot);
      }
      if (e.localName === 'iframe' || e.localName === 'frame') {
        let d = null;
        try { d = e.contentDocument; } catch (x) { /* cross-origin */ }
        if (d && e.checkVisibility({checkVisibilityCSS: true})) s += '\n' + pageText(d, depth + 1);
      }
    }
  };
  walk(doc);
  return s;
})
