// pageState.js fingerprints what a person would see change on the page: its
// URL, title and text, the values and states of its form controls, the
// focused element, the scroll position, the places and paints of SVG
// shapes and what canvases show, hashed (53-bit cyrb53).
(function () {
  const parts = [location.href, document.title, document.body ? document.body.innerText : ''];
  for (const e of document.querySelectorAll('input,select,textarea')) {
    parts.push(e.type === 'checkbox' || e.type === 'radio' ? String(e.checked) :
      e.localName === 'select' ? Array.from(e.selectedOptions).map((o) => o.index).join(',') : e.value);
  }
  const a = document.activeElement;
  parts.push(a ? a.localName + '#' + a.id + '@' + Array.prototype.indexOf.call(document.getElementsByTagName(a.localName), a) : '');
  parts.push(Math.round(scrollX) + ',' + Math.round(scrollY));
  // What an SVG scene shows moves or changes colour without text changing
  // (an animation, a game): the shapes' boxes and paints, the first 300.
  const shapes = document.querySelectorAll('svg circle,svg ellipse,svg rect,svg polygon,svg polyline,svg line,svg path,svg text,svg image,svg use');
  for (let i = 0; i < shapes.length && i < 300; i++) {
    const r = shapes[i].getBoundingClientRect(), st = getComputedStyle(shapes[i]);
    parts.push(Math.round(r.x) + ',' + Math.round(r.y) + ',' + Math.round(r.width) + ',' + Math.round(r.height) + st.fill + st.stroke + st.opacity);
  }
  // What a canvas shows: as its drawing log records it (canvasLog.js, in
  // the page's world: Options.Observable), the boxes of the latest items
  // drawn; else a 16x16 picture of it (a canvas a page's other origin
  // tainted cannot be read and is left out). A scene redrawn each frame
  // changes either.
  const logs = window[Symbol.for('webagent.canvas')];
  const canvases = document.getElementsByTagName('canvas');
  let thumb = null;
  for (let i = 0; i < canvases.length && i < 20; i++) {
    const c = canvases[i], log = logs && logs.get(c);
    if (log) {
      for (const e of log.items.slice(-50)) parts.push(e.k + e.b.map(Math.round).join(','));
      continue;
    }
    if (!c.width || !c.height || !c.isConnected) continue;
    try {
      if (!thumb) thumb = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      thumb.canvas.width = thumb.canvas.height = 16; // also clears it
      thumb.drawImage(c, 0, 0, 16, 16);
      parts.push(Array.prototype.join.call(thumb.getImageData(0, 0, 16, 16).data));
    } catch (e) { /* tainted, or not drawable */ }
  }
  const str = parts.join('\u0000');
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (2097152 * (h2 >>> 0) + (h1 >>> 0)).toString(36) + ':' + str.length;
})
