// waitChecked.js waits a few frames for the control's checked state to be
// want (a framework may update it after the click).
/* global checkState */
(async function (want) {
  const el = this, win = el.ownerDocument.defaultView;
  for (let i = 0; i < 10; i++) {
    if (checkState.call(el).checked === want) return true;
    await new Promise((r) => { let d = false; const g = () => { if (!d) { d = true; r(); } }; win.requestAnimationFrame(g); win.setTimeout(g, 50); });
  }
  return checkState.call(el).checked === want;
})
