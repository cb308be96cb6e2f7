// xframe.js returns the i-th cross-origin frame element the snapshot
// walker met in this document.
(function (i) {
  return window[Symbol.for('webagent.refs')].xframes[i];
})
