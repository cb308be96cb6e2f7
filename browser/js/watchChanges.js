// watchChanges.js installs the observer, replacing an earlier one; it calls
// the binding with token at the first change, and keeps that it fired for
// changesSeen.js.
(function (binding, token) {
  const k = Symbol.for('webagent.changes');
  const old = window[k];
  if (old) old.stop();
  const send = window[binding];
  if (typeof send !== 'function') return false;
  const w = {ls: [], token, fired: false};
  const quiet = () => {
    w.obs.disconnect();
    for (const [t, f] of w.ls) document.removeEventListener(t, f, true);
    w.ls = [];
  };
  const fire = () => { quiet(); w.fired = true; try { send(token); } catch (e) { /* the binding went away */ } };
  w.obs = new MutationObserver(fire);
  w.stop = () => {
    quiet();
    if (window[k] === w) delete window[k];
  };
  w.obs.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  for (const t of ['input', 'change', 'scroll']) { document.addEventListener(t, fire, true); w.ls.push([t, fire]); }
  window[k] = w;
  return true;
})
