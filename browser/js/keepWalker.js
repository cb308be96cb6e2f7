// keepWalker.js runs the snapshot walker with (floor, budget) and keeps it
// on the window of webagent's world of the main frame, as defineWalker.js
// does in a cross-origin frame, so that the next walks of the same
// document send a call (walkStored.js) and not the walker's source.
/* global snapshot */
(function (floor, budget) {
  Object.defineProperty(window, Symbol.for('webagent.walk'), {value: snapshot, configurable: true});
  return snapshot(floor, budget);
})
