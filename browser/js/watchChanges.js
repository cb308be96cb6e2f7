// watchChanges.js installs the observer, replacing an earlier one; it calls
// the binding with token at the first change.
(function (binding, token) {
  const k = Symbol.for('webagent.changes');
  const old = window[k];
  if (old) old.stop();
  const send = window[binding];
  if (typeof send !== 'function') return false;
  const w = {ls: []};
  const fire = () => { w.stop(); try { send(token); } catch (e) { /* the binding went away */ } };
  w.obs = new MutationObserver(fire);
  w.stop = () => {
    w.obs.disconnect();
    for (const [t, f] of w.ls) document.removeEventListener(t, f, true);
    if (window[k] === w) delete window[k];
  };
  w.obs.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  for (const t of ['input', 'change', 'scroll']) { document.addEventListener(t, fire, true); w.ls.push([t, fire]); }
  window[k] = w;
  return true;
})
