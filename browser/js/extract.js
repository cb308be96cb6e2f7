// The extract action. Go evaluates (this function)(maxChars) in the page's
// main frame and takes the result by value.
//
// It writes the page's main content as Markdown: headings, paragraphs,
// lists, links as [text](url), tables, quotes and code blocks. The content
// is the page's <main> (or role=main) when it has one; else the body, left
// of navigation, banners, footers and asides when the page marks its
// content with <article>. Hidden elements and form controls are left out.
//
// The Markdown comes in parts of at most maxChars characters: each call
// returns the next part, and a call after the last part (or after the
// content changed) starts again with the first. The position is kept on the
// window, so a new document starts at the first part.
(function (maxChars) {
  'use strict';

  const KEY = Symbol.for('webagent.extract');
  const SKIP = new Set([
    'script', 'style', 'noscript', 'template', 'head', 'svg', 'canvas', 'video',
    'audio', 'iframe', 'frame', 'object', 'embed', 'button', 'select', 'input',
    'textarea', 'option', 'datalist', 'dialog',
  ]);
  const BOILERPLATE = new Set(['nav', 'footer', 'aside', 'header']);
  const BOILERPLATE_ROLES = new Set(['navigation', 'contentinfo', 'complementary', 'banner', 'search']);

  const cs = (el) => el.ownerDocument.defaultView.getComputedStyle(el);
  const squash = (s) => s.replace(/\s+/g, ' ');

  function kids(n) {
    if (n.nodeType === 1) {
      if (n.shadowRoot) return n.shadowRoot.childNodes;
      if (n.localName === 'slot') return n.assignedNodes({ flatten: true });
    }
    return n.childNodes;
  }

  // The content root, and whether boilerplate is dropped inside it.
  const shown = (e) => e && e.checkVisibility({ checkVisibilityCSS: true });
  let root = Array.from(document.querySelectorAll('main, [role=main]')).find(shown);
  let dropBoilerplate = false;
  if (!root) {
    root = document.body || document.documentElement;
    dropBoilerplate = Array.from(document.querySelectorAll('article')).some(shown);
  }
  // Dialog content (an open modal) is what the user sees first.
  const openDialogs = Array.from(document.querySelectorAll('dialog[open]')).filter(shown);

  function skipped(el) {
    const tag = el.localName;
    if (SKIP.has(tag) && !(tag === 'dialog' && el.open)) return true;
    if (el.getAttribute('aria-hidden') === 'true') return true;
    if (dropBoilerplate) {
      const role = (el.getAttribute('role') || '').toLowerCase();
      if (BOILERPLATE_ROLES.has(role)) return true;
      if (BOILERPLATE.has(tag) && !el.closest('article')) return true;
    }
    return false;
  }

  function linkTarget(a) {
    const href = a.getAttribute('href');
    if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return '';
    return a.href;
  }

  // inline converts an inline element to Markdown text.
  function inline(n) {
    if (n.nodeType === 3) return squash(n.data);
    if (n.nodeType !== 1 || skipped(n)) return '';
    const tag = n.localName;
    const st = cs(n);
    if (st.display === 'none' || st.visibility === 'hidden') return '';
    if (tag === 'br') return '\n';
    if (tag === 'img') return '';
    let s = '';
    for (const c of kids(n)) s += inline(c);
    switch (tag) {
      case 'a': {
        const t = s.replace(/\s+/g, ' ').trim() || (n.getAttribute('aria-label') || '').trim() ||
          ((n.querySelector('img[alt]') || {}).alt || '').trim();
        const u = linkTarget(n);
        if (!t) return '';
        return u ? ' [' + t.replace(/[[\]]/g, '\\$&') + '](' + u.replace(/[()\s]/g, encodeURIComponent) + ') ' : t;
      }
      case 'strong': case 'b': {
        const t = s.trim();
        return t ? ' **' + t + '** ' : s;
      }
      case 'code': case 'kbd': case 'samp': {
        const t = s.trim();
        return t ? ' `' + t + '` ' : s;
      }
    }
    return s;
  }

  // tidy collapses the spaces of inline text, keeping the line breaks.
  const tidy = (s) => s.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean).join('\n');

  // blocks converts the children of n to Markdown blocks separated by blank
  // lines.
  function blocks(n) {
    const parts = [];
    let buf = '';
    const flush = () => {
      const t = tidy(buf);
      if (t) parts.push(t);
      buf = '';
    };
    const visit = (c) => {
      if (c.nodeType === 3) { buf += c.data; return; }
      if (c.nodeType !== 1 || skipped(c)) return;
      const st = cs(c);
      if (st.display === 'contents') { for (const k of kids(c)) visit(k); return; }
      if (st.display === 'none' || st.visibility === 'hidden' && !c.querySelector('*')) return;
      if (c.localName === 'br') { buf += '\n'; return; }
      if (st.display.startsWith('inline') && !/^(table|ul|ol|pre|blockquote|h[1-6])$/.test(c.localName)) {
        buf += inline(c);
        return;
      }
      flush();
      const b = block(c);
      if (b) parts.push(b);
    };
    for (const c of kids(n)) visit(c);
    flush();
    return parts.join('\n\n');
  }

  function block(el) {
    const tag = el.localName;
    const role = (el.getAttribute('role') || '').toLowerCase();
    let level = /^h[1-6]$/.test(tag) ? +tag[1] : 0;
    if (role === 'heading') level = +(el.getAttribute('aria-level') || 2);
    if (level) {
      const t = tidy(inline(el)).replace(/\n/g, ' ');
      return t ? '#'.repeat(Math.min(level, 6)) + ' ' + t : '';
    }
    switch (tag) {
      case 'ul': case 'ol': case 'menu': {
        const items = [];
        let i = el.start || 1;
        for (const li of kids(el)) {
          if (li.nodeType !== 1 || skipped(li) || cs(li).display === 'none') continue;
          const body = blocks(li).replace(/\n\n+/g, '\n');
          if (!body) continue;
          const mark = tag === 'ol' ? (i++) + '. ' : '- ';
          items.push(mark + body.split('\n').join('\n' + ' '.repeat(mark.length)));
        }
        return items.join('\n');
      }
      case 'table':
        return table(el);
      case 'pre': {
        const t = (el.innerText || '').replace(/\n+$/, '');
        return t.trim() ? '```\n' + t + '\n```' : '';
      }
      case 'blockquote': {
        const t = blocks(el);
        return t ? t.split('\n').map((l) => '> ' + l).join('\n') : '';
      }
      case 'hr':
        return '---';
      case 'img':
        return '';
    }
    return blocks(el);
  }

  function table(el) {
    const rows = [];
    for (const tr of el.rows) {
      if (cs(tr).display === 'none') continue;
      const cells = Array.from(tr.cells).map((c) => tidy(blocks(c)).replace(/\n/g, ' ').replace(/\|/g, '\\|'));
      if (cells.some(Boolean)) rows.push(cells);
    }
    if (!rows.length) return '';
    const n = Math.max(...rows.map((r) => r.length));
    const line = (r) => '| ' + Array.from({ length: n }, (_, i) => r[i] || '').join(' | ') + ' |';
    const out = [line(rows[0]), '|' + ' --- |'.repeat(n)];
    for (const r of rows.slice(1)) out.push(line(r));
    const cap = el.caption ? tidy(inline(el.caption)) : '';
    return (cap ? cap + '\n\n' : '') + out.join('\n');
  }

  let md = '';
  for (const d of openDialogs) {
    if (!root.contains(d)) md += blocks(d) + '\n\n';
  }
  md += blocks(root);
  md = md.replace(/\n{3,}/g, '\n\n').trim();

  // The part to return.
  let hash = 0;
  for (let i = 0; i < md.length; i += 7) hash = (hash * 31 + md.charCodeAt(i)) | 0;
  const sig = md.length + ':' + hash;
  let cur = window[KEY];
  if (!cur || cur.sig !== sig || cur.next >= md.length) cur = { sig: sig, next: 0, part: 0 };
  const start = cur.next;
  let end = Math.min(md.length, start + maxChars);
  if (end < md.length) {
    const nl = md.lastIndexOf('\n', end);
    if (nl > start + maxChars / 2) end = nl;
  }
  cur.next = end;
  cur.part++;
  Object.defineProperty(window, KEY, { value: cur, configurable: true, writable: true });
  return {
    url: location.href,
    title: document.title,
    contentType: document.contentType,
    text: md.slice(start, end).trim(),
    part: cur.part,
    start: start,
    end: end,
    total: md.length,
  };
})
