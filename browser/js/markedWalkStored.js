// markedWalkStored.js sets the listener registry's records of motion and
// window keys (registry.js, with no new node) and then runs the walker the
// world keeps (walkStored.js), in one call: a walk after a look-up of the
// page's listeners that found no node new to the registry. A registry
// that fails leaves the walk as it is, as its own call did.
/* global registry, walkStored */
(function (moves, keys, floor, budget) {
  try { registry(moves, keys, 0, 0); } catch (e) { /* the walk goes on */ }
  return walkStored(floor, budget);
})
