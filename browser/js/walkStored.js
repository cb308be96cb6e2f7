// walkStored.js runs the walker that defineWalker.js kept on the window,
// with (floor, budget), or returns null when this document has none.
(function (floor, budget) {
  const w = window[Symbol.for('webagent.walk')];
  return w ? w(floor, budget) : null;
})
