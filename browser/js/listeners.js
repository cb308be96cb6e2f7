// listeners.js runs in every frame of a tab before the page's own scripts. It
// wraps EventTarget.prototype.addEventListener to remember, in a WeakSet
// under a registered symbol, the elements that got a listener for an event
// a person triggers with the pointer or the keyboard. The snapshot walker
// gives such elements a ref even when nothing else marks them as
// actionable (a span made clickable by addEventListener or jQuery's .on).
//
// Elements that got a listener for drops (drop, dragover, dragenter) are
// remembered in a second WeakSet: the walker shows them as drop targets.
//
// It keeps the target of the latest trusted click of the window under a
// third symbol (see clickElement).
//
// It also notes, under two more symbols, whether any listener for pointer
// motion (mousemove, pointermove, pointerrawupdate) or for keys (keydown,
// keypress, keyup) was added anywhere in the document, window included: a
// click sends its mouse move, which costs a frame, only where the page can
// see one (see aimed), and type sends key events one by one only where the
// page can see them (see doType).
//
// Measured against the alternative, one DOMDebugger.getEventListeners call
// per candidate element, this costs nothing at snapshot time: the walker
// asks a WeakSet. The wrapper keeps the original's name, length and
// toString, so that pages that inspect it see no difference, and never
// throws into the page.
/* global masker */
((binding) => {
  const KEY = Symbol.for('webagent.listeners');
  if (window[KEY]) return;
  const set = new WeakSet(), drops = new WeakSet();
  Object.defineProperty(window, KEY, { value: set });
  Object.defineProperty(window, Symbol.for('webagent.drops'), { value: drops });
  const moves = { on: false }, keys = { on: false };
  Object.defineProperty(window, Symbol.for('webagent.moves'), { value: moves });
  Object.defineProperty(window, Symbol.for('webagent.keys'), { value: keys });
  const EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'keydown', 'dblclick', 'dragstart']);
  const MOVES = new Set(['mousemove', 'pointermove', 'pointerrawupdate']);
  const KEYS = new Set(['keydown', 'keypress', 'keyup', 'textInput']);
  const DROPS = new Set(['drop', 'dragover', 'dragenter']);
  const proto = EventTarget.prototype;
  const orig = proto.addEventListener;
  const wrapped = {
    addEventListener(type, listener, options) {
      try {
        const into = EVENTS.has(type) ? set : DROPS.has(type) ? drops : null;
        if (into && this instanceof Element && this.localName !== 'body' && this.localName !== 'html') into.add(this);
        if (MOVES.has(type)) moves.on = true;
        if (KEYS.has(type)) keys.on = true;
      } catch (e) { /* never break the page */ }
      return orig.call(this, type, listener, options);
    },
  }.addEventListener;
  // The targets of the latest trusted press and click of the window, for
  // an action to tell whether its click arrived (a dialog that opens
  // meanwhile can swallow it) and landed where it was aimed (inside
  // shadow roots too: the innermost element of the event's path).
  //
  // When an action expects its click (hit.js sets clicks.expect to the
  // element aimed at and a token), the click tells it at once, through the
  // binding: whether the press or the click reached the element, and if
  // not, where it landed. The action so learns it without evaluating
  // anything in a page that the click may have frozen.
  const clicks = { target: null, down: null, expect: null };
  Object.defineProperty(window, Symbol.for('webagent.clicks'), { value: clicks });
  const innermost = (e) => { const p = e.composedPath(); return p.length ? p[0] : e.target; };
  const within = (a, b) => { for (let n = a; n; n = n.parentNode || n.host) if (n === b) return true; return false; };
  const reaches = (el, t) => !!t && (within(t, el) ||
    (window.getComputedStyle(el).pointerEvents === 'none' && within(el, t)) ||
    (el.labels && Array.from(el.labels).some((l) => within(t, l))) ||
    (el.localName === 'label' && el.control && within(t, el.control)));
  const report = (x, t) => {
    const send = window[binding];
    if (typeof send !== 'function') return;
    const landed = !x.el.isConnected || !t.isConnected || reaches(x.el, t) || reaches(x.el, clicks.down);
    let where = '';
    if (!landed) {
      const reg = window.top[Symbol.for('webagent.refs')];
      const n = t.nodeType === 1 ? t : t.parentElement;
      where = n && reg && reg.describe ? reg.describe(n) : (n ? n.localName : 'the page');
      const r = n && reg && reg.byEl ? reg.byEl.get(n) : null;
      if (r) where += ' [ref=' + r + ']';
    }
    send('click:' + x.token + ':' + JSON.stringify({ landed, where }));
  };
  orig.call(window, 'click', (e) => {
    if (!e.isTrusted) return;
    clicks.target = innermost(e);
    const x = clicks.expect;
    clicks.expect = null;
    if (x) { try { report(x, clicks.target); } catch (err) { /* never break the page */ } }
  }, true);
  orig.call(window, 'mousedown', (e) => { if (e.isTrusted) clicks.down = innermost(e); }, true);
  Object.defineProperty(proto, 'addEventListener', { value: masker()(wrapped, orig), configurable: true, writable: true, enumerable: true });
})
