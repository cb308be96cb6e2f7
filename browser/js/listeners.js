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
(() => {
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
  // The latest trusted click of the window, for an action to tell whether
  // its click arrived (a dialog that opens meanwhile can swallow it).
  const clicks = { target: null };
  Object.defineProperty(window, Symbol.for('webagent.clicks'), { value: clicks });
  orig.call(window, 'click', (e) => { if (e.isTrusted) clicks.target = e.target; }, true);
  const toStr = Function.prototype.toString;
  const origStr = toStr.call(orig);
  Object.defineProperty(wrapped, 'toString', { value: function toString() { return origStr; }, configurable: true, writable: true });
  Object.defineProperty(proto, 'addEventListener', { value: wrapped, configurable: true, writable: true, enumerable: true });
})
