// refInfo.js names the element of a ref as describe.js does and, given a
// program fn, calls it on the element with args and returns its value (v):
// what an action reads of its element comes back with the ref's own
// answer, in one round trip. code is "unknown" or "stale" when the
// page's registry has no such element.
(async function (ref, fn, args) {
  const r = window[Symbol.for('webagent.refs')];
  const el = r ? r.resolve(ref) : 'unknown';
  if (typeof el === 'string') return {code: el};
  return {desc: r.describe(el), v: fn ? await fn.apply(el, args) : null};
})
