// coverage.js counts the visible interactive elements of the page (the
// benchmark's definition: a DOM query, a box with an area, not hidden by
// CSS), through open shadow roots and same-origin frames, and how many of
// them the latest snapshot shows with a ref. It lists a few it missed.
(function () {
  const reg = window[Symbol.for('webagent.refs')];
  const SEL = 'a, button, input:not([type=hidden]), select, textarea, [role=button], [role=link], [onclick], [contenteditable=true], summary';
  const seen = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll(SEL)) seen.push(el);
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.localName === 'iframe' || el.localName === 'frame') {
        let d = null;
        try { d = el.contentDocument; } catch (e) { /* cross-origin */ }
        const r = el.getBoundingClientRect();
        if (d && r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true})) visit(d);
      }
    }
  };
  visit(document);
  let interactive = 0, covered = 0;
  const missed = [];
  for (const el of seen) {
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0) || !el.checkVisibility({visibilityProperty: true})) continue;
    interactive++;
    const ref = reg && reg.byEl.get(el);
    if (ref && reg.shown && reg.shown.has(ref)) covered++;
    else if (missed.length < 5) missed.push(el.outerHTML.slice(0, 160));
  }
  return {interactive, covered, missed};
})
