// snapName.js: how the snapshot walker names an element (see
// snapshot.js). Given the walker's kit, it returns accName, an element's
// accessible name (its labels, its content, its title or placeholder, the
// text just before a field, a link's URL); nameless, what stands for the
// name of an element that nothing names (a tooltip, what an icon shows, a
// tile's colour); and describe, an element's role and name, for the
// registry (describe.js).
(function (k) {
  'use strict';

  const {NAME_MAX, SHORT_NAME, WORDY, NAME_FROM_CONTENT, SKIP, INLINE, q, clean, cut, cs, attr, textOf, contentOf} = k;
  const {classify, sliderPart, colourName} = k;

  const URL_MAX = 60; // characters of a link's URL used as its name
  // shortURL makes a link's URL short enough to serve as its name: no
  // scheme, no host of this page, no query string past the cut.
  const shortURL = (h) => {
    h = clean(h);
    if (!h) return '';
    try {
      const u = new URL(h, location.href);
      if (u.protocol === 'http:' || u.protocol === 'https:') {
        h = (u.host === location.host ? '' : u.host) + u.pathname + u.search + u.hash;
      }
    } catch (e) { /* keep it */ }
    return cut(h, URL_MAX);
  };

  const SVG_NS = 'http://www.w3.org/2000/svg';
  const SVG_SHAPES = new Set(['circle', 'ellipse', 'rect', 'polygon', 'polyline', 'path', 'line']);

  // unnamed describes an actionable element that nothing names: a
  // tooltip or description; for a field (a colour names a tile or a
  // shape, never a field) nothing more than its role; else an icon by what
  // it shows (its SVG's title, an icon font's class, its image's file
  // name), a coloured tile by its colour, else its tag.
  function unnamed(el, tag, role) {
    const tip = clean(attr(el, 'aria-description') || tooltipOf(el));
    if (tip) return cut(tip, NAME_MAX);
    const dby = attr(el, 'aria-describedby');
    if (dby) {
      const root = el.getRootNode();
      const t = clean(dby.split(/\s+/).map((id) => {
        const r = root.getElementById ? root.getElementById(id) : null;
        return r ? r.textContent : '';
      }).join(' '));
      if (t) return cut(t, NAME_MAX);
    }
    if (FIELDS.has(role)) return 'unnamed ' + role;
    const hint = iconHint(el);
    if (hint) return hint + ' icon';
    // A button's default face (Chromium's ButtonFace) is no colour of its
    // own; a shape of an SVG that is no scene is named by its fill.
    const shape = SVG_SHAPES.has(tag) && el.namespaceURI === SVG_NS;
    const bg = shape ? cs(el).fill : cs(el).backgroundColor;
    const c = bg === 'rgb(239, 239, 239)' && (tag === 'button' || tag === 'input') ? '' : colourName(bg);
    if (c) return c.replace(' ', ' ' + (tag === 'canvas' ? 'canvas' : shape ? tag : 'tile') + ' ');
    return 'unnamed ' + tag;
  }
  // tooltipOf is the text of a tooltip attribute (data-tooltip,
  // data-bs-original-title, a library's data-xx-tooltip), or ''.
  function tooltipOf(el) {
    for (const a of el.attributes) {
      if (TOOLTIP_ATTR.test(a.name) && WORDY.test(a.value)) return a.value;
    }
    return '';
  }
  const TOOLTIP_ATTR = /^data-(?:[a-z]+-)*(?:tooltip|tip|title|original-title)$/;
  const FIELDS = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'checkbox', 'radio', 'switch']);

  // iconHint reads what an icon shows from the element and its first
  // descendants: an SVG title or desc, a <use> reference, a telling class
  // (fa-trash, icon-star, glyphicon-heart, jQuery UI's ui-icon-triangle-1-n
  // for "up", Quill's ql-bold, a plain "reply"), a command attribute, an
  // image file's name (CSS content or background, never a sprite sheet's).
  // A button's value says which of a group (Quill's list "ordered").
  function iconHint(el) {
    const h = iconOf(el);
    const v = attr(el, 'value');
    return h && el.localName === 'button' && v && /^[a-z]{2,20}$/i.test(v) && v !== h ? h + ' ' + v : h;
  }
  function iconOf(el) {
    const nodes = [el];
    for (const d of el.querySelectorAll('*')) {
      nodes.push(d);
      if (nodes.length > 12) break;
    }
    for (const n of nodes) {
      const t = n.localName;
      if (t === 'title' || t === 'desc') {
        const x = clean(n.textContent);
        if (x) return cut(x, SHORT_NAME);
      }
      if (t === 'use') {
        const h = attr(n, 'href') || attr(n, 'xlink:href') || '';
        const w = words(h.slice(h.lastIndexOf('#') + 1));
        if (w) return w;
      }
      const w = classHint(attr(n, 'class') || '') || commandHint(n);
      if (w) return w;
      if (t === 'img') {
        const w = words(fileStem(attr(n, 'src') || ''));
        if (w) return w;
      }
      if (t === 'i' || t === 'span') {
        const x = clean(n.textContent);
        if (/^[a-z_]{3,30}$/.test(x)) return x.replace(/_/g, ' '); // an icon font ligature
      }
      const f = imageHint(cs(n));
      if (f) return f;
    }
    return '';
  }
  // classHint reads an icon's meaning from its classes.
  function classHint(cls) {
    if (!cls) return '';
    const jq = cls.match(/(?:^|\s)ui-icon-([a-z0-9-]+)/);
    if (jq) {
      const dir = jq[1].match(JQ_ARROW);
      return dir ? DIRECTIONS[dir[1]] : words(jq[1].replace(/thick$/, ''));
    }
    const m = cls.match(ICON_CLASS);
    if (m && !ICON_NOISE.test(m[1])) return words(m[1]);
    for (const tok of cls.split(/\s+/)) {
      const low = tok.toLowerCase();
      if (ICON_WORDS.has(low)) return low;
      // BEM's modifiers (btn--link) say how it looks, not what it does.
      const base = low.split('--')[0], editor = EDITOR_CLASS.test(base);
      for (const part of base.split(/[-_]+/)) if (ACTION_WORDS.has(part) || (editor && EDITOR_WORDS.has(part))) return part;
    }
    return '';
  }
  // Rich text editors' class prefixes (Quill, CKEditor, TinyMCE, Froala,
  // Summernote, Trix), whose classes name formats.
  const EDITOR_CLASS = /^(?:ql|ck|tox|mce|fr|note|trix)-/;
  const EDITOR_WORDS = new Set(['list', 'link', 'align', 'code', 'image', 'header', 'clean', 'color', 'background', 'script', 'video']);
  // commandHint reads an editor's or a toolbar's command attribute.
  function commandHint(n) {
    const c = attr(n, 'data-command') || attr(n, 'data-cmd') || attr(n, 'data-format') || attr(n, 'data-tool');
    return c && c.length <= SHORT_NAME ? words(c) : '';
  }
  // imageHint is the file name of the image an element shows by CSS (its
  // content or background), unless it is a sprite sheet (shown at an
  // offset, or named as one), whose name says nothing of the icon.
  function imageHint(st) {
    for (const [img, pos] of [[st.content, ''], [st.backgroundImage, st.backgroundPosition]]) {
      if (!img || img === 'none' || img === 'normal' || /-\d/.test(pos)) continue;
      const u = img.match(/url\("?([^")]+)"?\)/);
      const stem = u ? fileStem(u[1]) : '';
      if (!stem || SPRITE.test(stem)) continue;
      const w = words(stem);
      if (w) return w;
    }
    return '';
  }
  const SPRITE = /sprite|^ui-icons|^icons?(?:[-_]|$)|[0-9]+x[0-9]+/i;
  const JQ_ARROW = /^(?:triangle|carat|arrow|arrowthick|arrowstop|arrowreturn|arrowreturnthick|circle-triangle|circle-arrow|circlesmall)-(?:[12]-)?(n|s|e|w|ne|nw|se|sw|n-s|e-w)$/;
  const DIRECTIONS = {n: 'up', s: 'down', e: 'right', w: 'left', ne: 'up right', nw: 'up left', se: 'down right',
    sw: 'down left', 'n-s': 'up and down', 'e-w': 'left and right'};
  // Words that, as part of a class (btn-close, ql-bold, tweet-retweet),
  // say what an unnamed control does.
  const ACTION_WORDS = new Set(['bold', 'italic', 'underline', 'strike', 'strikethrough', 'subscript', 'superscript',
    'blockquote', 'indent', 'outdent', 'undo', 'redo', 'retweet', 'reply', 'forward', 'share', 'send', 'like',
    'delete', 'trash', 'remove', 'close', 'edit', 'search', 'next', 'prev', 'previous', 'play', 'pause',
    'increment', 'decrement', 'plus', 'minus', 'star', 'favorite', 'favourite', 'bookmark', 'download', 'upload',
    'print', 'copy', 'paste', 'save', 'archive', 'zoom']);
  const ICON_CLASS = /(?:^|\s)(?:fa[srlbd]?|fa-solid|fa-regular|bi|icon|icons|glyphicon|mdi|ion|ti|la|octicon|feather|gg|ri|uil|lni|im|el|si)-([a-z][a-z0-9-]*)/i;
  const ICON_NOISE = /^(?:white|black|gray|grey|dark|inverse|primary|secondary|default|solid|regular|light|brands|fw|lg|xs|sm|[0-9]+x|spin|pulse|border|inverse|stack|ul|li|rotate.*|flip.*|pull.*|button|btn|small|large|wrapper|container)$/i;
  const ICON_WORDS = new Set(['trash', 'delete', 'remove', 'close', 'star', 'reply', 'forward', 'edit', 'search', 'menu',
    'settings', 'heart', 'share', 'like', 'next', 'prev', 'previous', 'play', 'pause', 'stop', 'add', 'plus', 'minus',
    'download', 'upload', 'home', 'user', 'cart', 'bell', 'info', 'help', 'copy', 'print', 'refresh', 'filter', 'sort',
    'expand', 'collapse', 'check', 'save', 'send', 'archive', 'flag', 'pin', 'bookmark', 'lock', 'unlock', 'mail',
    'email', 'phone', 'calendar', 'camera', 'mic', 'mute', 'volume', 'zoom', 'undo', 'redo', 'cancel', 'ok', 'back',
    'up', 'down', 'left', 'right', 'thumbs-up', 'thumbs-down', 'dislike', 'comment', 'more', 'kebab', 'hamburger', 'retweet']);
  // fileStem is the name of a file without its folder and extension;
  // words makes words of it, or of a class or command.
  const fileStem = (u) => {
    u = u.split(/[?#]/)[0];
    if (u.startsWith('data:')) return '';
    return u.slice(u.lastIndexOf('/') + 1).replace(/\.[a-z0-9]+$/i, '');
  };
  const words = (s) => cut(clean(s.replace(/[-_.]+/g, ' ').replace(/\b(?:icon|ico|img|svg|btn|sprite)\b/gi, ' ').replace(/[0-9]+x[0-9]+/g, ' ')), SHORT_NAME);

  // nameless names an actionable element that nothing names.
  const nameless = (el, tag, role) => role === 'slider' ? 'slider handle' : sliderPart(el) === 'track' ? 'slider track' : unnamed(el, tag, role);

  // accName is el's accessible name: what labels it, its content when its
  // role takes its name from it, its title or placeholder, the text just
  // before a field, a link's URL.
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
      const t = contentOf(el);
      if (t) return t;
    }
    const ti = clean(attr(el, 'title'));
    if (ti) return ti;
    // A field's own hint before a guess from the text near it.
    const ph = clean(attr(el, 'placeholder') || attr(el, 'aria-placeholder'));
    if (ph) return ph;
    if (tag === 'input' || tag === 'select' || tag === 'textarea' || (FIELDS.has(role) && !NAME_FROM_CONTENT.has(role) && role !== 'slider')) {
      const near = nearLabel(el);
      if (near) return near;
    }
    if (role === 'link') return shortURL(attr(el, 'href') || attr(el, 'xlink:href'));
    return '';
  }

  // nearLabel is the text just before a form control that no label names
  // (`Name: <input>`, a table cell before the control's), read backwards
  // in document order up to another control, the form's start or three
  // levels up.
  function nearLabel(el) {
    if (el.type === 'checkbox' || el.type === 'radio') {
      // Their text follows them: `<input type=radio> Yes`.
      let s = '';
      for (let p = el.nextSibling; p && s.length < 80; p = p.nextSibling) {
        if (p.nodeType === 3) s += p.data;
        else if (p.nodeType === 1) {
          if (p.matches('input,select,textarea,button,br') || p.querySelector('input,select,textarea,button')) break;
          s += ' ' + textOf(p, null);
        }
        if (WORDY.test(s) && /\S\s*$/.test(s) && p.nextSibling && p.nextSibling.nodeType === 1 && !INLINE.has(p.nextSibling.localName)) break;
      }
      const t = label(s);
      if (t) return t;
    }
    let n = el, up = 0;
    let s = '';
    while (n && up < 4) {
      for (let p = n.previousSibling; p; p = p.previousSibling) {
        if (p.nodeType === 3) s = p.data + ' ' + s;
        else if (p.nodeType === 1) {
          const t = p.localName;
          if (t === 'input' || t === 'select' || t === 'textarea' || t === 'button' || t === 'form') return label(s);
          if (p.querySelector && p.querySelector('input:not([type=hidden]),select,textarea,button')) return label(s);
          if (SKIP.has(t)) continue;
          s = textOf(p, null) + ' ' + s;
        }
        if (WORDY.test(s)) return label(s);
      }
      n = n.parentNode;
      if (!n || n.nodeType !== 1 || n.localName === 'form' || n.localName === 'fieldset' || n.localName === 'body') break;
      up++;
    }
    return label(s);
  }
  // label takes text near a control as its label, unless it cannot be
  // one: too long, without a letter (a slider's value, a count), or lines
  // of "key: value" (a mail's header above its body).
  const label = (s) => {
    s = clean(s).replace(/[:*\s]+$/, '');
    if (s.length > 80 || !/\p{L}/u.test(s)) return '';
    return (s.match(KEY_VALUE) || []).length > 1 ? '' : s;
  };
  const KEY_VALUE = /(?:^|\s)[\p{L}][\p{L}\p{N} .-]{0,24}:\s+\S/gu;

  // describe is el's role and name as the snapshot writes them, for the
  // outcomes of actions (describe.js).
  function describe(el) {
    const tag = el.localName;
    const role = classify(el, tag, cs(el), { cursor: 'auto' });
    // An element the snapshot does not act on (the paragraph that holds a
    // text select_text found) is named by the start of its text.
    if (!role) return tag + ' ' + q(cut(clean((el.innerText || '').slice(0, 400)), SHORT_NAME) || nameless(el, tag, tag));
    return role + ' ' + q(cut(accName(el, role, tag), NAME_MAX) || nameless(el, tag, role));
  }

  return {accName, nameless, describe, words, fileStem};
})
