// waitOption.js waits up to about 1.5 s (a popup opening, suggestions
// fetched after typing) for an option matching want to be shown.
/* global ariaOptions */
(async function (want) {
  const el = this, win = el.ownerDocument.defaultView;
  const t0 = Date.now();
  for (;;) {
    const o = ariaOptions.call(el, want, false);
    if (o || Date.now() - t0 > 1500) return !!o;
    await new Promise((r) => { let d = false; const g = () => { if (!d) { d = true; r(); } }; win.requestAnimationFrame(g); win.setTimeout(g, 50); });
  }
})
