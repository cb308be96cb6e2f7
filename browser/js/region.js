// region.js returns the lines of a folded region of the latest snapshot
// (the walker keeps them), and whether there is such a region.
(function (id) {
  const reg = window[Symbol.for('webagent.refs')];
  const t = reg && reg.regions ? reg.regions.get(id) : undefined;
  return { found: t !== undefined, text: t || '' };
})
