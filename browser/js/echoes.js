// echoes.js counts where text shows in the page's own text (not in
// fields' values), and names the last element that shows it: the deepest
// element holding its last occurrence, by its text. Typing compares the
// count before and after the keys, to tell a page that takes the keys
// itself and echoes them elsewhere (a terminal, a custom editor) from one
// that rejected them.
(function (text) {
  const body = this.ownerDocument.body;
  if (!body || !text) return {n: 0, where: ''};
  const all = body.textContent;
  const n = all.split(text).length - 1;
  if (n === 0) return {n, where: ''};
  let el = body;
  for (;;) {
    let next = null;
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) {
      if (c.localName !== 'script' && c.localName !== 'style' && c.textContent.includes(text)) { next = c; break; }
    }
    if (!next) break;
    el = next;
  }
  // The element's line: its parent's text when it holds the text alone (a
  // terminal's command beside its prompt).
  let line = el.textContent.replace(/\s+/g, ' ').trim();
  if (line === text.trim() && el.parentElement && el.parentElement !== body) {
    line = el.parentElement.textContent.replace(/\s+/g, ' ').trim();
  }
  if (line.length > 80) line = line.slice(0, 79) + '…';
  return {n, where: line};
})
