// targetAt.js is target.js for the element at a viewport point of the
// main document (a mouse action without a ref), through open shadow roots
// and same-origin frames: the control that holds the point, with its name
// as the snapshot gives it (desc). A point on a frame of another site,
// whose document no script here may read, is that frame's: url is then
// the frame's address, whose site the policy judges. ref is the element's
// ref when a snapshot gave it one.
/* global target */
(function (x, y, kind) {
  // describe names an element as the snapshot does; before the first
  // snapshot of a document, by its role and its label or text, so that a
  // rule on a name still sees it.
  const describe = (el) => {
    const reg = window[Symbol.for('webagent.refs')];
    if (reg && reg.describe) return reg.describe(el);
    const tag = el.localName, type = (el.getAttribute('type') || '').toLowerCase();
    const role = el.getAttribute('role') || {a: 'link', button: 'button', select: 'combobox', textarea: 'textbox', summary: 'button', iframe: 'iframe'}[tag] ||
      (tag === 'input' ? ({checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button', reset: 'button', image: 'button'}[type] || 'textbox') : tag);
    const name = (el.getAttribute('aria-label') || el.getAttribute('title') || (tag === 'input' && ['submit', 'button', 'reset'].includes(type) ? el.value : '') ||
      (el.innerText || '').replace(/\s+/g, ' ').trim()).slice(0, 100);
    return name ? role + ' ' + JSON.stringify(name) : role;
  };
  let doc = document, h = null;
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
    const r = h.getBoundingClientRect();
    if (!d) {
      let url = '';
      try { url = new URL(h.src, doc.baseURI).href; } catch (e) { /* no address */ }
      return {aims: true, form: null, desc: describe(h), url: url};
    }
    x -= r.left + h.clientLeft; y -= r.top + h.clientTop;
    doc = d;
  }
  if (!h) return {aims: false, form: null};
  const el = h.closest('a, button, input, select, textarea, summary, [role]') || h;
  const r = target.call(el, kind);
  r.desc = describe(el);
  const reg = window[Symbol.for('webagent.refs')];
  if (reg && reg.byEl) r.ref = reg.byEl.get(el) || '';
  if (doc !== document) r.url = doc.location.href;
  return r;
})
