// clickArrived.js reports whether a trusted click arrived in the element's
// window since its hit test (hit.js forgets the one before); true when the
// window keeps no record.
(function () {
  const clicks = this.ownerDocument.defaultView[Symbol.for('webagent.clicks')];
  return !clicks || clicks.target !== null;
})
