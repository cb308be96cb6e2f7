// defineWalker.js keeps the snapshot walker on the window of a
// cross-origin frame, so that the next walks of the same document send a
// call (walkStored.js) and not the walker's source.
/* global snapshot */
(function () {
  Object.defineProperty(window, Symbol.for('webagent.walk'), {value: snapshot, configurable: true});
  return true;
})
