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
// budget is the size limit in estimated tokens (est). When the whole
// outline is larger, every actionable element and structure line (select
// options, tables' and dialogs' names, frames) is kept; text and headings
// are kept by their distance from the viewport (headings from farther, the
// first items of long lists and tables before the rest), and each region
// of lines left out becomes one line saying what it held and how to reach
// it. Separators without a letter or digit are never shown.
//
// Cross-origin frames cannot be read from here: each becomes a line
// `iframe "name"` followed by \x01 and its index in the registry's
// xframes, which Go replaces with the frame's own outline.
/* global colourName, canvasDrawn, humanCheck */
(function (floor, budget) {
  'use strict';

  const KEY = Symbol.for('webagent.refs');
  // Only the top document's folded regions get a handle: a cross-origin
  // frame's outline is walked in its own target.
  const TOP = window === window.top;
  const NAME_MAX = 100; // characters of an accessible name on a page over its budget
  const VALUE_MAX = 150; // characters of a value on a page over its budget
  const NAME_LONG = 1000; // characters of an accessible name on a page within its budget
  const VALUE_LONG = 4000; // characters of a value on a page within its budget
  const CELL_MAX = 120; // characters of a table cell shown in its row; longer cells follow the row
  const SHAPES_MAX = 60; // shapes listed for an SVG scene
  const DRAWN_MAX = 40; // items listed of what a canvas shows
  const SVG_SCAN = 200; // elements of an SVG looked at for listeners
  const OPTIONS_MAX = 25; // options of a select listed whole; of a longer one,
  const OPTIONS_HEAD = 10; // the first ones,
  const OPTIONS_TAIL = 3; // the last ones and the chosen ones are listed
  const TEXT_SCAN = 1200; // characters read when computing a name
  const REPEAT_KEEP = 8; // items of a list or rows of a table shown first
  const URL_MAX = 60; // characters of a link's URL used as its name
  const SHORT_NAME = 40; // characters of a name far from the viewport on a page over its budget
  const EST_SCALE = 0.93; // see est
  const MARKER_MIN = 10; // runs of text cheaper than this are kept, not summarised
  const TEXT_NODE_MAX = 20000; // characters read of one text node
  // The walk's bound. A page of ordinary size (at most WALK_WHOLE
  // elements) is read whole whatever the clock says, only more slowly on
  // a busy machine (a throttled or starved renderer takes seconds over a
  // page it reads in milliseconds when idle). WALK_MS bounds the walk of a
  // page built too large to read, which is then partial: size, not the
  // machine's speed, decides what is cut. An idle machine reads an
  // ordinary page well within WALK_MS, so there this changes nothing.
  const WALK_WHOLE = 10000; // elements of a page read whole
  const WALK_FLOOR = document.getElementsByTagName('*').length <= WALK_WHOLE ? Infinity : 0; // nodes read before the time budget counts
  const WALK_MS = 1000; // time budget of the walk of a page too large to read whole
  const DIALOG_TEXT = 400; // tokens of dialogs' text kept before any other text
  const ACT_SHARE = 2; // actionable lines may take this many budgets; the farthest from the viewport are summarised past it
  const WORDY = /[\p{L}\p{N}]/u;
  const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

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
  const NO_VALUE_TYPES = new Set([
    'checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden',
  ]);
  const INTERACTIVE_SELECTOR = 'a[href],button,input:not([type=hidden]),select,' +
    'textarea,summary,[contenteditable],[onclick],[role=button],[role=link],' +
    '[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch]';

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
  const cs = (el) => el.ownerDocument.defaultView.getComputedStyle(el);
  const isInline = (display) => display.startsWith('inline') || display.startsWith('ruby');
  const attr = (el, n) => el.getAttribute(n);
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const SVG_SHAPES = new Set(['circle', 'ellipse', 'rect', 'polygon', 'polyline', 'path', 'line']);

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

  function nativeRole(el, tag) {
    const rr = attr(el, 'role');
    if (rr) {
      const explicit = rr.trim().split(/\s+/)[0].toLowerCase();
      if (INTERACTIVE_ROLES.has(explicit)) return explicit;
    }
    switch (tag) {
      case 'a':
        // Also without href: pages hang click handlers on bare anchors.
        return 'link';
      case 'area':
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
        return 'button';
    }
    // An editing host (its descendants are part of it).
    const ce = attr(el, 'contenteditable');
    if (ce !== null && ce !== 'false' && el.isContentEditable) return 'textbox';
    return null;
  }

  // classify returns the role of an element the model can act on, or null.
  // cx.cursor is the parent's cursor; cx.inAction is the role of the
  // actionable element it is in, if any.
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
    if (tag === 'body' || tag === 'html') return null;
    if (el.hasAttribute('onclick')) return 'clickable';
    // A listener of its own (also inside another actionable element: each
    // target gets its own ref), a focus stop or a drag source, unless it
    // holds controls of its own (then they are the targets).
    const ti = attr(el, 'tabindex');
    const drag = dragSource(el);
    // A list whose items are dragged (a sortable list) listens for them:
    // the items are the targets, not the list.
    if ((typeof el.onclick === 'function' || listened(el) || (ti !== null && +ti >= 0) || drag) &&
      !el.querySelector(drag ? INTERACTIVE_SELECTOR : INTERACTIVE_OR_DRAG)) {
      return !drag && sliderPart(el) === 'handle' ? 'slider' : 'clickable';
    }
    if (dropTarget(el)) return 'droptarget';
    if (cx.inAction) return null;
    if (style.cursor === 'pointer' && cx.cursor !== 'pointer' && !el.querySelector(INTERACTIVE_SELECTOR)) return 'clickable';
    return null;
  }

  // listened reports whether a script gave el a pointer or key listener,
  // and listenedForDrops one for drops (recorded at document start, see
  // listeners.go).
  const LKEY = Symbol.for('webagent.listeners'), DKEY = Symbol.for('webagent.drops');
  let lisDoc = null, lisSet = null, dropSet = null;
  function listenersOf(el) {
    const d = el.ownerDocument;
    if (d !== lisDoc) {
      lisDoc = d;
      const w = d.defaultView;
      lisSet = (w && w[LKEY]) || null;
      dropSet = (w && w[DKEY]) || null;
    }
  }
  function listened(el) {
    listenersOf(el);
    return lisSet !== null && lisSet.has(el);
  }
  function listenedForDrops(el) {
    listenersOf(el);
    return dropSet !== null && dropSet.has(el);
  }

  // Drag and drop. A drag source is an element of HTML's drag and drop
  // (draggable=true) or one that a drag library made draggable with mouse
  // events: jQuery UI's draggables and sortable items carry its classes. A
  // drop target listens for drops, or is a jQuery UI droppable. Both get a
  // ref and their box, for drag's ref, to_ref and points.
  const DRAG_CLASS = /(^|\s)ui-(draggable|sortable-handle)(\s|$)/;
  const INTERACTIVE_OR_DRAG = INTERACTIVE_SELECTOR + ',[draggable=true],.ui-draggable,.ui-sortable-handle';
  const dragSource = (el) => attr(el, 'draggable') === 'true' || DRAG_CLASS.test(attr(el, 'class') || '');
  const dropTarget = (el) => listenedForDrops(el) || /(^|\s)ui-droppable(\s|$)/.test(attr(el, 'class') || '');

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
  const fileStem = (u) => {
    u = u.split(/[?#]/)[0];
    if (u.startsWith('data:')) return '';
    return u.slice(u.lastIndexOf('/') + 1).replace(/\.[a-z0-9]+$/i, '');
  };
  const words = (s) => cut(clean(s.replace(/[-_.]+/g, ' ').replace(/\b(?:icon|ico|img|svg|btn|sprite)\b/gi, ' ').replace(/[0-9]+x[0-9]+/g, ' ')), SHORT_NAME);

  const HANDLE = /slider|handle|thumb|knob/i;
  // sliderPart tells a slider's handle (a control whose class says slider,
  // handle, thumb or knob) from its track (such a control that holds the
  // handle); '' for neither. The handles of drag libraries (jQuery UI's
  // draggable, sortable and resizable handles, a "drag handle") are no
  // sliders.
  const NOT_SLIDER = /(^|\s)ui-(draggable|sortable|resizable)-handle(\s|$)|drag-?handle/i;
  function sliderPart(el) {
    const cls = attr(el, 'class') || '';
    if (!HANDLE.test(cls) || NOT_SLIDER.test(cls)) return '';
    return el.querySelector('[class*=handle i],[class*=thumb i],[class*=knob i]') ? 'track' : 'handle';
  }
  // trackOf returns the box [left, top, right, bottom] of the track a
  // slider's handle moves along, the nearest element around it clearly
  // longer than the handle, and whether it is vertical (taller than wide);
  // null when there is none.
  function trackOf(el) {
    const h = el.getBoundingClientRect();
    for (let p = el.parentElement; p; p = p.parentElement) {
      const t = p.getBoundingClientRect();
      if (t.width > h.width * 2 || t.height > h.height * 2) return {box: [t.left, t.top, t.right, t.bottom], vertical: t.height > t.width};
    }
    return null;
  }
  // trackPercent is where a handle's centre lies along its track, in whole
  // percent from the start (left, or bottom of a vertical track); null
  // without a track.
  function trackPercent(el) {
    const t = trackOf(el), h = el.getBoundingClientRect();
    if (!t) return null;
    const [l, top, r, b] = t.box, span = t.vertical ? b - top : r - l;
    if (span <= 0) return null;
    return Math.round(100 * (t.vertical ? b - h.top - h.height / 2 : h.left + h.width / 2 - l) / span);
  }
  // nameless names an actionable element that nothing names.
  const nameless = (el, tag, role) => role === 'slider' ? 'slider handle' : sliderPart(el) === 'track' ? 'slider track' : unnamed(el, tag, role);

  // boxOf is ' box=x,y,w,h': el's border box in CSS pixels of the main
  // viewport.
  function boxOf(el) {
    const r = el.getBoundingClientRect();
    return ' box=' + Math.round(r.left + xOff) + ',' + Math.round(r.top + yOff) + ',' + Math.round(r.width) + ',' + Math.round(r.height);
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

  const TYPED = { date: 'yyyy-mm-dd', time: 'hh:mm', 'datetime-local': 'yyyy-mm-ddThh:mm', month: 'yyyy-mm', week: 'yyyy-Www',
    number: '', range: '', email: '', url: '', tel: '', color: '#rrggbb' };

  function states(el, role, tag, active, vmax) {
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
      if (!v && role === 'slider') {
        // A handle without ARIA: its position along its track.
        const p = trackPercent(el);
        if (p !== null) v = p + '% of its track';
      }
    }
    if (v) s.push('value=' + q(cut(v, vmax)));
    if (tag === 'input' && el.type in TYPED) {
      s.push('type=' + el.type);
      if (TYPED[el.type]) s.push('format=' + TYPED[el.type]);
      for (const a of ['min', 'max', 'step']) {
        const x = attr(el, a);
        if (x) s.push(a + '=' + q(x));
      }
    }
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
    if (dragSource(el)) s.push('draggable');
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
    const role = classify(el, tag, cs(el), { cursor: 'auto' });
    // An element the snapshot does not act on (the paragraph that holds a
    // text select_text found) is named by the start of its text.
    if (!role) return tag + ' ' + q(cut(clean((el.innerText || '').slice(0, 400)), SHORT_NAME) || nameless(el, tag, tag));
    return role + ' ' + q(cut(accName(el, role, tag), NAME_MAX) || nameless(el, tag, role));
  }

  // slider describes, for set_slider, a handle without ARIA (what the
  // snapshot shows as a slider handle): its position along its track in
  // percent, the track's box and whether it is vertical; null for any
  // other element.
  function slider(el) {
    if (sliderPart(el) !== 'handle' || dragSource(el)) return null;
    const t = trackOf(el);
    return t ? {percent: trackPercent(el), track: t.box, vertical: t.vertical} : null;
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
  reg.slider = slider;
  reg.refFor = refFor;
  reg.trackOf = trackOf;
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

  // Output: line records, plus a buffer for the inline text of the current
  // block. Kinds: 'a' actionable, 'h' heading, 's' structure (kept), 't'
  // text (kept by distance from the viewport), 'x' a cross-origin frame.
  const L = [];
  let buf = '';
  let bufDepth = 0;
  let bufEl = null;
  let bullet = false; // the next text line starts a list item
  let inDialog = 0; // dialogs open around the walk
  let curEl = null; // the element being walked
  let yOff = 0; // offset of the frame being walked
  let xOff = 0;
  let rep = -1; // the repeated structure (group) being walked, or -1
  let item = -1; // the list item or row being walked
  let items = 0;
  const groups = []; // {unit, of}
  const xframes = [];

  // A record's el gives its position (y, read only when the budget needs
  // it), off the offset of its frame.
  function push(depth, s, kind, el) {
    if (bullet) {
      if (kind === 't') s = '- ' + s;
      bullet = false;
    }
    L.push({ d: depth, s, k: kind, el: el || curEl, off: yOff, g: rep, it: item, y: NaN, dl: inDialog > 0 });
  }
  function addText(depth, t) {
    if (!buf) { bufDepth = depth; bufEl = curEl; }
    buf += t;
  }
  function flush() {
    if (!buf) return;
    const t = clean(buf);
    buf = '';
    // Separators alone (",", "|", "·") are noise. Page text must not pass
    // for a ref.
    if (t && WORDY.test(t)) push(bufDepth, t.replace(/\[(ref|region)=/g, '[$1:'), 't', bufEl);
  }

  const active = deepActive();
  const rootCx = { text: true, hidden: false, inAction: false, cursor: 'auto', listDepth: 0 };

  function walk(n, depth, cx) {
    if (partial) return;
    if (++ticks > WALK_FLOOR && (ticks & 63) === 0 && performance.now() - T1 > WALK_MS) { partial = true; return; }
    if (n.nodeType === 3) {
      if (cx.text && !cx.hidden) {
        const d = n.data;
        addText(depth, d.length <= TEXT_NODE_MAX ? d
          : d.slice(0, TEXT_NODE_MAX) + ' … (' + (d.length - TEXT_NODE_MAX) + ' more characters of this text not shown)');
      }
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
    if (n.nodeType === 1) {
      if (n.shadowRoot) n = n.shadowRoot;
      else if (n.localName === 'slot') {
        for (const c of n.assignedNodes({ flatten: true })) walk(c, depth, cx);
        return;
      }
    }
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c, depth, cx);
  }

  function element(el, depth, cx) {
    const tag = el.localName;
    if (tag === 'canvas') { canvas(el, depth, cx); return; }
    if (SKIP.has(tag)) return;
    if (tag === 'input' && el.type === 'hidden') return;
    const style = cs(el);
    if (style.display === 'none') return;
    if (cx.text && attr(el, 'aria-hidden') === 'true') {
      // Hidden from assistive technology, yet shown: its controls still
      // work, its text is decoration (an icon's glyph, a duplicate for the
      // eye), unless it is a whole region of the page (the page behind a
      // modal), which a person still reads.
      const r = el.getBoundingClientRect();
      if (r.width < 300 || r.height < 300) cx = { ...cx, text: false };
    }
    const hidden = style.visibility !== 'visible';
    if (style.display === 'contents') {
      walkKids(el, depth, { ...cx, hidden });
      return;
    }
    if (style.contentVisibility === 'hidden') return; // its content is not rendered
    curEl = el;
    if (style.overflowX !== 'visible' && style.overflowY !== 'visible') {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) {
        // A clipped box (a collapsed menu, a visually hidden skip link):
        // only its controls.
        walkKids(el, depth, { ...cx, text: false });
        return;
      }
    }
    const inline = isInline(style.display);
    if (!inline) flush();
    const kcx = cx.hidden === hidden && cx.cursor === style.cursor ? cx : { ...cx, hidden, cursor: style.cursor };

    if (tag === 'br' || tag === 'hr') { flush(); return; }
    if (tag === 'iframe' || tag === 'frame') {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && !hidden) frame(el, depth, cx, r);
      return;
    }
    if (tag === 'details' && !el.open) {
      // Only the summary of a closed details is shown.
      eachKid(el, (c) => {
        if (c.nodeType === 1 && c.localName === 'summary') { walk(c, depth, kcx); return true; }
        return false;
      });
      flush();
      return;
    }
    if (tag === 'table' && cx.text && !isLayoutTable(el)) {
      table(el, depth, cx);
      return;
    }

    const role = classify(el, tag, style, cx);
    // A drawing: also when the SVG or an element around it is the target
    // ("click the circle's centre").
    if (tag === 'svg' && !hidden && (role || cx.inAction === 'clickable' || (cx.text && !cx.inAction)) &&
      svgScene(el, depth, kcx, role)) return;
    if (cx.scene && cx.scene.has(el)) return; // a shape listed in its scene
    if (role && !hidden && hasArea(el)) {
      actionable(el, role, tag, depth, kcx);
      return;
    }

    const explicit = attr(el, 'role');
    if (HEADINGS.has(tag) || explicit === 'heading') {
      if (cx.text) heading(el, tag, depth, kcx);
      else walkKids(el, depth, kcx);
      return;
    }
    if ((tag === 'dialog' && el.open) || explicit === 'dialog' || explicit === 'alertdialog') {
      flush();
      const name = cut(accName(el, 'dialog', tag), NAME_MAX);
      push(depth, name ? 'dialog ' + q(name) : 'dialog', 's');
      inDialog++;
      walkKids(el, depth + 1, kcx);
      flush();
      inDialog--;
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
          push(depth, 'img ' + q(cut(name, NAME_MAX)), 't');
        }
      }
      if (tag === 'svg') {
        // Links and shapes with listeners drawn in SVG are still targets.
        if (svgTargets(el)) walkKids(el, depth, { ...kcx, text: false });
      } else if (tag !== 'img') {
        walkKids(el, depth, kcx);
      }
      return;
    }
    if (tag === 'label' && el.control && el.control.checkVisibility()) {
      // The control carries the label's text as its name.
      walkKids(el, depth, { ...kcx, text: false });
      return;
    }
    if (tag === 'ul' || tag === 'ol' || tag === 'menu') {
      list(el, depth + (cx.listDepth > 0 ? 1 : 0), { ...kcx, listDepth: cx.listDepth + 1 });
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
    if (!hidden && !cx.inAction && cx.text && el.childElementCount === 0 && style.backgroundColor !== 'rgba(0, 0, 0, 0)' && tile(el, style, depth)) return;
    // A box fixed over the page (a consent banner, a chat prompt) is seen
    // first, as a dialog is.
    const over = style.position === 'fixed';
    if (over) inDialog++;
    walkKids(el, depth, kcx);
    if (!inline || over) flush();
    if (over) inDialog--;
  }

  // canvas gives a rendered canvas a line with its box, and under it what
  // the page drew on it (see canvasDrawn.js): texts, shapes and images with
  // their colours and places. A screenshot shows the rest.
  function canvas(el, depth, cx) {
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0) || cs(el).visibility !== 'visible') return;
    flush();
    const name = cut(clean(attr(el, 'aria-label') || attr(el, 'title') || attr(el, 'id') || ''), NAME_MAX);
    push(depth, 'canvas ' + q(name) + boxOf(el) + ' [ref=' + refFor(el) + ']', 'a');
    const d = canvasDrawn(el, DRAWN_MAX);
    if (!d) return;
    for (const it of d.items) push(depth + 1, drawnLine(it), 's');
    if (d.more) push(depth + 1, '… ' + d.more + ' more drawn items (screenshot to see them)', 's');
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
    return s + ' box=' + point(it.b[0], it.b[1]) + ',' + Math.round(it.b[2]) + ',' + Math.round(it.b[3]);
  }
  // point is 'x,y' in CSS pixels of the main viewport, (x, y) of the
  // frame being walked; radius a circle's radius, or an ellipse's two.
  const point = (x, y) => Math.round(x + xOff) + ',' + Math.round(y + yOff);
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
  // the img or actionable line.
  function svgScene(el, depth, cx, role) {
    const r = el.getBoundingClientRect();
    if (r.width < 60 || r.height < 60) return false;
    if (!role && (attr(el, 'aria-label') || attr(el, 'role') === 'img' || el.querySelector(':scope > title'))) return false;
    const shapes = el.querySelectorAll('circle,ellipse,rect,polygon,polyline,path,line,text,image');
    if (!shapes.length) return false;
    let kinds = 0;
    for (const sh of shapes) if (sh.localName !== 'path') { kinds = 1; break; }
    if (!kinds) return false; // a drawing of paths alone: a logo
    flush();
    if (role) {
      const t = el.querySelector(':scope > title');
      const name = cut(clean(attr(el, 'aria-label') || (t && t.textContent) || attr(el, 'id')), NAME_MAX) || 'svg';
      push(depth, role + ' ' + q(name) + boxOf(el) + ' [ref=' + refFor(el) + ']', 'a');
    } else {
      push(depth, 'svg' + boxOf(el), 's');
    }
    let n = 0;
    for (const sh of shapes) {
      if (sh.closest('defs,clipPath,mask,pattern,symbol,marker')) continue;
      const st = cs(sh);
      if (st.display === 'none' || st.visibility !== 'visible') continue;
      const b = sh.getBoundingClientRect();
      if (Math.max(b.width, b.height) < 4) continue;
      if (n++ === SHAPES_MAX) {
        push(depth + 1, '… ' + (shapes.length - SHAPES_MAX) + ' more shapes (screenshot to see them)', 's');
        break;
      }
      const line = shapeLine(sh, st);
      if (line) push(depth + 1, line + ' [ref=' + refFor(sh) + ']', 'a', sh);
    }
    // Links and controls drawn in the scene, but not the shapes again.
    if (svgTargets(el)) walkKids(el, depth + 1, { ...cx, text: false, inAction: role || cx.inAction, scene: new Set(shapes) });
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
    return s + boxOf(sh);
  }

  // list walks a list; items past the first few are a repeated structure
  // that a tight budget collapses.
  function list(el, depth, cx) {
    const saveRep = rep, saveItem = item;
    let g = -1, i = 0;
    for (const c of kids(el)) {
      if (c.nodeType === 1 && c.localName === 'li') {
        if (i++ === REPEAT_KEEP && saveRep < 0) {
          g = groups.length;
          groups.push({ unit: 'list items', of: '' });
        }
        if (g >= 0) { rep = g; item = items++; }
      }
      walk(c, depth, cx);
    }
    flush();
    rep = saveRep;
    item = saveItem;
  }

  function actionable(el, role, tag, depth, kcx) {
    flush();
    let name = cut(accName(el, role, tag), NAME_LONG);
    // Content too long for a name follows it, in full; the name is its start.
    const whole = said(el, role);
    if (!whole && name.length > NAME_MAX && NAME_FROM_CONTENT.has(role)) name = cut(name, NAME_MAX);
    let box = '';
    if (!name) {
      name = nameless(el, tag, role);
      box = boxOf(el);
    } else if (role === 'slider' || role === 'droptarget' || dragSource(el)) {
      box = boxOf(el);
    }
    const ref = ' [ref=' + refFor(el) + ']';
    const post = (st) => (st.length ? ' ' + st.join(' ') : '') + box + ref;
    const st = states(el, role, tag, active, VALUE_LONG);
    push(depth, role + ' ' + q(name) + post(st), 'a');
    const l = L[L.length - 1];
    const stMid = st.some((x) => x.length > VALUE_MAX) ? states(el, role, tag, active, VALUE_MAX) : st;
    // Over the budget, long names and values are cut (mid), far from the
    // viewport shorter still (short).
    if (name.length > NAME_MAX || stMid !== st) l.mid = role + ' ' + q(cut(name, NAME_MAX)) + post(stMid);
    if (name.length > SHORT_NAME) l.short = role + ' ' + q(cut(name, SHORT_NAME)) + post(stMid);
    if (tag === 'select') {
      options(el, depth + 1);
      return;
    }
    if (tag === 'input' || tag === 'textarea' || (role === 'textbox' && el.isContentEditable)) return;
    walkKids(el, depth + 1, { ...kcx, inAction: role, text: kcx.text && !whole });
    flush();
  }

  function heading(el, tag, depth, kcx) {
    flush();
    const name = accName(el, 'heading', tag);
    const level = tag[0] === 'h' && tag.length === 2 ? tag[1] : (attr(el, 'aria-level') || '2');
    if (name) push(depth, 'heading ' + q(cut(name, NAME_MAX)) + ' [level=' + level + ']', rep >= 0 ? 't' : 'h');
    walkKids(el, depth + 1, { ...kcx, text: name.length > NAME_MAX });
    flush();
  }

  // options writes a select's options: all of them when they are few (at
  // most OPTIONS_MAX); else the first OPTIONS_HEAD, the last OPTIONS_TAIL
  // and the chosen ones, each run of the others as one line with its
  // first and last label, the first such line saying how to read them all
  // (the options tool).
  function options(sel, depth) {
    const opts = Array.from(sel.options).filter((o) => !o.hidden && cs(o).display !== 'none');
    const line = (o) => push(depth, 'option ' + q(cut(clean(o.label), NAME_MAX)) + (o.selected ? ' selected' : '') +
      (o.disabled ? ' disabled' : ''), 's');
    const few = opts.length <= OPTIONS_MAX;
    let run = [], told = false;
    const fold = () => {
      if (run.length > 2) {
        const label = (o) => q(cut(clean(o.label), SHORT_NAME));
        let s = '… ' + run.length + ' more options, ' + label(run[0]) + ' to ' + label(run[run.length - 1]);
        if (!told) s += ': select takes any of them; options ref=' + refFor(sel) + ' lists them all';
        told = true;
        push(depth, s, 's');
      } else {
        run.forEach(line);
      }
      run = [];
    };
    opts.forEach((o, i) => {
      if (few || i < OPTIONS_HEAD || i >= opts.length - OPTIONS_TAIL || o.selected) {
        fold();
        line(o);
      } else {
        run.push(o);
      }
    });
    fold();
  }

  function isLayoutTable(el) {
    const role = attr(el, 'role');
    if (role === 'presentation' || role === 'none' || el.querySelector('table') !== null) return true;
    // A single column is a layout, not data.
    const rows = el.rows;
    for (let i = 0; i < rows.length && i < 6; i++) if (rows[i].cells.length > 1) return false;
    return true;
  }

  function table(el, depth, cx) {
    flush();
    let d = depth;
    const cap = el.caption ? textOf(el.caption, null) : '';
    if (cap) {
      push(depth, 'table ' + q(cut(cap, NAME_MAX)), 's');
      d++;
    }
    // Controls in the caption stand under it.
    if (el.caption) walkKids(el.caption, d, { ...cx, text: false });
    const saveRep = rep, saveItem = item;
    let g = -1, i = 0;
    for (const row of el.rows) {
      if (!row.checkVisibility()) continue;
      curEl = row;
      if (i++ === REPEAT_KEEP && saveRep < 0) {
        g = groups.length;
        groups.push({ unit: 'rows', of: cap ? 'table ' + q(cut(cap, NAME_MAX)) : 'the table' });
      }
      if (g >= 0) { rep = g; item = items++; }
      const cells = Array.from(row.cells).filter((c) => c.checkVisibility());
      const texts = cells.map((c) => textOf(c, null));
      // A long cell (a paragraph, a teaser) follows the row, in full.
      const long = texts.map((t) => t.length > CELL_MAX);
      const hasText = texts.some((t, j) => t && !long[j]);
      if (hasText) push(d, '| ' + texts.map((t, j) => (long[j] ? '↓' : t)).join(' | ') + ' |', 't');
      // Controls in the row stand under it.
      for (let j = 0; j < cells.length; j++) {
        const c = cells[j];
        const ccx = { ...cx, text: long[j], cursor: cs(c).cursor };
        // A cell that is itself a target (a calendar's day).
        const role = classify(c, c.localName, cs(c), cx);
        if (role && hasArea(c)) actionable(c, role, c.localName, hasText ? d + 1 : d, { ...ccx, text: false });
        else walkKids(c, hasText ? d + 1 : d, ccx);
        flush();
      }
    }
    rep = saveRep;
    item = saveItem;
  }

  function frame(el, depth, cx, r) {
    flush();
    const name = clean(attr(el, 'title') || attr(el, 'aria-label') || attr(el, 'name'));
    let doc = null;
    try { doc = el.contentDocument; } catch (e) { /* cross-origin */ }
    if (!doc || !doc.documentElement) {
      // Another origin's document: Go walks it in the frame's own target
      // and puts its lines under this one.
      xframes.push(el);
      push(depth, 'iframe ' + q(cut(name, NAME_MAX)) + '\u0001' + (xframes.length - 1), 'x');
      return;
    }
    push(depth, 'iframe ' + q(cut(name || clean(doc.title), NAME_MAX)), 's');
    const at = L.length;
    const save = yOff;
    const saveX = xOff;
    yOff += r.top + el.clientTop;
    xOff += r.left + el.clientLeft;
    walk(doc.documentElement, depth + 1, { ...rootCx, text: cx.text });
    flush();
    yOff = save;
    xOff = saveX;
    if (L.length === at) L.pop(); // an empty frame (an ad slot, a blocked page) says nothing
  }

  // A document being replaced has no element yet: Go waits for the new one.
  if (!document.documentElement) return null;
  const T0 = performance.now();
  document.documentElement.getBoundingClientRect();
  const T1 = performance.now();
  let partial = false, ticks = 0;
  walk(document.documentElement, 0, rootCx);
  flush();
  if (partial) {
    push(0, '… the page is too large to read whole: the rest of it, from here on, was not read within ' +
      (WALK_MS / 1000) + ' s (this snapshot is partial; extract reads the text)', 's');
  }
  const T2 = performance.now();
  reg.xframes = xframes;

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
