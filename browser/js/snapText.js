// snapText.js: the limits of the snapshot walker's names and its reading
// of page text, the first program of the walker (see snapshot.js). It
// returns its functions for the kit that the walker's programs share:
// quoting and cutting names, computed styles and attributes, the children
// of the rendered (flat) tree, and the visible text of a subtree.
(function () {
  'use strict';

  const NAME_MAX = 100; // characters of an accessible name on a page over its budget
  const NAME_LONG = 1000; // characters of an accessible name on a page within its budget
  const TEXT_SCAN = 1200; // characters read when computing a name
  const SHORT_NAME = 40; // characters of a name far from the viewport on a page over its budget
  const WORDY = /[\p{L}\p{N}]/u;
  // Roles whose name comes from their content; the content's text is then
  // not repeated under them.
  const NAME_FROM_CONTENT = new Set([
    'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'heading',
    'clickable', 'droptarget',
  ]);
  const SKIP = new Set([
    'script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title',
    'base', 'video', 'audio', 'object', 'embed', 'param', 'source',
    'track', 'datalist',
  ]);
  const INLINE = new Set([
    'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em',
    'font', 'i', 'ins', 'kbd', 'label', 'mark', 'q', 's', 'samp', 'small',
    'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
  ]);

  // Names and values are page text: quoted, and never passing for a ref
  // or a region handle.
  const q = (v) => JSON.stringify(typeof v === 'string' ? v.replace(/\[(ref|region)=/g, '[$1:') : v);
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const cut = (s, n) => {
    if (s.length <= n) return s;
    let c = s.slice(0, n - 1);
    const last = c.charCodeAt(c.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) c = c.slice(0, -1);
    return c.trimEnd() + '…';
  };
  const cs = (el) => el.ownerDocument.defaultView.getComputedStyle(el);
  const isInline = (display) => display.startsWith('inline') || display.startsWith('ruby');
  const attr = (el, n) => el.getAttribute(n);

  // The children in the rendered (flat) tree: open shadow roots replace
  // the light children, slots show what is assigned to them.
  function kids(n) {
    if (n.nodeType === 1) {
      if (n.shadowRoot) return n.shadowRoot.childNodes;
      if (n.localName === 'slot') return n.assignedNodes({ flatten: true });
    }
    return n.childNodes;
  }
  // eachKid calls f on the children of n in the flat tree, as kids, and
  // stops when f returns true.
  function eachKid(n, f) {
    if (n.nodeType === 1) {
      if (n.shadowRoot) n = n.shadowRoot;
      else if (n.localName === 'slot') {
        for (const c of n.assignedNodes({ flatten: true })) if (f(c)) return;
        return;
      }
    }
    for (let c = n.firstChild; c; c = c.nextSibling) if (f(c)) return;
  }

  function hasArea(el) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) return true;
    let i = 0;
    for (const c of el.children) {
      const cr = c.getBoundingClientRect();
      if (cr.width > 0 && cr.height > 0) return true;
      if (++i > 10) break;
    }
    return false;
  }

  // The visible text of a subtree, for names and table cells. Form controls
  // are left out; an element's aria-label stands for its content.
  let textCut = false; // the last textOf stopped before the end
  function textOf(root, skip) {
    let s = '';
    textCut = false;
    const visit = (n) => {
      if (s.length > TEXT_SCAN) { textCut = true; return; }
      if (n.nodeType === 3) { s += n.data; return; }
      if (n.nodeType === 11) { for (const c of n.childNodes) visit(c); return; }
      if (n.nodeType !== 1 || n === skip) return;
      const tag = n.localName;
      if (SKIP.has(tag) || tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'canvas') return;
      if (attr(n, 'aria-hidden') === 'true') return;
      const st = cs(n);
      if (st.display === 'none' || st.visibility !== 'visible') return;
      if (n !== root) {
        const al = clean(attr(n, 'aria-label'));
        if (al) { s += ' ' + al + ' '; return; }
      }
      if (tag === 'img') { s += ' ' + (attr(n, 'alt') || '') + ' '; return; }
      if (tag === 'svg') {
        const t = n.querySelector('title');
        if (t) s += ' ' + t.textContent + ' ';
        else for (const x of n.querySelectorAll('text')) s += ' ' + x.textContent + ' ';
        return;
      }
      const block = !INLINE.has(tag);
      if (block) s += ' ';
      for (const c of kids(n)) visit(c);
      if (block) s += ' ';
    };
    visit(root);
    return clean(s);
  }

  // contentOf is textOf(el), remembered for the element last asked about.
  let memoEl = null, memoText = '', memoCut = false;
  function contentOf(el) {
    if (memoEl !== el) { memoEl = el; memoText = textOf(el, null); memoCut = textCut; }
    return memoText;
  }
  // said reports whether an element's name says all of its content, so
  // that the content is not repeated under it.
  const said = (el, role) => NAME_FROM_CONTENT.has(role) && contentOf(el).length <= NAME_LONG && !memoCut;

  return {
    NAME_MAX, NAME_LONG, SHORT_NAME, WORDY, NAME_FROM_CONTENT, SKIP, INLINE,
    q, clean, cut, cs, isInline, attr, kids, eachKid, hasArea, textOf, contentOf, said,
  };
})
