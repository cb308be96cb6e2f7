// aim.js is settle.js followed, for an element of the page's target (top
// is set: not in a cross-origin frame) that lies wholly in the top viewport
// (most targets), by hit.js on the points of its largest box there: the
// usual aim costs one round trip. For any other element it returns
// settle.js's answer alone.
/* global settle, hit */
(async function (enabled, fractions, top) {
  const el = this;
  const st = await settle.call(el, enabled);
  if (!top || !st.inView || (enabled && st.disabled)) return st;
  let best = 0, box = null;
  for (const r of el.getClientRects()) {
    const x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0), x1 = Math.min(r.right, st.vw), y1 = Math.min(r.bottom, st.vh);
    if (x1 > x0 && y1 > y0 && (x1 - x0) * (y1 - y0) > best) { best = (x1 - x0) * (y1 - y0); box = [x0, y0, x1, y1]; }
  }
  if (!box) return st;
  const w = box[2] - box[0], h = box[3] - box[1];
  const points = [{X: (box[0] + box[2]) / 2, Y: (box[1] + box[3]) / 2}, ...fractions.map(([fx, fy]) => ({X: box[0] + w * fx, Y: box[1] + h * fy}))];
  return {...st, points: points, hit: hit.call(el, points)};
})
