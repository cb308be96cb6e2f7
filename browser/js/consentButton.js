// consentButton.js returns the consent banner's button that consent.js
// kept for a trusted click, and forgets it; null when there is none.
(function () {
  const KEY = Symbol.for('webagent.consentButton');
  const b = window[KEY] || null;
  delete window[KEY];
  return b && b.isConnected ? b : null;
})
