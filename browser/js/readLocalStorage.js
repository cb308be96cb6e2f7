// readLocalStorage.js returns the localStorage of the document's origin as
// JSON: a list of {name, value} pairs.
(function () {
  return JSON.stringify(Object.keys(localStorage).map((name) => ({name, value: localStorage.getItem(name)})));
})
