// clicks.js keeps, in webagent's world of the window win, the targets of
// the window's latest trusted press and click, for an action to tell
// whether its click arrived (a dialog that opens meanwhile can swallow it)
// and landed where it was aimed (inside shadow roots too: the innermost
// element of the event's path). It is a function of (win, binding) that
// returns the window's record, installing the watch on the first call
// (and keeping the binding's name when given); hit.js calls it before every
// click it aims.
//
// When an action expects its click (hit.js sets expect to the element
// aimed at and a token), the click tells it at once, through the binding:
// whether the press or the click reached the element, and if not, where
// it landed. The action so learns it without evaluating anything in a
// page that the click may have frozen.
//
// The watch's listeners are the isolated world's: page scripts cannot see
// them, and nothing of the page's world changes.
(function (win, binding) {
  const KEY = Symbol.for('webagent.clicks');
  if (win[KEY]) {
    if (binding) win[KEY].binding = binding;
    return win[KEY];
  }
  const clicks = { target: null, down: null, expect: null, binding };
  win[KEY] = clicks;
  const innermost = (e) => { const p = e.composedPath(); return p.length ? p[0] : e.target; };
  const within = (a, b) => { for (let n = a; n; n = n.parentNode || n.host) if (n === b) return true; return false; };
  const reaches = (el, t) => !!t && (within(t, el) ||
    (win.getComputedStyle(el).pointerEvents === 'none' && within(el, t)) ||
    (el.labels && Array.from(el.labels).some((l) => within(t, l))) ||
    (el.localName === 'label' && el.control && within(t, el.control)));
  const sender = () => {
    for (const w of [win, globalThis]) {
      try { if (clicks.binding && typeof w[clicks.binding] === 'function') return w[clicks.binding]; } catch (e) { /* another origin */ }
    }
    return null;
  };
  const report = (x, t) => {
    const send = sender();
    if (!send) return;
    const landed = !x.el.isConnected || !t.isConnected || reaches(x.el, t) || reaches(x.el, clicks.down);
    let where = '';
    if (!landed) {
      let reg = null;
      try { reg = win.top[Symbol.for('webagent.refs')]; } catch (e) { /* another origin */ }
      const n = t.nodeType === 1 ? t : t.parentElement;
      where = n && reg && reg.describe ? reg.describe(n) : (n ? n.localName : 'the page');
      const r = n && reg && reg.byEl ? reg.byEl.get(n) : null;
      if (r) where += ' [ref=' + r + ']';
    }
    send('click:' + x.token + ':' + JSON.stringify({ landed, where }));
  };
  win.addEventListener('click', (e) => {
    if (!e.isTrusted) return;
    clicks.target = innermost(e);
    const x = clicks.expect;
    clicks.expect = null;
    if (x) { try { report(x, clicks.target); } catch (err) { /* never break the page */ } }
  }, true);
  win.addEventListener('mousedown', (e) => { if (e.isTrusted) clicks.down = innermost(e); }, true);
  return clicks;
})
