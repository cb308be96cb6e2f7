// snapFigure.js: what the snapshot walker writes of figures drawn with
// boxes (see snapshot.js). Given the walker's kit, it returns boxFigure,
// which writes a group of small coloured boxes laid out as a grid (a digit
// drawn with divs, a pixel picture) as a figure: its grid, cell by cell;
// and face, which writes a box turned in 3-D space (a face of a CSS cube)
// with its text and box, or nothing when it faces away out of sight.
(function (k) {
  'use strict';

  const {NAME_MAX, WORDY, q, clean, cs, attr, listened} = k;
  const {push, flush, boxOf, colourName} = k;

  const CELLS_MAX = 400; // cells of a figure read
  const CELLS_MIN = 6; // the fewest cells that make a figure
  const CELL_MAX = 40; // the largest side of a cell, in CSS pixels
  const SIDE_MAX = 40; // the most columns or rows of a figure
  const MARKS = '#ox+*%@=&$'; // the marks of a figure's colours, in order of use
  const CELL_TAGS = new Set(['div', 'span', 'i', 'b']);

  // cell is el's box when el can be a cell of a figure: a plain element
  // without children, text, listeners or a pointer cursor (a tile to
  // click stays a tile with its ref), small and about square; null when it
  // cannot; false when it is not shown (it draws nothing).
  function cell(el) {
    if (!CELL_TAGS.has(el.localName) || el.childElementCount || WORDY.test(el.textContent)) return null;
    if (typeof el.onclick === 'function' || listened(el) || attr(el, 'role') || attr(el, 'tabindex') !== null) return null;
    if (cs(el).cursor === 'pointer') return null; // a tile to click (its listener further up)
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) return false;
    if (r.width > CELL_MAX || r.height > CELL_MAX || r.width > 2 * r.height || r.height > 2 * r.width) return null;
    return r;
  }

  // boxFigure writes el as a figure when its children (or the children of
  // its children, rows of cells) are cells of about one size on a grid of
  // at least two rows and two columns, drawn in at least two ways (a
  // colour, and another colour or nothing). The figure's line gives its
  // size, what each mark stands for and its box; a line follows for each
  // row: `figure 4x7 ". empty, # black" box=...` then `.##.`, `#..#`, ...
  function boxFigure(el, depth) {
    const kids = el.children;
    if (kids.length < 2 || kids.length > CELLS_MAX || listened(el) || typeof el.onclick === 'function') return false;
    const rows = kids[0].childElementCount > 0;
    const cells = [];
    for (const c of kids) {
      for (const g of rows ? c.children : [c]) {
        const r = cell(g);
        if (r === null || cells.length === CELLS_MAX) return false;
        if (r) cells.push({ r, c: colourName(cs(g).backgroundColor) });
      }
      if (rows && !c.childElementCount) return false;
    }
    if (cells.length < CELLS_MIN) return false;
    // One size: each cell within a quarter of the first's.
    const w = cells[0].r.width, h = cells[0].r.height;
    for (const x of cells) if (Math.abs(x.r.width - w) > w / 4 || Math.abs(x.r.height - h) > h / 4) return false;
    const xs = lattice(cells.map((x) => x.r.left), w), ys = lattice(cells.map((x) => x.r.top), h);
    if (xs.length < 2 || ys.length < 2 || xs.length > SIDE_MAX || ys.length > SIDE_MAX) return false;
    // The marks: '.' for an empty place (no cell, or a cell of no
    // colour); when every place is coloured, for the commonest colour.
    const count = new Map();
    for (const x of cells) if (x.c) count.set(x.c, (count.get(x.c) || 0) + 1);
    const empty = cells.length < xs.length * ys.length || cells.some((x) => !x.c);
    const byUse = [...count.keys()].sort((a, b) => count.get(b) - count.get(a));
    if (byUse.length + (empty ? 1 : 0) < 2) return false; // one colour all over: a block, not a figure
    const mark = new Map();
    const legend = empty ? ['. empty'] : [];
    byUse.forEach((c, i) => {
      const m = !empty && i === 0 ? '.' : MARKS[(i - (empty ? 0 : 1)) % MARKS.length];
      mark.set(c, m);
      legend.push(m + ' ' + c.split(' ')[0]);
    });
    const grid = ys.map(() => xs.map(() => '.'));
    for (const x of cells) {
      if (!x.c) continue;
      grid[near(ys, x.r.top)][near(xs, x.r.left)] = mark.get(x.c);
    }
    flush();
    push(depth, 'figure ' + xs.length + 'x' + ys.length + ' ' + q(legend.join(', ')) + boxOf(el), 's');
    for (const row of grid) push(depth + 1, row.join(''), 's');
    return true;
  }

  // lattice is the places of a grid's lines from its cells' edges, at
  // least half a cell apart.
  function lattice(edges, size) {
    const sorted = edges.slice().sort((a, b) => a - b);
    const out = [];
    for (const e of sorted) if (!out.length || e - out[out.length - 1] >= size / 2) out.push(e);
    return out;
  }
  // near is the index of the grid line nearest to v.
  function near(lines, v) {
    let best = 0;
    for (let i = 1; i < lines.length; i++) if (Math.abs(lines[i] - v) < Math.abs(lines[best] - v)) best = i;
    return best;
  }

  // face writes el when it is a box turned in 3-D space (a transform that
  // turns it out of the screen's plane, or moves it in depth inside a 3-D
  // scene: the faces of a CSS cube): `face "Front" box=...`, its text as
  // its name, then its content without the text again (its controls); a
  // face of longer text gets its content whole under a nameless line.
  // A face turned away is mirrored (said so), or unseen when its back is
  // hidden: then nothing is written. Not a face: false.
  function face(el, style, depth, cx, walkKids) {
    const t = style.transform;
    // A box that holds a 3-D scene (the cube) is not one of its faces.
    if (!t.startsWith('matrix3d') || style.transformStyle === 'preserve-3d') return false;
    const m = new DOMMatrix(t);
    const p = el.parentElement;
    const tilted = m.m33 < 0 || Math.abs(m.m13) + Math.abs(m.m23) + Math.abs(m.m31) + Math.abs(m.m32) > 1e-3;
    if (!tilted && !(p && cs(p).transformStyle === 'preserve-3d' && Math.abs(m.m43) > 0.5)) return false;
    // Where it faces: its normal, turned by its own transform and those of
    // the 3-D scene around it.
    let n = m;
    for (let a = p; a && cs(a).transformStyle === 'preserve-3d'; a = a.parentElement) {
      const at = cs(a).transform;
      if (at !== 'none') n = new DOMMatrix(at).multiply(n);
    }
    const z = n.m33;
    if (Math.abs(z) < 0.05) return true; // edge on: a line, nothing to read
    if (z < 0 && style.backfaceVisibility === 'hidden') return true;
    // Its text is its name when short; a longer one follows, as text does.
    const all = clean(el.innerText || el.textContent);
    if (!all && !el.childElementCount) return false;
    const short = all.length <= NAME_MAX;
    flush();
    push(depth, 'face' + (short && all ? ' ' + q(all) : '') + (z < 0 ? ' (mirrored: seen from behind)' : '') + boxOf(el), 's');
    walkKids(el, depth + 1, short ? { ...cx, text: false } : cx);
    return true;
  }

  return {boxFigure, face};
})
