// canvasLog.js runs in every frame of a tab before the page's own scripts.
// It records what the page draws on the 2D context of each canvas, so that
// the snapshot can list a canvas's texts and shapes under its line (see
// canvasDrawn.js, which reads the log): a canvas is otherwise only pixels.
//
// It wraps the drawing methods of CanvasRenderingContext2D.prototype. Each
// wrapper first calls the original, which draws as before (and throws as
// before), then notes the call: fillText and strokeText as a text,
// fillRect and strokeRect as a rect, drawImage as an image, and fill and
// stroke as the subpaths built since beginPath (moveTo, lineTo, arc,
// ellipse, rect, curves): a whole arc is a circle, two points stroked a
// line, a closed run of lines a polygon. An entry has its kind, its fill
// or stroke colour (a gradient or pattern by that word), its text, a
// polygon's or polyline's count of sides and first points, and its box in
// the canvas's pixels, under the transform of the moment (a path
// built under another transform than the one it is filled under is placed
// by the latter).
//
// Reading the context's transform and colours back costs microseconds a
// call (getTransform makes an object, the fillStyle getter writes the
// colour out), more than drawing: the log follows them instead, through
// wrappers of the transform methods, save and restore, and the fillStyle
// and strokeStyle setters (each colour string parsed once, on a scratch
// context). A call it cannot follow cheaply (setTransform with a matrix
// object, a number given as a string) reads the transform back.
//
// The log of a canvas lives in a WeakMap under a registered symbol on the
// window, keyed by the canvas element. It keeps the latest entries (at
// least MAX), starts again when the canvas is resized or reset, or a
// clearRect or an opaque fillRect covers it whole, and forgets the entries
// inside a smaller cleared rectangle. Paths given as Path2D objects are not
// read; a canvas resized through its attributes is noticed at its next
// clearRect or fillRect.
//
// The wrappers keep the originals' names, lengths, property attributes and
// toString, never throw into the page and cost a few arithmetic operations
// a call.
/* global masker */
(() => {
  const KEY = Symbol.for('webagent.canvas');
  if (window[KEY] || typeof CanvasRenderingContext2D !== 'function') return;
  const logs = new WeakMap(); // canvas -> its log, for canvasDrawn.js
  const byCtx = new WeakMap(); // context -> the same log
  Object.defineProperty(window, KEY, { value: logs });
  const MAX = 200; // entries kept of a canvas (up to twice as many between trims)
  const SUBPATHS = 32; // subpaths of one path told apart; the rest join the last
  const POINTS = 8; // points kept of a run of lines (a polygon's first vertices)
  const P = CanvasRenderingContext2D.prototype, CP = HTMLCanvasElement.prototype;
  const apply = Reflect.apply;
  const desc = Object.getOwnPropertyDescriptor;
  const canvasOf = desc(P, 'canvas').get, alphaOf = desc(P, 'globalAlpha').get;
  const opOf = desc(P, 'globalCompositeOperation').get;
  const widthOf = desc(CP, 'width').get, heightOf = desc(CP, 'height').get;
  const getTransform = P.getTransform, measureText = P.measureText;
  const Gradient = window.CanvasGradient, Pattern = window.CanvasPattern;
  const finite = Number.isFinite;

  // fresh empties a log and sets its context's state as a new context's
  // (and a resized canvas's) is.
  function fresh(log, c) {
    Object.assign(log, { items: [], path: [], cur: null, m: [1, 0, 0, 1, 0, 0], fill: '#000000', stroke: '#000000', stack: [] });
    log.gen++;
    log.w = apply(widthOf, c, []);
    log.h = apply(heightOf, c, []);
  }
  function logOf(ctx) {
    let log = byCtx.get(ctx);
    if (!log) {
      const c = apply(canvasOf, ctx, []);
      log = { c, gen: 0 };
      fresh(log, c);
      byCtx.set(ctx, log);
      logs.set(c, log);
    }
    return log;
  }

  // colour is the colour a fillStyle or strokeStyle takes, as the canvas
  // writes it (#rrggbb, rgba()), "gradient" or "pattern"; null for a value
  // the canvas ignores. Each string is parsed once, on a scratch context.
  const parsed = new Map();
  let scratch = null, setFill = null, getFill = null;
  function colour(v) {
    if (typeof v !== 'string') return Gradient && v instanceof Gradient ? 'gradient' : Pattern && v instanceof Pattern ? 'pattern' : null;
    let c = parsed.get(v);
    if (c !== undefined) return c;
    if (!scratch) {
      if (typeof OffscreenCanvas !== 'function') return null;
      scratch = new OffscreenCanvas(1, 1).getContext('2d');
      const d = desc(Object.getPrototypeOf(scratch), 'fillStyle');
      setFill = d.set;
      getFill = d.get;
    }
    // A value the canvas ignores leaves either marker as it was.
    c = null;
    for (const mark of ['#010203', '#030201']) {
      apply(setFill, scratch, [mark]);
      apply(setFill, scratch, [v]);
      const got = apply(getFill, scratch, []);
      if (got !== mark) { c = got; break; }
    }
    if (parsed.size > 256) parsed.clear();
    parsed.set(v, c);
    return c;
  }

  // The transform, followed: m is [a, b, c, d, e, f]; mul multiplies it
  // by another on the right, as the context does.
  function mul(m, a, b, c, d, e, f) {
    const [A, B, C, D, E, F] = m;
    m[0] = A * a + C * b;
    m[1] = B * a + D * b;
    m[2] = A * c + C * d;
    m[3] = B * c + D * d;
    m[4] = A * e + C * f + E;
    m[5] = B * e + D * f + F;
  }
  // nums tells whether the first n arguments are finite numbers (true),
  // numbers one of which is not (false: the context ignores the call), or
  // hold something else (null: the context converts it; read back).
  function nums(args, n) {
    let ok = true;
    for (let i = 0; i < n; i++) {
      if (typeof args[i] !== 'number') return null;
      if (!finite(args[i])) ok = false;
    }
    return ok;
  }
  function readBack(ctx) {
    const t = apply(getTransform, ctx, []);
    logOf(ctx).m = [t.a, t.b, t.c, t.d, t.e, t.f];
  }
  function moved(ctx, args, n, f) {
    const ok = nums(args, n);
    if (ok === null) readBack(ctx);
    else if (ok) f(logOf(ctx).m);
  }

  // The box [x0, y0, x1, y1] of the rectangle from (x0, y0) to (x1, y1)
  // under the transform m.
  function corners(m, x0, y0, x1, y1) {
    const [a, b, c, d, e, f] = m;
    const xa = a * x0, xb = a * x1, xc = c * y0, xd = c * y1;
    const ya = b * x0, yb = b * x1, yc = d * y0, yd = d * y1;
    return [Math.min(xa, xb) + Math.min(xc, xd) + e, Math.min(ya, yb) + Math.min(yc, yd) + f,
      Math.max(xa, xb) + Math.max(xc, xd) + e, Math.max(ya, yb) + Math.max(yc, yd) + f];
  }
  const covers = (log, b) => b[0] <= 0 && b[1] <= 0 && b[2] >= log.w && b[3] >= log.h;

  // add appends an entry to the log; gen tells, for a path filled and
  // then stroked, whether the entry of the fill is still in it (gen counts
  // the clearings).
  function add(log, e) {
    if (!(finite(e.b[0]) && finite(e.b[1]) && finite(e.b[2]) && finite(e.b[3]))) return;
    e.gen = log.gen;
    log.items.push(e);
    if (log.items.length > 2 * MAX) log.items.splice(0, log.items.length - MAX);
  }

  // Subpaths: k is 'poly' (moveTo and lineTo alone), 'rect', 'arc',
  // 'ellipse' or 'curve' (anything else); b the box of its points before
  // the transform; n its points; for an arc or ellipse its centre, radii
  // and whether it is whole.
  function sub(log, k, x, y) {
    if (log.path.length >= SUBPATHS) {
      const last = log.path[SUBPATHS - 1];
      last.k = 'curve';
      grow(last, x, y);
      return last;
    }
    const s = { k, n: 1, b: [x, y, x, y], x0: x, y0: y, x1: x, y1: y, closed: false, e: null, q: [x, y] };
    log.path.push(s);
    log.cur = s;
    return s;
  }
  function grow(s, x, y) {
    const b = s.b;
    if (x < b[0]) b[0] = x;
    if (x > b[2]) b[2] = x;
    if (y < b[1]) b[1] = y;
    if (y > b[3]) b[3] = y;
  }
  // to continues the current subpath to (x, y), or starts one there.
  function to(log, x, y, curve) {
    let s = log.cur;
    if (!s) s = sub(log, 'poly', x, y);
    else {
      grow(s, x, y);
      s.n++;
      if (curve || s.k !== 'poly') s.k = 'curve';
      else if (s.q.length < 2 * POINTS) s.q.push(x, y);
    }
    s.x1 = x;
    s.y1 = y;
  }
  // round adds an arc or ellipse: a subpath of its own when nothing, or a
  // moveTo onto its outline, came before it.
  function round(log, k, x, y, rx, ry, a0, a1) {
    if (!(rx > 0 && ry > 0)) return;
    const whole = Math.abs(a1 - a0) >= 2 * Math.PI - 1e-9;
    const s = log.cur;
    const own = !s || (s.n === 1 && s.k === 'poly' && Math.abs(Math.hypot(s.x0 - x, (s.y0 - y) * rx / ry) - rx) < 0.5);
    const a = own ? s || sub(log, k, x, y) : s;
    if (!own || a.k === 'curve') { // joined to lines, or past SUBPATHS
      grow(a, x - rx, y - ry);
      grow(a, x + rx, y + ry);
      a.n++;
      a.k = 'curve';
      return;
    }
    Object.assign(a, { k, cx: x, cy: y, rx, ry, whole, b: [x - rx, y - ry, x + rx, y + ry] });
  }

  // paint notes the current path filled (fill) or stroked.
  function paint(ctx, fill) {
    const log = logOf(ctx);
    const m = log.m, c = fill ? log.fill : log.stroke;
    for (const s of log.path) {
      if (s.n === 1 && s.k === 'poly') continue; // a lone moveTo
      if (s.e && s.e.gen === log.gen) {
        // The same path filled and stroked: one shape.
        s.e[fill ? 'f' : 's'] = c;
        continue;
      }
      const e = { k: s.k, b: corners(m, s.b[0], s.b[1], s.b[2], s.b[3]) };
      e[fill ? 'f' : 's'] = c;
      if (s.k === 'arc' || s.k === 'ellipse') {
        const sx = Math.hypot(m[0], m[1]), sy = Math.hypot(m[2], m[3]);
        e.k = s.whole ? (s.k === 'arc' && Math.abs(sx - sy) < 0.01 * sx ? 'circle' : 'ellipse') : 'arc';
        e.cx = m[0] * s.cx + m[2] * s.cy + m[4];
        e.cy = m[1] * s.cx + m[3] * s.cy + m[5];
        e.rx = s.rx * sx;
        e.ry = s.ry * sy;
      } else if (s.k === 'poly') {
        if (s.n === 2 && !fill && !s.closed) {
          e.k = 'line';
          e.p = [m[0] * s.x0 + m[2] * s.y0 + m[4], m[1] * s.x0 + m[3] * s.y0 + m[5],
            m[0] * s.x1 + m[2] * s.y1 + m[4], m[1] * s.x1 + m[3] * s.y1 + m[5]];
        } else {
          e.k = fill || s.closed ? 'polygon' : 'polyline';
          // Its sides (a closed shape's last point back to its first) or
          // segments: "how many sides" is answered by the count.
          const back = Math.abs(s.x1 - s.x0) < 0.5 && Math.abs(s.y1 - s.y0) < 0.5;
          e.n = e.k === 'polygon' ? s.n - (back ? 1 : 0) : s.n - 1;
          // Its first points, where the transform puts them.
          const q = e.k === 'polygon' && back && s.n <= POINTS ? s.q.slice(0, -2) : s.q;
          e.q = [];
          for (let i = 0; i < q.length; i += 2) e.q.push(m[0] * q[i] + m[2] * q[i + 1] + m[4], m[1] * q[i] + m[3] * q[i + 1] + m[5]);
        }
      } else if (s.k === 'curve') e.k = 'path';
      s.e = e;
      add(log, e);
    }
  }

  // rectangle notes fillRect (how 'f'), strokeRect ('s') or clearRect.
  function rectangle(ctx, how, x, y, w, h) {
    const log = logOf(ctx);
    if (log.w !== apply(widthOf, log.c, []) || log.h !== apply(heightOf, log.c, [])) fresh(log, log.c); // resized by its attributes
    const b = corners(log.m, x, y, x + w, y + h);
    if (how === 'clear' || (how === 'f' && covers(log, b) && /^#/.test(log.fill) &&
      apply(alphaOf, ctx, []) === 1 && apply(opOf, ctx, []) === 'source-over')) {
      // What the rectangle covers is gone.
      log.gen++;
      if (covers(log, b)) log.items = [];
      else log.items = log.items.filter((e) => !(e.b[0] >= b[0] && e.b[1] >= b[1] && e.b[2] <= b[2] && e.b[3] <= b[3]));
    }
    if (how === 'clear') return;
    const e = { k: 'rect', b };
    e[how] = how === 'f' ? log.fill : log.stroke;
    add(log, e);
  }

  function text(ctx, fill, t, x, y, maxWidth) {
    if (typeof t === 'number') t = String(t);
    if (typeof t !== 'string' || !t.trim()) return; // an object's text is not read twice
    const log = logOf(ctx);
    const mt = apply(measureText, ctx, [t]);
    let w = mt.actualBoundingBoxLeft + mt.actualBoundingBoxRight;
    let left = x - mt.actualBoundingBoxLeft;
    if (finite(maxWidth) && maxWidth >= 0 && w > maxWidth) {
      left += (x - left) * (1 - maxWidth / w); // squeezed towards the anchor
      w = maxWidth;
    }
    const e = { k: 'text', t, b: corners(log.m, left, y - mt.actualBoundingBoxAscent, left + w, y + mt.actualBoundingBoxDescent) };
    e[fill ? 'f' : 's'] = fill ? log.fill : log.stroke;
    add(log, e);
  }

  function image(ctx, args) {
    const img = args[0];
    let dx = args[1], dy = args[2], dw, dh;
    if (args.length >= 9) [dx, dy, dw, dh] = args.slice(5, 9);
    else if (args.length >= 5) [dw, dh] = args.slice(3, 5);
    else {
      dw = img.naturalWidth || img.videoWidth || img.width;
      dh = img.naturalHeight || img.videoHeight || img.height;
    }
    const log = logOf(ctx);
    const src = typeof img.currentSrc === 'string' ? img.currentSrc || img.src : '';
    add(log, { k: 'image', t: src, b: corners(log.m, dx, dy, dx + dw, dy + dh) });
  }

  // What each wrapped method notes, after the original ran.
  const notes = {
    beginPath(ctx) { const log = logOf(ctx); log.path = []; log.cur = null; },
    moveTo(ctx, [x, y]) { if (finite(x) && finite(y)) sub(logOf(ctx), 'poly', x, y); },
    lineTo(ctx, [x, y]) { if (finite(x) && finite(y)) to(logOf(ctx), x, y, false); },
    quadraticCurveTo(ctx, [a, b, x, y]) { const log = logOf(ctx); to(log, a, b, true); to(log, x, y, true); },
    bezierCurveTo(ctx, [a, b, c, d, x, y]) { const log = logOf(ctx); to(log, a, b, true); to(log, c, d, true); to(log, x, y, true); },
    arcTo(ctx, [a, b, x, y]) { const log = logOf(ctx); to(log, a, b, true); to(log, x, y, true); },
    closePath(ctx) { const log = logOf(ctx); if (log.cur) { log.cur.closed = true; log.cur = null; } },
    rect(ctx, [x, y, w, h]) { const log = logOf(ctx); const s = sub(log, 'rect', x, y); grow(s, x + w, y + h); s.closed = true; log.cur = null; },
    roundRect(ctx, args) { notes.rect(ctx, args); },
    arc(ctx, [x, y, r, a0, a1]) { round(logOf(ctx), 'arc', x, y, r, r, a0, a1); },
    ellipse(ctx, [x, y, rx, ry, rot, a0, a1]) {
      // A turned ellipse: its box is the circle's around it.
      const big = Math.max(rx, ry), flat = rot % Math.PI === 0;
      round(logOf(ctx), 'ellipse', x, y, flat ? rx : big, flat ? ry : big, a0, a1);
    },
    fill(ctx, args) { if (!args.length || typeof args[0] === 'string') paint(ctx, true); },
    stroke(ctx, args) { if (!args.length) paint(ctx, false); },
    fillRect(ctx, [x, y, w, h]) { rectangle(ctx, 'f', x, y, w, h); },
    strokeRect(ctx, [x, y, w, h]) { rectangle(ctx, 's', x, y, w, h); },
    clearRect(ctx, [x, y, w, h]) { rectangle(ctx, 'clear', x, y, w, h); },
    fillText(ctx, [t, x, y, mw]) { text(ctx, true, t, x, y, mw); },
    strokeText(ctx, [t, x, y, mw]) { text(ctx, false, t, x, y, mw); },
    drawImage(ctx, args) { image(ctx, args); },
    // The state the log follows.
    translate(ctx, args) { moved(ctx, args, 2, (m) => mul(m, 1, 0, 0, 1, args[0], args[1])); },
    scale(ctx, args) { moved(ctx, args, 2, (m) => mul(m, args[0], 0, 0, args[1], 0, 0)); },
    rotate(ctx, args) { moved(ctx, args, 1, (m) => { const c = Math.cos(args[0]), s = Math.sin(args[0]); mul(m, c, s, -s, c, 0, 0); }); },
    transform(ctx, args) { moved(ctx, args, 6, (m) => mul(m, ...args.slice(0, 6))); },
    setTransform(ctx, args) {
      if (args.length >= 6) moved(ctx, args, 6, (m) => { m.splice(0, 6, ...args.slice(0, 6)); });
      else readBack(ctx);
    },
    resetTransform(ctx) { logOf(ctx).m = [1, 0, 0, 1, 0, 0]; },
    save(ctx) {
      const log = logOf(ctx);
      if (log.stack.length >= 1024) log.stack.shift(); // a page that never restores
      log.stack.push([log.m.slice(), log.fill, log.stroke]);
    },
    restore(ctx) { const log = logOf(ctx); const s = log.stack.pop(); if (s) [log.m, log.fill, log.stroke] = s; },
    reset(ctx) { const log = logOf(ctx); fresh(log, log.c); },
  };
  // What each wrapped setter notes.
  const sets = {
    fillStyle(ctx, v) { const c = colour(v); if (c !== null) logOf(ctx).fill = c; },
    strokeStyle(ctx, v) { const c = colour(v); if (c !== null) logOf(ctx).stroke = c; },
  };
  // Setting a canvas's width or height clears it and resets its context.
  const resize = (c) => { const log = logs.get(c); if (log) fresh(log, c); };

  // hide makes wrapped pass for orig: its name and length, and the
  // original's text from Function.prototype.toString (masker.js).
  const mask = masker();
  function hide(wrapped, orig) {
    Object.defineProperty(wrapped, 'name', { value: orig.name });
    Object.defineProperty(wrapped, 'length', { value: orig.length });
    return mask(wrapped, orig);
  }
  for (const name of Object.keys(notes)) {
    const d = desc(P, name);
    if (!d || typeof d.value !== 'function') continue;
    const orig = d.value, note = notes[name];
    // A method, as the original: no prototype, not a constructor.
    const wrapped = {
      [name](...args) {
        const r = apply(orig, this, args);
        try { note(this, args); } catch (e) { /* never break the page */ }
        return r;
      },
    }[name];
    Object.defineProperty(P, name, { ...d, value: hide(wrapped, orig) });
  }
  const setter = (proto, name, note) => {
    const d = desc(proto, name);
    if (!d || !d.set) return;
    const orig = d.set;
    const wrapped = desc({
      set [name](v) {
        apply(orig, this, [v]);
        try { note(this, v); } catch (e) { /* never break the page */ }
      },
    }, name).set;
    Object.defineProperty(proto, name, { ...d, set: hide(wrapped, orig) });
  };
  for (const name of Object.keys(sets)) setter(P, name, sets[name]);
  setter(CP, 'width', resize);
  setter(CP, 'height', resize);
})
