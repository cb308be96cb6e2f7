// snapRole.js: what the snapshot walker can act on (see snapshot.js).
// Given the walker's kit, it returns classify, which gives an element's
// role when the model can act on it (a native or ARIA control, an element
// with a listener of a script, a drag source or drop target, a slider's
// handle drawn without ARIA), and what it reads of sliders' handles and
// tracks and of the listeners recorded at document start.
(function (k) {
  'use strict';

  const {attr} = k;

  const INTERACTIVE_ROLES = new Set([
    'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'textbox',
    'searchbox', 'slider', 'spinbutton', 'listbox', 'treeitem',
  ]);
  const INTERACTIVE_SELECTOR = 'a[href],button,input:not([type=hidden]),select,' +
    'textarea,summary,[contenteditable],[onclick],[role=button],[role=link],' +
    '[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch]';

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

  // slider describes, for set_slider, a handle without ARIA (what the
  // snapshot shows as a slider handle): its position along its track in
  // percent, the track's box and whether it is vertical; null for any
  // other element.
  function slider(el) {
    if (sliderPart(el) !== 'handle' || dragSource(el)) return null;
    const t = trackOf(el);
    return t ? {percent: trackPercent(el), track: t.box, vertical: t.vertical} : null;
  }

  return {classify, listened, dragSource, sliderPart, trackOf, trackPercent, slider};
})
