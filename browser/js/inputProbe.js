// inputProbe.js is called in the page after an input: it resolves once the
// tasks the input queued, and the ones they queued, have run.
(function () {
  return new Promise(r => setTimeout(() => setTimeout(r, 0), 0));
})
