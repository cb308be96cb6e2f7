// clickPrep.js is what a click does on the page before the mouse, in one
// call: it starts the change watch (watchChanges.js, with the binding and
// the watch's token; none for "") and aims at the element (aim.js with
// top set, and the click's token): the caller runs it only on an element
// of the page's target.
/* global watchChanges, aim */
(async function (watch, binding, fractions, token) {
  const watching = watch ? watchChanges(binding, watch) : false;
  return {watching: watching, aim: await aim.call(this, true, fractions, true, false, token, binding)};
})
