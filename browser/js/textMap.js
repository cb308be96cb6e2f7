// textMap.js reads the rendered text of an element (root) as select_text
// counts it: its runs of white space collapsed to one space and trimmed
// (norm), and for each character of norm the text node (nodes) and the
// offset in it (offs) it comes from. Text that is not rendered, and the
// text of scripts, styles, fields and selects, is left out.
(function (root) {
  const nodes = [], offs = [];
  let norm = '', space = true;
  const tw = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = tw.nextNode(); n; n = tw.nextNode()) {
    const p = n.parentElement;
    if (p && (p.closest('script,style,noscript,textarea,select') || !p.checkVisibility({checkVisibilityCSS: true}))) continue;
    const d = n.data;
    for (let i = 0; i < d.length; i++) {
      if (/\s/.test(d[i])) {
        if (!space) { norm += ' '; nodes.push(n); offs.push(i); space = true; }
        continue;
      }
      norm += d[i]; nodes.push(n); offs.push(i); space = false;
    }
  }
  if (norm.endsWith(' ')) { norm = norm.slice(0, -1); nodes.pop(); offs.pop(); }
  return {norm: norm, nodes: nodes, offs: offs};
})
