// describe.js names the element it is called on (this) as the snapshot
// does: its role and accessible name.
(function () {
  const r = window[Symbol.for('webagent.refs')];
  return r ? r.describe(this) : this.localName;
})
