// canvasDrawn.js reads what canvasLog.js recorded of the canvas el, for the
// snapshot walker to list under the canvas's line. It is a function of (el,
// max) that returns null when nothing drawn is recorded, else {items,
// more}: at most max items, in the order they were drawn, and how many
// more there are. When there are more, texts are chosen first, then the
// largest shapes. Items drawn outside the canvas, fully transparent or
// drawn again at the same place (a redrawn frame) are left out.
//
// An item is {k, t, f, s, b, c, r, p, n, q}: its kind (text, rect,
// circle, ellipse, arc, line, polygon, polyline, path, image), its text
// (an image's URL), its fill and stroke colours (rgb() or rgba() strings,
// or "gradient" or "pattern"), its box b = [x, y, w, h], a circle's or
// ellipse's centre c = [x, y] and radii r = [rx, ry], a line's ends p =
// [x1, y1, x2, y2], a polygon's or polyline's count n of sides or
// segments and its first points q = [[x, y], ...]. Positions are in CSS
// pixels of el's frame's viewport: the canvas's pixels scaled to its
// content box.
(function (el, max) {
  const win = el.ownerDocument.defaultView;
  const logs = win && win[Symbol.for('webagent.canvas')];
  const log = logs && logs.get(el);
  if (!log || log.w !== el.width || log.h !== el.height || !log.items.length || !log.w || !log.h) return null;

  // The canvas's pixels in CSS pixels: its content box, scaled by any CSS
  // transform (k).
  const r = el.getBoundingClientRect();
  const st = win.getComputedStyle(el);
  const k = el.offsetWidth ? r.width / el.offsetWidth : 1;
  const pad = (side) => parseFloat(st['padding' + side]) || 0;
  const x0 = r.left + (el.clientLeft + pad('Left')) * k, y0 = r.top + (el.clientTop + pad('Top')) * k;
  const sx = (el.clientWidth - pad('Left') - pad('Right')) * k / log.w;
  const sy = (el.clientHeight - pad('Top') - pad('Bottom')) * k / log.h;

  // rgb writes a canvas colour (#rrggbb, or rgba() with alpha, as the
  // canvas gives them back; any other CSS colour through a scratch
  // context) as rgb() or rgba().
  let scratch = null;
  function rgb(c) {
    if (!c || c === 'gradient' || c === 'pattern' || c.startsWith('rgb')) return c || '';
    let m = /^#([0-9a-f]{3,8})$/i.exec(c);
    if (!m) {
      if (!scratch) scratch = el.ownerDocument.createElement('canvas').getContext('2d');
      scratch.fillStyle = '#000';
      scratch.fillStyle = c;
      c = scratch.fillStyle;
      if (c.startsWith('rgb')) return c;
      m = /^#([0-9a-f]{3,8})$/i.exec(c);
      if (!m) return '';
    }
    let h = m[1];
    if (h.length <= 4) h = h.replace(/./g, '$&$&');
    const v = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
    return h.length === 8 ? 'rgba(' + v.join(', ') + ', ' + (parseInt(h.slice(6), 16) / 255).toFixed(2) + ')' : 'rgb(' + v.join(', ') + ')';
  }
  const seen = (c) => !!c && !/^rgba\(.*,\s*0(\.0\d*)?\)$/.test(c);

  const all = [];
  const at = new Map(); // a redrawn item's key -> its index in all
  for (const e of log.items.slice(-200)) {
    const [a, b, c, d] = e.b;
    if (c < 0 || d < 0 || a > log.w || b > log.h) continue; // off the canvas
    const f = rgb(e.f), s = rgb(e.s);
    if (e.k !== 'image' && !seen(f) && !seen(s)) continue;
    const it = { k: e.k, t: e.t || '', f, s, b: [x0 + a * sx, y0 + b * sy, (c - a) * sx, (d - b) * sy] };
    if (e.cx !== undefined) {
      it.c = [x0 + e.cx * sx, y0 + e.cy * sy];
      it.r = [e.rx * sx, e.ry * sy];
    }
    if (e.p) it.p = [x0 + e.p[0] * sx, y0 + e.p[1] * sy, x0 + e.p[2] * sx, y0 + e.p[3] * sy];
    if (e.n) it.n = e.n;
    if (e.q) {
      it.q = [];
      for (let i = 0; i + 1 < e.q.length; i += 2) it.q.push([x0 + e.q[i] * sx, y0 + e.q[i + 1] * sy]);
    }
    const key = [it.k, it.t, f, s].concat(it.b.map(Math.round)).join('|');
    if (at.has(key)) all[at.get(key)] = null;
    at.set(key, all.length);
    all.push(it);
  }
  let items = all.filter(Boolean);
  const more = Math.max(0, items.length - max);
  if (more) {
    const area = (it) => (it.k === 'text' ? Infinity : it.b[2] * it.b[3]);
    const keep = new Set(items.map((it, i) => i).sort((i, j) => area(items[j]) - area(items[i]) || i - j).slice(0, max));
    items = items.filter((it, i) => keep.has(i));
  }
  return { items, more };
})
