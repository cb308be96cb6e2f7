// inputProbe.js is called in the page after an input: it resolves once the
// tasks the input queued, and the ones they queued, have run; given the
// token of the action's change watch (watchChanges.js), to what
// changesSeen.js then says of it, which ends the watch, and else to null.
/* global changesSeen */
(function (token) {
  return new Promise(r => setTimeout(() => setTimeout(() => r(token ? changesSeen(token) : null), 0), 0));
})
