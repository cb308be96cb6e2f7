// passkeyHeard.js runs in webagent's world of every frame of a tab before
// the page's own scripts, beside passkeyRefuse.js in the page's world: it
// hears each passkey creation refused there (an event of type name on the
// document, its detail the report) and passes it on through the world's
// binding, which webagent adds when it first reads the document (world.go)
// and so has by the time a model's action makes the site ask. A refusal
// before that (a site that asks as it loads) is refused all the same; the
// model is not told.
(name, binding) => {
  document.addEventListener(name, (e) => {
    const f = globalThis[binding];
    if (typeof f === 'function' && typeof e.detail === 'string') f('passkey:' + e.detail);
  }, true);
}
