// personTarget.js names what a person's input in a live view acts on, as
// the snapshot names it, for the record of a takeover: with atPoint, the
// control at the viewport point (x, y) (a press of the mouse, a choice in a
// select), through open shadow roots and same-origin frames: the nearest
// element up from the one hit that the snapshot acts on, or a label's
// control; else the focused element (a key). It keeps that element, in
// webagent's world, for personValue.js to read its value once the input
// acted. It returns {} when nothing there is a control (a frame of another
// site, the page's background).
/* global colourName, canvasDrawn, canvasPixels, snapText, snapRole, snapName, snapStates */
(function (x, y, atPoint) {
  'use strict';
  const k = {colourName, canvasDrawn, canvasPixels}; // the walker's kit, as snapshot.js makes it
  for (const part of [snapText, snapRole, snapName, snapStates]) Object.assign(k, part(k));
  let h = null;
  if (atPoint) {
    let doc = document;
    for (let depth = 0; depth < 8; depth++) {
      h = doc.elementFromPoint(x, y);
      while (h && h.shadowRoot) {
        const s = h.shadowRoot.elementFromPoint(x, y);
        if (!s || s === h) break;
        h = s;
      }
      if (!h || (h.localName !== 'iframe' && h.localName !== 'frame')) break;
      let d = null;
      try { d = h.contentDocument; } catch (e) { /* another site's frame */ }
      if (!d) return {};
      const r = h.getBoundingClientRect();
      x -= r.left + h.clientLeft; y -= r.top + h.clientTop;
      doc = d;
    }
  } else {
    h = k.deepActive();
  }
  const up = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;
  let el = null, role = null;
  for (let c = h, n = 0; c && c.nodeType === 1 && n < 16; c = up(c), n++) {
    if (c.localName === 'body' || c.localName === 'html') break;
    const p = up(c);
    role = k.classify(c, c.localName, k.cs(c), {cursor: p ? k.cs(p).cursor : 'auto'});
    if (!role && c.localName === 'label' && c.control) {
      c = c.control;
      role = k.classify(c, c.localName, k.cs(c), {cursor: 'auto'});
    }
    if (role) { el = c; break; }
  }
  window[Symbol.for('webagent.personField')] = null;
  if (!el) return {};
  const tag = el.localName, type = (el.getAttribute('type') || '').toLowerCase();
  const multiline = tag === 'textarea' || el.isContentEditable;
  const field = multiline || (tag === 'input' && !['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'hidden', 'range', 'color'].includes(type));
  if (field) window[Symbol.for('webagent.personField')] = new WeakRef(el);
  const reg = window[Symbol.for('webagent.refs')];
  return {
    role: role,
    name: k.cut(k.accName(el, role, tag), k.NAME_LONG) || k.nameless(el, tag, role),
    ref: (reg && reg.byEl && reg.byEl.get(el)) || '',
    url: el.ownerDocument.location.href,
    field: field,
    multiline: multiline,
  };
})
