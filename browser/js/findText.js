// findText.js finds a text in the rendered text of the element it is
// called on (the page's body), as select_text without a ref does: white
// space collapsed on both sides (textMap). Without pick it says how often
// the text occurs and where, for the first few places: the block element
// that holds the place (with a ref from the page's registry, so that the
// model can name it), the place's offsets in that element's text, and the
// words around it. With pick it returns the element that holds the first
// place. It changes nothing on the page.
/* global textMap */
(function (want, pick) {
  const root = this, win = root.ownerDocument.defaultView;
  const PLACES = 5, AROUND = 30;
  const reg = win[Symbol.for('webagent.refs')];
  const {norm, nodes, offs} = textMap(root);
  const w = (want || '').replace(/\s+/g, ' ').trim();
  const at = [];
  for (let i = w ? norm.indexOf(w) : -1; i >= 0; i = norm.indexOf(w, i + w.length)) at.push(i);
  // holder is the nearest element around the place that is not inline:
  // a paragraph, a list item, a cell.
  const holder = (s) => {
    const last = nodes[s + w.length - 1];
    let h = nodes[s].parentElement;
    while (h && h !== root && !h.contains(last)) h = h.parentElement;
    while (h && h !== root && ['inline', 'contents'].includes(win.getComputedStyle(h).display)) h = h.parentElement;
    return h || root;
  };
  if (pick) return at.length ? holder(at[0]) : null;
  if (!at.length) return {count: 0};
  // A place's offsets and words are the holder's, as select_text with its
  // ref counts them.
  const places = at.slice(0, PLACES).map((s) => {
    const h = holder(s), m = textMap(h);
    let from = 0;
    while (from < m.nodes.length && !(m.nodes[from] === nodes[s] && m.offs[from] === offs[s])) from++;
    return {
      ref: reg && reg.refFor ? reg.refFor(h) : '',
      desc: reg ? reg.describe(h) : h.localName,
      start: from, end: from + w.length,
      before: m.norm.slice(Math.max(0, from - AROUND), from), after: m.norm.slice(from + w.length, from + w.length + AROUND),
    };
  });
  return {count: at.length, places: places};
})
