// snapFit.js: the snapshot's fitting to its budget (see snapshot.js).
// Given the walker's line records (L), its repeated structures (groups)
// and the budget in estimated tokens, it returns the text of the outline,
// its tokens, the number of lines left out, and the regions that hold
// them (read_region): when the whole outline is over the budget, long
// names and values are cut, text and headings are kept by their distance
// from the viewport, actionable lines past their share are summarised,
// and each region of lines left out becomes one line saying what it held
// and how to reach it.
(function (L, groups, budget) {
  'use strict';

  // Only the top document's folded regions get a handle: a cross-origin
  // frame's outline is walked in its own target.
  const TOP = window === window.top;
  const EST_SCALE = 0.93; // see est
  const MARKER_MIN = 10; // runs of text cheaper than this are kept, not summarised
  const DIALOG_TEXT = 400; // tokens of dialogs' text kept before any other text
  const ACT_SHARE = 2; // actionable lines may take this many budgets; the farthest from the viewport are summarised past it

  // est estimates the tokens (o200k_base) of a line, on the high side:
  // a word is a token per three letters past its first two, a number a
  // token per three digits, punctuation and other scripts about a token a
  // character. EST_SCALE was calibrated on the saved pages of the
  // benchmark corpus so that the estimate is above the real count on every
  // page (by 4% on the closest, 25% on the median one).
  const isLetter = (d) => (d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 0xc0 && d < 0x250) || (d >= 0x370 && d < 0x530);
  function est(s) {
    let t = 1;
    const n = s.length;
    for (let i = 0; i < n;) {
      const c = s.charCodeAt(i);
      let j = i + 1;
      if (isLetter(c)) {
        while (j < n && isLetter(s.charCodeAt(j))) j++;
        t += j - i > 2 ? 1 + Math.floor((j - i - 2) / 3) : 1;
      } else if (c >= 48 && c <= 57) {
        while (j < n && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
        t += Math.ceil((j - i) / 3);
      } else if (c === 32) {
        while (j < n && s.charCodeAt(j) === 32) j++;
        if (j - i > 1) t++;
      } else {
        t += c < 128 ? 0.8 : 1.2;
      }
      i = j;
    }
    return t * EST_SCALE;
  }

  // Fit the budget.
  const vh = window.innerHeight || 800;
  const indent = (d) => '  '.repeat(d);
  // yOf is the top of a record's element in the main viewport.
  const yOf = (l) => {
    if (l.y !== l.y) l.y = l.el && l.el.getBoundingClientRect ? l.el.getBoundingClientRect().top + l.off : 0;
    return l.y;
  };
  const cost = L.map((l) => est(indent(l.d) + l.s));
  let total = 0;
  for (const c of cost) total += c;
  let keep = null;
  let shown = 0;
  if (total > budget) {
    for (let i = 0; i < L.length; i++) {
      const l = L[i];
      if (l.mid === undefined) continue;
      l.s = l.mid;
      const c = est(indent(l.d) + l.s);
      total += c - cost[i];
      cost[i] = c;
    }
  }
  if (total > budget) {
    // Text by priority: in the viewport, then below it, then above it (read
    // already, most likely), headings from four times as far; the first
    // items of long lists and tables before the rest.
    const dist = (l) => {
      const y = yOf(l);
      if (l.dl) return -1;
      let dd = y < 0 ? -y * 2 : y > vh ? y - vh : 0;
      if (l.k === 'h') dd /= 4;
      if (l.g >= 0) dd += 1e9;
      return dd;
    };
    const order = [];
    let fixed = 0, dialogCost = 0;
    for (let i = 0; i < L.length; i++) {
      const l = L[i];
      if (l.k !== 't' && l.k !== 'h') { fixed += cost[i]; continue; }
      order.push(i);
      // A dialog's words (a consent dialog's terms, a confirmation's
      // question) come first, up to DIALOG_TEXT tokens of them: the dialog
      // stands between the model and the page.
      if (l.dl && dialogCost + cost[i] <= DIALOG_TEXT) dialogCost += cost[i]; else l.dl = false;
    }
    // Positions: on a long page, of every fourth line; the lines between
    // take the position of the one before (they follow it in the page).
    const stride = order.length > 400 ? 4 : 1;
    for (let j = 0, y = 0; j < order.length; j++) {
      const l = L[order[j]];
      if (j % stride === 0) y = yOf(l); else l.y = y;
    }
    const dd = order.map((i) => dist(L[i]));
    const idx = order.map((_, j) => j).sort((a, b) => dd[a] - dd[b] || a - b);
    if (fixed > budget) {
      // The actionable lines alone are over the budget: shorten the long
      // names of those far from the viewport.
      for (let i = 0; i < L.length; i++) {
        const l = L[i];
        if (l.short === undefined) continue;
        const y = yOf(l);
        if (y > -vh && y < 2 * vh) continue;
        l.s = l.short;
        const c = est(indent(l.d) + l.s);
        fixed += c - cost[i];
        cost[i] = c;
      }
    }
    // A hard cap: past ACT_SHARE budgets of actionable lines, those
    // farthest from the viewport are summarised with their count (scroll
    // to bring them near).
    const drop = new Uint8Array(L.length);
    if (fixed > ACT_SHARE * budget) {
      const acts = [];
      for (let i = 0; i < L.length; i++) if (L[i].k === 'a') acts.push(i);
      // Positions of every stride-th line only (lines follow each other
      // down the page): thousands of boxes, not hundreds of thousands.
      const stride = Math.max(1, Math.ceil(acts.length / 2000));
      let y = 0;
      const ad = acts.map((i, j) => { if (j % stride === 0) y = yOf(L[i]); return y < 0 ? -y * 2 : y > vh ? y - vh : 0; });
      const ord = acts.map((_, j) => j).sort((a, b) => ad[a] - ad[b] || a - b);
      let actCost = 0;
      for (const i of acts) { actCost += cost[i]; drop[i] = 1; }
      let used = 0;
      const cap = ACT_SHARE * budget - (fixed - actCost);
      for (const j of ord) {
        const i = acts[j];
        if (used + cost[i] > cap) break;
        drop[i] = 0;
        used += cost[i];
      }
      fixed -= actCost - used;
    }
    let room = budget - fixed;
    for (let pass = 0; pass < 4; pass++) {
      keep = new Uint8Array(L.length);
      for (let i = 0; i < L.length; i++) if (L[i].k !== 't' && L[i].k !== 'h' && !drop[i]) keep[i] = 1;
      let used = 0;
      for (const j of idx) {
        const i = order[j];
        if (used + cost[i] > room) break;
        keep[i] = 1;
        used += cost[i];
      }
      const out = render(keep);
      const t = out.tokens;
      if (t <= budget || room <= 0) { shown = out; break; }
      room -= t - budget;
      shown = out;
    }
  } else {
    shown = render(null);
  }

  // render writes the kept lines. The lines left out of a region (up to
  // the next kept line that is not an actionable element, or the end of a
  // repeated structure) become one line at its start,
  // saying what they held and how to reach them; the region's actionable
  // lines follow it. A region that holds little is cheaper kept.
  function render(keep) {
    const out = [];
    let tokens = 0;
    let omitted = 0;
    const regions = new Map();
    const line = (i) => {
      out.push(indent(L[i].d) + L[i].s);
      tokens += cost[i];
    };
    for (let i = 0; i < L.length;) {
      if (!keep || keep[i]) {
        line(i++);
        continue;
      }
      let end = i, n = 0, words = 0, c = 0, heads = 0, same = true, acts = 0, role = '';
      const g = L[i].g;
      const its = new Set();
      for (let j = i; j < L.length; j++) {
        const l = L[j];
        if (keep[j]) {
          if (l.k !== 'a') break; // kept text, a heading, a structure line
          continue;
        }
        if ((l.g >= 0 || g >= 0) && l.g !== g) break; // another repeated structure
        n++;
        if (l.k === 'h') heads++;
        if (l.k === 'a') {
          const r = l.s.slice(0, l.s.indexOf(' '));
          role = acts === 0 || r === role ? r : '*';
          acts++;
          c += cost[j];
          end = j + 1;
          continue;
        }
        words += l.s.split(' ').length;
        c += cost[j];
        if (l.g !== g) same = false;
        its.add(l.it);
        end = j + 1;
      }
      if (c <= MARKER_MIN) {
        while (i < end) line(i++);
        continue;
      }
      omitted += n;
      let last = end - 1;
      while (keep[last]) last--;
      const y0 = yOf(L[i]), y1 = yOf(L[last]);
      const where = y0 > vh ? ' below' : y1 < 0 ? ' above' : y1 > vh ? ' here and below' : '';
      const how = y1 > vh ? 'scroll down or extract' : y0 < 0 ? 'scroll up or extract' : 'extract';
      let s;
      if (acts > 0) {
        const what = role === '*' ? 'elements you can act on' : role + (role.endsWith('x') ? 'es' : 's');
        s = '… ' + acts + ' more ' + what + (n > acts ? ' and ' + (n - acts) + ' lines of text' : '') + where +
          ' not shown (' + (y1 > vh ? 'scroll down' : y0 < 0 ? 'scroll up' : 'scroll') + ' to bring them near, and take a new snapshot)';
      } else if (same && g >= 0) {
        const gr = groups[g];
        s = '… ' + its.size + ' more ' + gr.unit + (gr.of ? ' of ' + gr.of : '') + where + ', text not shown (' + how + ' to read them)';
      } else {
        s = '… ' + n + (n === 1 ? ' line' : ' lines') + ' of text (' + words + ' words' +
          (heads ? ', ' + heads + (heads === 1 ? ' heading' : ' headings') : '') + ')' + where + ' not shown (' + how + ' to read)';
      }
      if (TOP) {
        // A handle to read the region's lines whole (read_region).
        const id = 'r' + (regions.size + 1);
        const lines = [];
        for (let j = i; j < end; j++) if (!keep[j]) lines.push(indent(Math.max(0, L[j].d - L[i].d)) + L[j].s);
        regions.set(id, lines.join('\n'));
        s += ' [region=' + id + ']';
      }
      s = indent(L[i].d) + s;
      out.push(s);
      tokens += est(s);
      for (; i < end; i++) if (keep[i]) line(i);
    }
    return { text: out.join('\n'), tokens, omitted, regions };
  }

  return shown;
})
