// setFocusedPicker.js sets the value of the focused input that takes it in
// a fixed format (focusedPicker.js) as its picker would (setValue.js); it
// returns null when the focus is not on such an input.
/* global focusedPicker, setValue */
(function (v) {
  const el = focusedPicker();
  return el ? setValue.call(el, v) : null;
})
