// inputProbe.js is called in the page after an input: it resolves once the
// tasks the input queued, and the ones they queued, have run; given the
// token of the action's change watch (watchChanges.js), to whether the
// watch saw a change by then (null when it is gone), which leaves it
// watching: the answers to requests the input sent may change the page
// later (fetches.go).
(function (token) {
  const seen = () => {
    const w = window[Symbol.for('webagent.changes')];
    return w && w.token === token ? w.fired : null;
  };
  return new Promise(r => setTimeout(() => setTimeout(() => r(token ? seen() : null), 0), 0));
})
