// settle.js waits a few animation frames for the element to stop moving (an
// opening animation, a layout shift) and, if enabled is set, to be enabled.
// It gives up after about 20 frames and reports what it saw, and for an
// element of the top document, how much of it shows (visibleBox.js).
/* global visibleBox */
(async function (enabled) {
  const el = this, win = el.ownerDocument.defaultView;
  const ctl = el.localName === 'label' && el.control ? el.control : el;
  const disabled = () => ctl.matches(':disabled') || el.getAttribute('aria-disabled') === 'true';
  // Positions are compared across rendered frames, so that an animation
  // has advanced between two samples. A page that renders no frames (a
  // hidden one, a throttled frame) gets a timer instead, whose ticks count
  // as frames only in a hidden page.
  const frame = () => new Promise((resolve) => {
    let done = false;
    const f = (rendered) => { if (!done) { done = true; resolve(rendered); } };
    win.requestAnimationFrame(() => f(true));
    win.setTimeout(() => f(el.ownerDocument.visibilityState === 'hidden'), 100);
  });
  // The running animations and transitions that move or resize el: on it
  // or on an element around it (across shadow roots), changing a property
  // of geometry. When there are none, el is taken as stable at once;
  // otherwise they are waited for to finish (1 s at most; an endless one
  // is then sampled frame by frame as below).
  const GEOMETRY = /^(transform|translate|scale|rotate|left|right|top|bottom|inset|width|height|margin|padding|offset|minWidth|maxWidth|minHeight|maxHeight|flex|grid|fontSize|zoom|lineHeight|display|position)/;
  const moving = () => {
    const around = new Set();
    for (let n = el; n; n = n.parentElement || (n.getRootNode && n.getRootNode().host) || null) around.add(n);
    return el.ownerDocument.getAnimations().filter((a) => {
      const t = a.effect && a.effect.target;
      if (a.playState !== 'running' || !t || !around.has(t)) return false;
      try {
        return a.effect.getKeyframes().some((k) => Object.keys(k).some((p) => GEOMETRY.test(p)));
      } catch (e) { return true; }
    });
  };
  let anims = moving();
  if (anims.length) {
    await Promise.race([
      Promise.all(anims.map((a) => a.finished.catch(() => {}))),
      new Promise((r) => win.setTimeout(r, 1000)),
    ]);
    anims = moving();
  }
  // Whether el shows wholly in the top viewport, clipped by no scrolled
  // container (then it needs no scrolling), what of it shows, and that
  // viewport's size: only for the top document.
  const view = () => {
    if (el.ownerDocument !== document) return {inView: false, clip: null, vw: 0, vh: 0};
    const v = visibleBox.call(el), de = document.documentElement;
    return {inView: v.whole, clip: v.clip, vw: de.clientWidth, vh: de.clientHeight};
  };
  if (!anims.length && (!enabled || !disabled())) return {stable: true, disabled: false, ...view()};
  let last = '', same = 0, rendered = true;
  for (let i = 0; i < 20; i++) {
    if (rendered) {
      const r = el.getBoundingClientRect();
      const k = [r.x, r.y, r.width, r.height].join();
      same = k === last ? same + 1 : 0;
      last = k;
    }
    if (same >= 1 && (!enabled || !disabled())) break;
    rendered = await frame();
  }
  return {stable: same >= 1, disabled: disabled(), ...view()};
})
