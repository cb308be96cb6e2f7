// aim.js is settle.js followed, for an element of the page's target (top
// is set: not in a cross-origin frame) that shows wholly in the top
// viewport (most targets), by hit.js on the points of its largest box
// there: the usual aim costs one round trip. With partly set (the element
// was scrolled to and shows only in part, cut by the viewport or by a
// scrolled container), the points are those of the largest part that
// shows. For any other element it returns settle.js's answer alone.
// expect and binding are hit.js's: the token of a click to report, and
// the binding it is reported through.
/* global settle, hit */
(async function (enabled, fractions, top, partly, expect, binding) {
  const el = this;
  const st = await settle.call(el, enabled);
  if (!top || !st.clip || (!st.inView && !partly) || (enabled && st.disabled)) return st;
  const [cx0, cy0, cx1, cy1] = st.clip;
  let best = 0, box = null;
  for (const r of el.getClientRects()) {
    const x0 = Math.max(r.left, cx0), y0 = Math.max(r.top, cy0), x1 = Math.min(r.right, cx1), y1 = Math.min(r.bottom, cy1);
    if (x1 > x0 && y1 > y0 && (x1 - x0) * (y1 - y0) > best) { best = (x1 - x0) * (y1 - y0); box = [x0, y0, x1, y1]; }
  }
  if (!box) return st;
  const w = box[2] - box[0], h = box[3] - box[1];
  const points = [{X: (box[0] + box[2]) / 2, Y: (box[1] + box[3]) / 2}, ...fractions.map(([fx, fy]) => ({X: box[0] + w * fx, Y: box[1] + h * fy}))];
  return {...st, points: points, hit: hit.call(el, points, expect, binding)};
})
