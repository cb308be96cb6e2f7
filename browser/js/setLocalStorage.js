// setLocalStorage.js stores the items, {name, value} pairs, in the
// localStorage of the document's origin.
(function (items) {
  for (const {name, value} of items) localStorage.setItem(name, value);
  return true;
})
