// resolve.js returns the element of a ref of the page's registry, or
// "unknown" or "stale" when it has none.
(function (ref) {
  const r = window[Symbol.for('webagent.refs')];
  return r ? r.resolve(ref) : 'unknown';
})
