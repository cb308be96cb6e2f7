// scrollPos.js reports the position of a scroller once it has stopped
// moving (smooth scrolling takes a few frames), or after a second.
(function (settle) {
  const e = this, doc = e.ownerDocument, win = doc.defaultView;
  const pos = () => ({
    x: Math.round(e.scrollLeft), y: Math.round(e.scrollTop),
    maxX: Math.max(0, e.scrollWidth - e.clientWidth), maxY: Math.max(0, e.scrollHeight - e.clientHeight),
    page: e === doc.scrollingElement,
  });
  if (!settle) return pos();
  return new Promise((resolve) => {
    let last = '', same = 0, frames = 0;
    const done = setTimeout(() => resolve(pos()), 1000);
    const tick = () => {
      const p = e.scrollLeft + ',' + e.scrollTop;
      same = p === last ? same + 1 : 0;
      last = p;
      if (++frames >= 6 && same >= 3) { clearTimeout(done); resolve(pos()); } else win.requestAnimationFrame(tick);
    };
    win.requestAnimationFrame(tick);
  });
})
