// passkeyRefuse.js runs in every frame of a tab, in the page's world,
// before the page's own scripts when webagent holds passkeys but may not
// create one (no --passkeys-create). A site's
// navigator.credentials.create({publicKey}) is refused as an
// authenticator whose user declines refuses it: the promise rejects with a
// NotAllowedError of Chromium's own message, and no authenticator sees the
// request, so no key is made and the site stores none. Other kinds of
// credential (password, federated) and calls Chromium itself rejects (a
// receiver that is no CredentialsContainer) go to the original; a request
// whose signal is already aborted rejects with its reason, as the
// original's does.
//
// CDP's WebAuthn domain cannot do this (docs/signin.md): its settings are
// the authenticator's, which creation and sign-in share, and it says
// nothing before a ceremony.
//
// Each refusal is reported, {"rp", "user"} (the request's rp id, else the
// page's host, and its user's name), so that the model is told: through
// the binding name when the page's world has it (Runtime enabled,
// Options.Observable), which the program keeps and deletes from the window
// before any script of the page runs; else as an event of type name on
// the document, which passkeyHeard.js hears in webagent's world. The
// wrapper passes for the original (masker.js).
/* global masker */
(name) => {
  const report = window[name];
  try { delete window[name]; } catch (e) { /* a world without it */ }
  const CC = window.CredentialsContainer;
  const d = CC && Object.getOwnPropertyDescriptor(CC.prototype, 'create');
  if (!d || typeof d.value !== 'function') return;
  const orig = d.value, apply = Reflect.apply, stringify = JSON.stringify;
  const dispatch = EventTarget.prototype.dispatchEvent, Custom = CustomEvent, doc = document;
  const refusal = 'The operation either timed out or was not allowed. ' +
    'See: https://www.w3.org/TR/webauthn-2/#sctn-privacy-considerations-client.';
  const str = (v) => (typeof v === 'string' ? v.slice(0, 200) : '');
  const wrapped = {
    create(...args) {
      const o = args[0];
      if (!(this instanceof CC) || o === null || typeof o !== 'object' || o.publicKey === null || typeof o.publicKey !== 'object') {
        return apply(orig, this, args);
      }
      if (o.signal && o.signal.aborted) return Promise.reject(o.signal.reason);
      try {
        const pk = o.publicKey;
        const said = stringify({ rp: str(pk.rp && pk.rp.id) || location.hostname, user: str(pk.user && pk.user.name) });
        if (typeof report === 'function') report(said);
        else apply(dispatch, doc, [new Custom(name, { detail: said })]);
      } catch (e) { /* never break the page */ }
      return Promise.reject(new DOMException(refusal, 'NotAllowedError'));
    },
  }.create;
  Object.defineProperty(wrapped, 'name', { value: orig.name });
  Object.defineProperty(wrapped, 'length', { value: orig.length });
  Object.defineProperty(CC.prototype, 'create', { ...d, value: masker()(wrapped, orig) });
}
