// changesSeen.js stops the watch of token (watchChanges.js) and tells
// whether it saw a change: true or false, or null when the watch is gone
// (a new document) and it cannot tell.
(function (token) {
  const w = window[Symbol.for('webagent.changes')];
  if (!w || w.token !== token) return null;
  w.stop();
  return w.fired;
})
