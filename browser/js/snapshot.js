// The snapshot walker. Go evaluates (this function)(floor, budget) in the
// page's main frame, and in each cross-origin frame's own target, and takes
// the result by value.
//
// It writes an indented outline of the rendered page. Each element the model
// can act on gets its own line, `role "name" states [ref=eN]`, and a ref
// from a registry kept on the top window: the same element keeps its ref
// across snapshots, and numbers start above floor so that a ref from a page
// that was left is never reused. The registry also resolves refs for the
// actions (resolve), names elements in their outcomes (describe) and gives
// a ref to an element an outcome points to (refFor).
//
// budget is the size limit in estimated tokens (est, in snapFit.js). When
// the whole outline is larger, every actionable element and structure
// line (select options, tables' and dialogs' names, frames) is kept; text
// and headings are kept by their distance from the viewport (headings from
// farther, the first items of long lists and tables before the rest), and
// each region of lines left out becomes one line saying what it held and
// how to reach it. Separators without a letter or digit are never shown.
//
// Cross-origin frames cannot be read from here: each becomes a line
// `iframe "name"` followed by \x01 and its index in the registry's
// xframes, which Go replaces with the frame's own outline.
//
// The walker is a composition of programs, one job each: snapText reads
// page text, snapRole tells what the model can act on, snapName names it,
// snapStates gives its states, snapRefs keeps the registry of refs,
// snapOut holds the outline being written, snapDraw writes drawings
// (canvases, SVG scenes, coloured tiles), snapFigure figures drawn with
// boxes (grids of cells, 3-D faces), snapWalk walks the page and
// snapFit fits the outline to the budget. The programs that work on
// elements share a kit, an object of one snapshot's functions and limits:
// each is given the kit as the programs before it left it and adds what
// it returns.
/* global colourName, canvasDrawn, canvasPixels, humanCheck, snapText, snapRole, snapName, snapStates, snapRefs, snapOut, snapDraw, snapFigure, snapWalk, snapFit */
(function (floor, budget) {
  'use strict';

  const k = {colourName, canvasDrawn, canvasPixels}; // the kit
  for (const part of [snapText, snapRole, snapName, snapStates]) Object.assign(k, part(k));
  const reg = snapRefs(floor);
  reg.describe = k.describe;
  reg.slider = k.slider;
  reg.trackOf = k.trackOf;
  k.refFor = reg.refFor;
  for (const part of [snapOut, snapDraw, snapFigure, snapWalk]) Object.assign(k, part(k));
  const {L, groups, xframes} = k.out;

  // A document being replaced has no element yet: Go waits for the new one.
  if (!document.documentElement) return null;
  const T0 = performance.now();
  document.documentElement.getBoundingClientRect();
  const T1 = performance.now();
  const partial = k.walkPage(T1);
  const T2 = performance.now();
  reg.xframes = xframes;

  const shown = snapFit(L, groups, budget);
  reg.regions = shown.regions || new Map();
  reg.shown = new Set();
  for (const l of L) if (l.k === 'a') reg.shown.add(l.s.slice(l.s.lastIndexOf('[ref=') + 5, -1));
  return {
    url: location.href,
    title: document.title,
    contentType: document.contentType,
    text: shown.text,
    tokens: Math.round(shown.tokens),
    xframes: xframes.length,
    omitted: shown.omitted,
    partial,
    maxRef: reg.next - 1,
    check: humanCheck(),
    timing: [T1 - T0, T2 - T1, performance.now() - T2],
  };
})
