// scroller.js finds what a wheel at (x, y) scrolls in the direction (dx, dy):
// the innermost scrollable element there that has room, else the page.
(function (x, y, dx, dy) {
  const room = (e) => {
    const s = getComputedStyle(e);
    const ok = (o) => o === 'auto' || o === 'scroll' || o === 'overlay';
    if (dy > 0) return ok(s.overflowY) && e.scrollTop + e.clientHeight < e.scrollHeight - 1;
    if (dy < 0) return ok(s.overflowY) && e.scrollTop > 0;
    if (dx > 0) return ok(s.overflowX) && e.scrollLeft + e.clientWidth < e.scrollWidth - 1;
    return ok(s.overflowX) && e.scrollLeft > 0;
  };
  let e = document.elementFromPoint(x, y);
  while (e && e !== document.body && e !== document.documentElement) {
    if (room(e)) return e;
    e = e.parentElement || (e.getRootNode().host || null);
  }
  return document.scrollingElement || document.documentElement;
})
