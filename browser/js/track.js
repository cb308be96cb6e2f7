// track.js returns the track a slider's thumb moves along (see trackOf in
// snapRole.js): its box and whether it is vertical.
(function () {
  const reg = window[Symbol.for('webagent.refs')];
  return reg && reg.trackOf ? reg.trackOf(this) : null;
})
