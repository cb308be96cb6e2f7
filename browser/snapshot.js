// The snapshot walker. Go evaluates (this function)(floor, maxChars) in the
// page's main frame and takes the result by value.
//
// It writes an indented outline of the rendered page. Each element the model
// can act on gets its own line, `role "name" states [ref=eN]`, and a ref
// from a registry kept on the top window: the same element keeps its ref
// across snapshots, and numbers start above floor so that a ref from a page
// that was left is never reused. The registry also resolves refs for the
// actions (resolve) and names elements in their outcomes (describe).
(function (floor, maxChars) {
  'use strict';

  const KEY = Symbol.for('webagent.refs');
  const NAME_MAX = 100; // characters of an accessible name
  const VALUE_MAX = 150; // characters of a value
  const CELL_MAX = 120; // characters of a table cell
  const OPTIONS_MAX = 25; // options listed for a select
  const TEXT_SCAN = 400; // characters read when computing a name

  const INTERACTIVE_ROLES = new Set([
    'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'textbox',
    'searchbox', 'slider', 'spinbutton', 'listbox', 'treeitem',
  ]);
  // Roles whose name comes from their content; the content's text is then
  // not repeated under them.
  const NAME_FROM_CONTENT = new Set([
    'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'heading',
    'clickable',
  ]);
  const SKIP = new Set([
    'script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title',
    'base', 'video', 'audio', 'canvas', 'object', 'embed', 'param', 'source',
    'track', 'datalist',
  ]);
  const INLINE = new Set([
    'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em',
    'font', 'i', 'ins', 'kbd', 'label', 'mark', 'q', 's', 'samp', 'small',
    'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
  ]);
  const NO_VALUE_TYPES = new Set([
    'checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden',
  ]);
  const INTERACTIVE_SELECTOR = 'a[href],button,input:not([type=hidden]),select,' +
    'textarea,summary,[contenteditable],[onclick],[role=button],[role=link],' +
    '[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch]';

  const q = JSON.stringify;
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
  function textOf(root, skip) {
    let s = '';
    const visit = (n) => {
      if (s.length > TEXT_SCAN) return;
      if (n.nodeType === 3) { s += n.data; return; }
      if (n.nodeType === 11) { for (const c of n.childNodes) visit(c); return; }
      if (n.nodeType !== 1 || n === skip) return;
      const tag = n.localName;
      if (SKIP.has(tag) || tag === 'input' || tag === 'select' || tag === 'textarea') return;
      if (attr(n, 'aria-hidden') === 'true') return;
      if (!n.checkVisibility({ checkVisibilityCSS: true }) && cs(n).display !== 'contents') return;
      if (n !== root) {
        const al = clean(attr(n, 'aria-label'));
        if (al) { s += ' ' + al + ' '; return; }
      }
      if (tag === 'img') { s += ' ' + (attr(n, 'alt') || '') + ' '; return; }
      if (tag === 'svg') {
        const t = n.querySelector('title');
        if (t) s += ' ' + t.textContent + ' ';
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

  function nativeRole(el, tag) {
    const explicit = (attr(el, 'role') || '').trim().split(/\s+/)[0].toLowerCase();
    if (INTERACTIVE_ROLES.has(explicit)) return explicit;
    switch (tag) {
      case 'a': case 'area':
        if (el.hasAttribute('href')) return 'link';
        break;
      case 'button':
        return 'button';
      case 'input':
        switch ((el.type || 'text').toLowerCase()) {
          case 'hidden': return null;
          case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
          case 'checkbox': return 'checkbox';
          case 'radio': return 'radio';
          case 'range': return 'slider';
          case 'number': return 'spinbutton';
          case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
          default: return el.hasAttribute('list') ? 'combobox' : 'textbox';
        }
      case 'select':
        return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'textarea':
        return 'textbox';
      case 'summary':
        if (el.parentElement && el.parentElement.localName === 'details') return 'button';
        break;
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
    return null;
  }

  // classify returns the role of an element the model can act on, or null.
  // cx.cursor is the parent's cursor; cx.inAction is set inside another
  // actionable element.
  function classify(el, tag, style, cx) {
    const r = nativeRole(el, tag);
    if (r) return r;
    if (tag === 'label') {
      // A label that stands for a hidden checkbox or radio (a styled
      // control): clicking the label toggles it.
      const c = el.control;
      if (c && (c.type === 'checkbox' || c.type === 'radio') && !c.disabled && !c.checkVisibility()) return c.type;
      return null;
    }
    if (cx.inAction || tag === 'body' || tag === 'html') return null;
    if (el.hasAttribute('onclick') || typeof el.onclick === 'function') return 'clickable';
    if (style.cursor === 'pointer' && cx.cursor !== 'pointer' && !el.querySelector(INTERACTIVE_SELECTOR)) return 'clickable';
    return null;
  }

  function accName(el, role, tag) {
    const ids = attr(el, 'aria-labelledby');
    if (ids) {
      const root = el.getRootNode();
      const t = clean(ids.split(/\s+/).map((id) => {
        const r = root.getElementById ? root.getElementById(id) : null;
        return r ? textOf(r, null) : '';
      }).join(' '));
      if (t) return t;
    }
    const al = clean(attr(el, 'aria-label'));
    if (al) return al;
    if (tag === 'label') return textOf(el, el.control);
    if (el.labels && el.labels.length) {
      const t = clean(Array.from(el.labels).map((l) => textOf(l, el)).join(' '));
      if (t) return t;
    }
    if (tag === 'input') {
      const ty = el.type;
      if (ty === 'submit' || ty === 'reset' || ty === 'button') {
        const v = clean(el.value) || (ty === 'submit' ? 'Submit' : ty === 'reset' ? 'Reset' : '');
        if (v) return v;
      }
      if (ty === 'image') {
        const a = clean(attr(el, 'alt'));
        if (a) return a;
      }
    }
    if (tag === 'img' || tag === 'area') {
      const a = clean(attr(el, 'alt'));
      if (a) return a;
    }
    if (NAME_FROM_CONTENT.has(role)) {
      const t = textOf(el, null);
      if (t) return t;
    }
    const ti = clean(attr(el, 'title'));
    if (ti) return ti;
    const ph = clean(attr(el, 'placeholder') || attr(el, 'aria-placeholder'));
    if (ph) return ph;
    if (role === 'link') return clean(attr(el, 'href'));
    return '';
  }

  function states(el, role, tag, active) {
    const s = [];
    const ctl = tag === 'label' && el.control ? el.control : el;
    let v = '';
    if (tag === 'input') {
      if (!NO_VALUE_TYPES.has(el.type)) v = el.type === 'password' ? (el.value ? '••••••••' : '') : el.value;
    } else if (tag === 'textarea') {
      v = el.value;
    } else if (tag === 'select') {
      const o = role === 'combobox' ? el.selectedOptions[0] : null;
      if (o) v = clean(o.label);
    } else if (role === 'textbox' && el.isContentEditable) {
      v = clean(el.innerText);
    } else {
      v = attr(el, 'aria-valuetext') || attr(el, 'aria-valuenow') || '';
    }
    if (v) s.push('value=' + q(cut(v, VALUE_MAX)));
    if (ctl.localName === 'input' && (ctl.type === 'checkbox' || ctl.type === 'radio')) {
      if (ctl.indeterminate) s.push('mixed');
      else if (ctl.checked) s.push('checked');
    } else {
      const ac = attr(el, 'aria-checked');
      if (ac === 'true') s.push('checked');
      else if (ac === 'mixed') s.push('mixed');
    }
    if (attr(el, 'aria-selected') === 'true') s.push('selected');
    if (attr(el, 'aria-pressed') === 'true') s.push('pressed');
    const ae = attr(el, 'aria-expanded');
    if (ae === 'true') s.push('expanded');
    else if (ae === 'false') s.push('collapsed');
    else if (tag === 'summary') s.push(el.parentElement.open ? 'expanded' : 'collapsed');
    if (ctl.matches(':disabled') || attr(el, 'aria-disabled') === 'true') s.push('disabled');
    if (((tag === 'input' || tag === 'textarea') && el.readOnly && !NO_VALUE_TYPES.has(el.type)) ||
      attr(el, 'aria-readonly') === 'true') s.push('readonly');
    if (ctl.required || attr(el, 'aria-required') === 'true') s.push('required');
    if (el === active) s.push('focused');
    return s;
  }

  // live reports whether el is still in the page: connected, and in a
  // document that is still shown (its frames were not navigated away).
  function live(el) {
    if (!el.isConnected) return false;
    let doc = el.ownerDocument;
    while (doc !== document) {
      const win = doc.defaultView;
      if (!win) return false;
      let fe = null;
      try { fe = win.frameElement; } catch (e) { return false; }
      if (!fe || !fe.isConnected || fe.contentDocument !== doc) return false;
      doc = fe.ownerDocument;
    }
    return true;
  }

  function resolve(ref) {
    const w = reg.byRef.get(ref);
    if (!w) return 'unknown';
    const el = w.deref();
    if (!el || !live(el)) return 'stale';
    return el;
  }

  function describe(el) {
    const tag = el.localName;
    const role = classify(el, tag, cs(el), { cursor: 'auto' }) || tag;
    return role + ' ' + q(cut(accName(el, role, tag), NAME_MAX));
  }

  function deepActive() {
    let a = document.activeElement;
    while (a) {
      if (a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
      if (a.localName === 'iframe' || a.localName === 'frame') {
        let d = null;
        try { d = a.contentDocument; } catch (e) { /* cross-origin */ }
        if (d && d.activeElement && d.activeElement !== d.body) { a = d.activeElement; continue; }
      }
      break;
    }
    return a;
  }

  // The registry of refs lives on the top window, so it is new for every
  // document and shared by its same-origin frames.
  let reg = window[KEY];
  if (!reg) {
    reg = { next: floor + 1, byEl: new WeakMap(), byRef: new Map() };
    Object.defineProperty(window, KEY, { value: reg, configurable: true });
  }
  if (reg.next <= floor) reg.next = floor + 1;
  reg.resolve = resolve;
  reg.describe = describe;
  for (const [r, w] of reg.byRef) if (!w.deref()) reg.byRef.delete(r);

  function refFor(el) {
    let r = reg.byEl.get(el);
    if (!r) {
      r = 'e' + reg.next++;
      reg.byEl.set(el, r);
      reg.byRef.set(r, new WeakRef(el));
    }
    return r;
  }

  // Output: lines, plus a buffer for the inline text of the current block.
  const lines = [];
  let size = 0;
  let truncated = false;
  let buf = '';
  let bufDepth = 0;
  let bullet = false; // the next text line starts a list item

  function push(depth, s, isText) {
    if (truncated) return;
    if (bullet) {
      if (isText) s = '- ' + s;
      bullet = false;
    }
    const line = '  '.repeat(depth) + s;
    if (size + line.length + 1 > maxChars) { truncated = true; return; }
    size += line.length + 1;
    lines.push(line);
  }
  function addText(depth, t) {
    if (!buf) bufDepth = depth;
    buf += t;
  }
  function flush() {
    if (!buf) return;
    const t = clean(buf);
    buf = '';
    // Page text must not pass for a ref.
    if (t) push(bufDepth, t.replace(/\[ref=/g, '[ref:'), true);
  }

  const active = deepActive();
  const rootCx = { text: true, hidden: false, inAction: false, cursor: 'auto', listDepth: 0 };

  function walk(n, depth, cx) {
    if (truncated) return;
    if (n.nodeType === 3) {
      if (cx.text && !cx.hidden) addText(depth, n.data);
      return;
    }
    if (n.nodeType === 11) { walkKids(n, depth, cx); return; }
    if (n.nodeType !== 1) return;
    try {
      element(n, depth, cx);
    } catch (e) {
      // An element the walker cannot handle is left out, not the page.
    }
  }

  function walkKids(n, depth, cx) {
    for (const c of kids(n)) walk(c, depth, cx);
  }

  function element(el, depth, cx) {
    const tag = el.localName;
    if (SKIP.has(tag) || attr(el, 'aria-hidden') === 'true') return;
    if (tag === 'input' && el.type === 'hidden') return;
    const style = cs(el);
    if (style.display === 'none') return;
    const hidden = style.visibility !== 'visible';
    if (style.display === 'contents') {
      walkKids(el, depth, { ...cx, hidden });
      return;
    }
    if (!el.checkVisibility()) return;
    const r = el.getBoundingClientRect();
    const area = r.width > 0 && r.height > 0;
    if (!area && style.overflowX !== 'visible' && style.overflowY !== 'visible') return;
    const inline = isInline(style.display);
    if (!inline) flush();
    const kcx = { ...cx, hidden, cursor: style.cursor };

    if (tag === 'br' || tag === 'hr') { flush(); return; }
    if (tag === 'iframe' || tag === 'frame') {
      if (area && !hidden) frame(el, depth, cx);
      return;
    }
    if (tag === 'table' && cx.text && !isLayoutTable(el)) {
      table(el, depth, cx);
      return;
    }

    const role = classify(el, tag, style, cx);
    if (role && !hidden && hasArea(el)) {
      actionable(el, role, tag, depth, kcx);
      return;
    }

    const explicit = attr(el, 'role');
    if (cx.text && (/^h[1-6]$/.test(tag) || explicit === 'heading')) {
      heading(el, tag, depth, kcx);
      return;
    }
    if ((tag === 'dialog' && el.open) || explicit === 'dialog' || explicit === 'alertdialog') {
      flush();
      const name = cut(accName(el, 'dialog', tag), NAME_MAX);
      push(depth, name ? 'dialog ' + q(name) : 'dialog', false);
      walkKids(el, depth + 1, kcx);
      flush();
      return;
    }
    if (tag === 'img' || tag === 'svg' || explicit === 'img') {
      if (cx.text && !hidden) {
        let name = accName(el, 'img', tag);
        if (!name && tag === 'svg') {
          const t = el.querySelector('title');
          name = t ? clean(t.textContent) : '';
        }
        if (name) {
          flush();
          push(depth, 'img ' + q(cut(name, NAME_MAX)), false);
        }
      }
      if (tag !== 'svg' && tag !== 'img') walkKids(el, depth, kcx);
      return;
    }
    if (tag === 'label' && el.control && el.control.checkVisibility()) {
      // The control carries the label's text as its name.
      walkKids(el, depth, { ...kcx, text: false });
      return;
    }
    if (tag === 'ul' || tag === 'ol' || tag === 'menu') {
      walkKids(el, depth + (cx.listDepth > 0 ? 1 : 0), { ...kcx, listDepth: cx.listDepth + 1 });
      flush();
      return;
    }
    if (tag === 'li' && cx.text) {
      flush();
      bullet = true;
      walkKids(el, depth, kcx);
      flush();
      bullet = false;
      return;
    }
    walkKids(el, depth, kcx);
    if (!inline) flush();
  }

  function actionable(el, role, tag, depth, kcx) {
    flush();
    const name = cut(accName(el, role, tag), NAME_MAX);
    const st = states(el, role, tag, active);
    push(depth, role + ' ' + q(name) + (st.length ? ' ' + st.join(' ') : '') + ' [ref=' + refFor(el) + ']', false);
    if (tag === 'select') {
      options(el, depth + 1);
      return;
    }
    if (tag === 'input' || tag === 'textarea' || (role === 'textbox' && el.isContentEditable)) return;
    // The name already says the content when it is short.
    const said = NAME_FROM_CONTENT.has(role) && textOf(el, null).length <= NAME_MAX;
    walkKids(el, depth + 1, { ...kcx, inAction: true, text: kcx.text && !said });
    flush();
  }

  function heading(el, tag, depth, kcx) {
    flush();
    const name = accName(el, 'heading', tag);
    const level = tag[0] === 'h' && tag.length === 2 ? tag[1] : (attr(el, 'aria-level') || '2');
    if (name) push(depth, 'heading ' + q(cut(name, NAME_MAX)) + ' [level=' + level + ']', false);
    walkKids(el, depth + 1, { ...kcx, text: name.length > NAME_MAX });
    flush();
  }

  function options(sel, depth) {
    const opts = Array.from(sel.options).filter((o) => !o.hidden && cs(o).display !== 'none');
    const n = Math.min(opts.length, OPTIONS_MAX);
    for (let i = 0; i < n; i++) {
      const o = opts[i];
      push(depth, 'option ' + q(cut(clean(o.label), NAME_MAX)) + (o.selected ? ' selected' : '') +
        (o.disabled ? ' disabled' : ''), false);
    }
    if (opts.length > n) push(depth, '… ' + (opts.length - n) + ' more options', false);
  }

  function isLayoutTable(el) {
    const role = attr(el, 'role');
    return role === 'presentation' || role === 'none' || el.querySelector('table') !== null;
  }

  function table(el, depth, cx) {
    flush();
    let d = depth;
    const cap = el.caption ? textOf(el.caption, null) : '';
    if (cap) {
      push(depth, 'table ' + q(cut(cap, NAME_MAX)), false);
      d++;
    }
    for (const row of el.rows) {
      if (truncated) return;
      if (!row.checkVisibility()) continue;
      const cells = Array.from(row.cells).filter((c) => c.checkVisibility());
      const texts = cells.map((c) => cut(textOf(c, null), CELL_MAX));
      const hasText = texts.some((t) => t);
      if (hasText) push(d, '| ' + texts.join(' | ') + ' |', true);
      // Controls in the row stand under it.
      for (const c of cells) walkKids(c, hasText ? d + 1 : d, { ...cx, text: false, cursor: cs(c).cursor });
      flush();
    }
  }

  function frame(el, depth, cx) {
    flush();
    const name = clean(attr(el, 'title') || attr(el, 'aria-label') || attr(el, 'name'));
    let doc = null;
    try { doc = el.contentDocument; } catch (e) { /* cross-origin */ }
    if (!doc || !doc.documentElement) {
      push(depth, 'iframe ' + q(cut(name, NAME_MAX)) + ' (cross-origin; content not shown)', false);
      return;
    }
    push(depth, 'iframe ' + q(cut(name || clean(doc.title), NAME_MAX)), false);
    walk(doc.documentElement, depth + 1, { ...rootCx, text: cx.text });
    flush();
  }

  walk(document.documentElement, 0, rootCx);
  flush();
  if (truncated) lines.push('… (snapshot cut at ' + maxChars + ' characters; the rest of the page is not shown)');
  return {
    url: location.href,
    title: document.title,
    text: lines.join('\n'),
    maxRef: reg.next - 1,
  };
})
