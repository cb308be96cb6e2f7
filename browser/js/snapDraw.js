// snapDraw.js: what the snapshot walker writes of drawings (see
// snapshot.js). Given the walker's kit, it returns canvas, which writes a
// canvas and what the page drew on it; svgScene, the shapes of an SVG
// drawing with their colours and places; svgTargets, whether an SVG holds
// targets of its own; and tile, a coloured box without content.
(function (k) {
  'use strict';

  const {NAME_MAX, WORDY, q, clean, cut, cs, attr, listened, words, fileStem} = k;
  const {push, flush, boxOf, point, refFor, colourName, canvasDrawn, canvasPixels} = k;

  const SHAPES_MAX = 60; // shapes listed for an SVG scene
  const DRAWN_MAX = 40; // items listed of what a canvas shows
  const PIXELS_MAX = 50; // canvases whose pixels are read, in one snapshot
  const POINTS_MAX = 8; // vertices listed of a polygon or polyline
  const SVG_SCAN = 200; // elements of an SVG looked at for listeners
  const SCENE_MIN = 60; // the least width and height of a scene that is a target
  const FIGURE_MIN = 32; // of a figure standing alone (not a target, not in one)

  let read = 0; // canvases whose pixels were read
  // What a line of a picture the snapshot cannot read ends with (before
  // its ref): how to see it. The canvas log is Options.Observable's.
  const PICTURE_HINT = ' (screenshot to see it)';
  const CANVAS_HINT = ' (screenshot to see it; --observable lists what is drawn)';

  // canvas gives a rendered canvas a line with its box, and under it what
  // the page drew on it (see canvasDrawn.js): texts, shapes and images with
  // their colours and places. A screenshot shows the rest. A canvas whose
  // drawing is not recorded (no canvas log, the default; or drawn in ways
  // the log does not follow) but whose pixels are not blank (see
  // canvasPixels.js) is said drawn, with its main colours, and how to see
  // it: `canvas "c" drawn colours="white #ffffff, red #ff0000" box=...
  // (screenshot to see it; --observable lists what is drawn) [ref=e1]`;
  // drawn=unknown when its pixels cannot be read.
  function canvas(el, depth, cx) {
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0) || cs(el).visibility !== 'visible') return;
    flush();
    const name = cut(clean(attr(el, 'aria-label') || attr(el, 'title') || attr(el, 'id') || ''), NAME_MAX);
    const ref = ' [ref=' + refFor(el) + ']';
    const d = canvasDrawn(el, DRAWN_MAX);
    if (!d) {
      const p = read++ < PIXELS_MAX ? canvasPixels(el) : null;
      const logged = !!el.ownerDocument.defaultView[Symbol.for('webagent.canvas')];
      const drawn = !p ? '' : p.unknown ? ' drawn=unknown' : ' drawn' + colours(p.colours);
      const hint = !p ? '' : logged ? PICTURE_HINT : CANVAS_HINT;
      push(depth, 'canvas ' + q(name) + drawn + boxOf(el) + hint + ref, 'a');
      return;
    }
    push(depth, 'canvas ' + q(name) + boxOf(el) + ref, 'a');
    for (const it of d.items) push(depth + 1, drawnLine(it), 's');
    if (d.more) push(depth + 1, '… ' + d.more + ' more drawn items (screenshot to see them)', 's');
  }
  // colours is ' colours="white #ffffff, red #ff0000"', canvas colours
  // named, each name once; '' without any.
  function colours(list) {
    const byName = new Map();
    for (const c of list) {
      const n = colourName(c);
      if (n && !byName.has(n.split(' ')[0])) byName.set(n.split(' ')[0], n);
    }
    return byName.size ? ' colours=' + q([...byName.values()].join(', ')) : '';
  }

  // drawnLine writes an item drawn on a canvas as a shape of an SVG scene
  // is written, without a ref: `circle "red" center=x,y r=20 box=...`.
  function drawnLine(it) {
    let s = it.k + ' ';
    if (it.k === 'text') s += q(cut(clean(it.t), NAME_MAX)) + textColour(it.f || it.s);
    else if (it.k === 'image') s += q(words(fileStem(it.t)));
    else if (it.k === 'line') s += q(paint(it.s)); // drawn by its stroke alone
    else s += q(paintName(it.f, it.s));
    if (it.c) s += ' center=' + point(it.c[0], it.c[1]) + ' r=' + radius(it.r[0], it.r[1]);
    if (it.p) return s + ' from=' + point(it.p[0], it.p[1]) + ' to=' + point(it.p[2], it.p[3]);
    if (it.n) s += (it.k === 'polygon' ? ' sides=' : ' segments=') + it.n + (it.q ? ' ' + it.q.map((xy) => point(xy[0], xy[1])).join(' ') + (it.q.length < it.n + (it.k === 'polygon' ? 0 : 1) ? ' …' : '') : '');
    return s + ' box=' + point(it.b[0], it.b[1]) + ',' + Math.round(it.b[2]) + ',' + Math.round(it.b[3]);
  }
  // radius is a circle's radius, or an ellipse's two.
  const radius = (rx, ry) => Math.round(rx) === Math.round(ry) ? String(Math.round(rx)) : Math.round(rx) + ',' + Math.round(ry);
  // paintName names a shape by its fill, else its stroke ('blue outline');
  // a canvas's gradients and patterns by that word.
  const paint = (c) => (c === 'gradient' || c === 'pattern' ? c : colourName(c));
  const paintName = (fill, stroke) => paint(fill) || (paint(stroke) ? paint(stroke) + ' outline' : '');
  // textColour is ' colour="..."' for text in any colour but black, the
  // usual.
  const textColour = (c) => {
    const n = paint(c);
    return n && !/^rgba?\(0, 0, 0(, 1)?\)$/.test(c) ? ' colour=' + q(n) : '';
  };

  // tile gives a coloured box without content (a game board's square, a
  // colour swatch) a line with its colour and box.
  function tile(el, style, depth) {
    const c = colourName(style.backgroundColor);
    if (!c || WORDY.test(el.textContent)) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 12 || r.height < 12 || r.width > 400 || r.height > 400 || r.width > 4 * r.height || r.height > 4 * r.width) return false;
    const p = el.parentElement;
    if (p && colourName(cs(p).backgroundColor).split(' ')[0] === c.split(' ')[0]) return false;
    flush();
    push(depth, 'tile ' + q(c) + boxOf(el) + ' [ref=' + refFor(el) + ']', 'a');
    return true;
  }

  // svgScene lists the shapes of an SVG drawing (a chart, a game scene):
  // each shape's kind, colour, text and box, a circle's or ellipse's centre
  // and radius and a line's ends, with a ref (a click aims at the shape's
  // centre). role is the SVG's own when it is a target itself (a listener
  // on the svg: "click the circle's centre", "draw a line"): it gets an
  // actionable line with its box, over its shapes. Small icons, drawings
  // of paths alone (logos) and, unless a target, named images are left to
  // the img or actionable line. A figure standing alone in the text (no
  // listener, not inside a target: "name the shape") is listed from a
  // smaller size than a target's drawing, whose icons the actionable line
  // names.
  function svgScene(el, depth, cx, role) {
    const r = el.getBoundingClientRect();
    const least = role || cx.inAction ? SCENE_MIN : FIGURE_MIN;
    if (r.width < least || r.height < least) return false;
    if (!role && (attr(el, 'aria-label') || attr(el, 'role') === 'img' || el.querySelector(':scope > title'))) return false;
    const shapes = el.querySelectorAll('circle,ellipse,rect,polygon,polyline,path,line,text,image');
    if (!shapes.length) return false;
    let kinds = 0;
    for (const sh of shapes) if (sh.localName !== 'path') { kinds = 1; break; }
    if (!kinds) return false; // a drawing of paths alone: a logo
    // The shapes shown (not those of definitions, clip paths or masks).
    const lines = [];
    let n = 0;
    for (const sh of shapes) {
      if (sh.closest('defs,clipPath,mask,pattern,symbol,marker')) continue;
      const st = cs(sh);
      if (st.display === 'none' || st.visibility !== 'visible') continue;
      const b = sh.getBoundingClientRect();
      if (Math.max(b.width, b.height) < 4) continue;
      if (n++ === SHAPES_MAX) {
        lines.push(['… ' + (shapes.length - SHAPES_MAX) + ' more shapes (screenshot to see them)', 's']);
        break;
      }
      const line = shapeLine(sh, st);
      if (line) lines.push([line + ' [ref=' + refFor(sh) + ']', 'a', sh]);
    }
    if (!lines.length && !role) return false; // nothing drawn to see
    flush();
    if (role) {
      const t = el.querySelector(':scope > title');
      const name = cut(clean(attr(el, 'aria-label') || (t && t.textContent) || attr(el, 'id')), NAME_MAX) || 'svg';
      push(depth, role + ' ' + q(name) + boxOf(el) + ' [ref=' + refFor(el) + ']', 'a');
    } else {
      push(depth, 'svg' + boxOf(el), 's');
    }
    for (const [s, kind, sh] of lines) push(depth + 1, s, kind, sh);
    // Links and controls drawn in the scene, but not the shapes again.
    if (svgTargets(el)) k.walkKids(el, depth + 1, { ...cx, text: false, inAction: role || cx.inAction, scene: new Set(shapes) });
    return true;
  }

  // svgTargets reports whether an SVG holds a link, or an element with an
  // onclick or a listener (among its first SVG_SCAN elements).
  function svgTargets(el) {
    if (el.querySelector('a,[onclick]')) return true;
    const all = el.getElementsByTagName('*');
    for (let i = 0; i < all.length && i < SVG_SCAN; i++) if (listened(all[i])) return true;
    return false;
  }

  // shapeLine writes a shape of an SVG scene, but its ref: `circle "red"
  // center=120,85 r=20 box=...`, `line "black" from=10,10 to=90,90`,
  // `text "Score 3" box=...`; '' for a text without letters.
  function shapeLine(sh, st) {
    const kind = sh.localName;
    if (kind === 'text') {
      const t = clean(sh.textContent);
      return t ? 'text ' + q(cut(t, NAME_MAX)) + textColour(st.fill) + boxOf(sh) : '';
    }
    const fill = st.fill === 'none' ? '' : colourName(st.fill);
    const stroke = st.stroke === 'none' ? '' : colourName(st.stroke);
    const t = sh.querySelector('title');
    const name = t ? clean(t.textContent) : clean(attr(sh, 'aria-label'));
    // A line is drawn by its stroke alone.
    const paints = kind === 'line' ? [stroke] : [fill, stroke && !fill ? stroke + ' outline' : ''];
    const s = kind + ' ' + q([name, ...paints].filter(Boolean).join(', '));
    const m = sh.getScreenCTM();
    if (!m) return s + boxOf(sh);
    const at = (x, y) => point(m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f);
    const v = (a) => sh[a].animVal.value;
    if (kind === 'line') return s + ' from=' + at(v('x1'), v('y1')) + ' to=' + at(v('x2'), v('y2'));
    if (kind === 'circle' || kind === 'ellipse') {
      const sx = Math.hypot(m.a, m.b), sy = Math.hypot(m.c, m.d);
      const rx = kind === 'circle' ? v('r') : v('rx'), ry = kind === 'circle' ? v('r') : v('ry');
      return s + ' center=' + at(v('cx'), v('cy')) + ' r=' + radius(rx * sx, ry * sy) + boxOf(sh);
    }
    if (kind === 'polygon' || kind === 'polyline') {
      const pts = sh.points;
      const list = [];
      for (let i = 0; i < pts.numberOfItems && i < POINTS_MAX; i++) list.push(at(pts.getItem(i).x, pts.getItem(i).y));
      return s + ' points=' + pts.numberOfItems + ' ' + list.join(' ') + (pts.numberOfItems > POINTS_MAX ? ' …' : '') + boxOf(sh);
    }
    if (kind === 'path') {
      const p = pathPoints(attr(sh, 'd') || '');
      if (p.segs) return s + ' segments=' + p.segs + ' ' + p.pts.map((xy) => at(xy[0], xy[1])).join(' ') + (p.more ? ' …' : '') + boxOf(sh);
    }
    return s + boxOf(sh);
  }

  // pathPoints reads an SVG path's d: segs, its drawing commands but the
  // moves (a closing Z draws a side), and pts, the first POINTS_MAX points
  // it passes through (where each command starts and ends, not a curve's
  // control points), in the path's own units; more when there are others.
  function pathPoints(d) {
    const ARGS = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };
    const tok = d.match(/[MLHVCSQTAZ]|[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi) || [];
    const pts = [];
    let segs = 0, more = false, x = 0, y = 0, x0 = 0, y0 = 0, cmd = '', i = 0;
    const mark = () => {
      const last = pts[pts.length - 1];
      if (last && last[0] === x && last[1] === y) return;
      if (pts.length < POINTS_MAX) pts.push([x, y]);
      else more = true;
    };
    while (i < tok.length) {
      if (/[a-z]/i.test(tok[i])) cmd = tok[i++];
      else if (!cmd) return { segs: 0, pts: [] };
      const c = cmd.toLowerCase(), rel = cmd !== cmd.toUpperCase(), n = ARGS[c];
      if (c === 'z') { segs++; x = x0; y = y0; cmd = ''; continue; }
      if (i + n > tok.length) break;
      const a = tok.slice(i, i + n).map(Number);
      i += n;
      const dx = rel ? x : 0, dy = rel ? y : 0;
      if (c === 'h') x = a[0] + dx;
      else if (c === 'v') y = a[0] + dy;
      else { x = a[n - 2] + dx; y = a[n - 1] + dy; }
      if (c === 'm') { x0 = x; y0 = y; cmd = rel ? 'l' : 'L'; } else segs++;
      mark();
    }
    return { segs, pts, more };
  }

  return {canvas, tile, svgScene, svgTargets, PICTURE_HINT};
})
