// typePrep.js is what typing reads of its field before the keys, in one
// call: how text goes into it (typeKind.js), the origin of its document
// (for a secret), where the text shows in the page already (echoes.js, for
// a text field whose key events the page sees; text is null for a secret,
// which reaches the page only once its origin is checked) and, for a text
// field, the aim at it (aim.js, with top set: the caller runs it only on
// an element of the page's target).
/* global typeKind, echoes, aim */
(async function (text, fractions, binding) {
  const kind = typeKind.call(this);
  const out = {kind: kind, origin: this.ownerDocument.location.origin};
  if (kind.kind !== 'text') return out;
  if (kind.keys && !kind.secret && text !== null) out.before = echoes.call(this, text);
  out.aim = await aim.call(this, true, fractions, true, false, '', binding);
  return out;
})
