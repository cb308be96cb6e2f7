// canvasPixels.js reads what a canvas shows from its pixels, for the
// snapshot walker to say that a canvas is drawn on when the canvas log
// (canvasLog.js, with Options.Observable) has nothing of it. It is a
// function of el, a canvas, that returns null when the canvas is blank
// (every pixel the same: all transparent, or one colour all over), else
// {colours}: its main colours, rgb() strings, the commonest first (at
// most COLOURS, each covering at least SHARE of its opaque pixels); or
// {unknown: true} when its pixels cannot be read (a canvas another origin
// tainted).
//
// It draws the canvas, scaled down to at most SIDE pixels a side, on an
// OffscreenCanvas of its own: the page's canvas is only read (never a
// context asked of it, which would make one), nothing is added to the
// document, and an error (a tainted canvas's SecurityError) stays here.
(function (el) {
  const SIDE = 128; // the longest side of the picture read
  const COLOURS = 3; // main colours given
  const SHARE = 0.04; // the least share of the opaque pixels a main colour covers
  const w = el.width, h = el.height;
  if (!w || !h || typeof OffscreenCanvas !== 'function') return null;
  const s = Math.min(1, SIDE / Math.max(w, h));
  const tw = Math.max(1, Math.round(w * s)), th = Math.max(1, Math.round(h * s));
  let px;
  try {
    const ctx = new OffscreenCanvas(tw, th).getContext('2d', { willReadFrequently: true });
    ctx.drawImage(el, 0, 0, tw, th);
    px = ctx.getImageData(0, 0, tw, th).data;
  } catch (e) {
    return { unknown: true }; // tainted, or not drawable
  }
  // Blank: every pixel as the first (colours of transparent pixels aside).
  const same = (i) => (px[i + 3] === 0 && px[3] === 0) ||
    (px[i] === px[0] && px[i + 1] === px[1] && px[i + 2] === px[2] && px[i + 3] === px[3]);
  let blank = true;
  for (let i = 4; i < px.length; i += 4) if (!same(i)) { blank = false; break; }
  if (blank) return null;
  // Main colours: the opaque pixels by bins of 32 levels a channel, each
  // bin's mean colour.
  const bins = new Map();
  let opaque = 0;
  for (let i = 0; i < px.length; i += 4) {
    if (px[i + 3] < 128) continue;
    opaque++;
    const key = (px[i] >> 5) << 6 | (px[i + 1] >> 5) << 3 | px[i + 2] >> 5;
    let b = bins.get(key);
    if (!b) bins.set(key, b = [0, 0, 0, 0]);
    b[0] += px[i]; b[1] += px[i + 1]; b[2] += px[i + 2]; b[3]++;
  }
  const colours = [...bins.values()].filter((b) => b[3] >= SHARE * opaque).sort((a, b) => b[3] - a[3])
    .slice(0, COLOURS).map((b) => 'rgb(' + [0, 1, 2].map((j) => Math.round(b[j] / b[3])).join(', ') + ')');
  return { colours };
})
