// waitState.js waits, for one chunk, until the element is in the state:
// "appear" (rendered with a size), "disappear" (not rendered, or removed)
// or "enabled". It returns "done", "gone" when it left the page (for
// appear and enabled) or "" when the chunk ended.
(function (ms, want) {
  const el = this, win = el.ownerDocument.defaultView;
  const visible = () => {
    const r = el.getBoundingClientRect();
    return el.checkVisibility({checkVisibilityCSS: true, opacityProperty: true}) && r.width > 0 && r.height > 0;
  };
  const state = () => {
    if (!el.isConnected) return want === 'disappear' ? 'done' : 'gone';
    switch (want) {
    case 'disappear': return visible() ? '' : 'done';
    case 'enabled': return el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true' ? '' : 'done';
    default: return visible() ? 'done' : '';
    }
  };
  return new Promise((resolve) => {
    const t0 = Date.now();
    const tick = () => {
      const s = state();
      if (s || Date.now() - t0 >= ms) { resolve(s); return; }
      let d = false;
      const g = () => { if (!d) { d = true; tick(); } };
      win.requestAnimationFrame(g);
      win.setTimeout(g, 100);
    };
    tick();
  });
})
