// pageErrors.js runs, for traces (Options.RecordActivity), in webagent's
// world of every document before the page's scripts: it reports the
// page's uncaught errors and unhandled promise rejections through the
// binding, as "error:" and a JSON {text, url}. The page cannot see its
// listeners. It is a function of the binding's name.
(function (binding) {
  const send = (text, url) => {
    const f = window[binding];
    if (typeof f === 'function') { try { f('error:' + JSON.stringify({text: String(text).slice(0, 2000), url: url || location.href})); } catch (e) { /* gone */ } }
  };
  window.addEventListener('error', (e) => {
    if (e instanceof ErrorEvent) send(e.message + (e.lineno ? ' (' + e.filename + ':' + e.lineno + ')' : ''), e.filename);
  }, true);
  window.addEventListener('unhandledrejection', (e) => {
    let why = '';
    try { why = e.reason && e.reason.message ? e.reason.message : String(e.reason); } catch (err) { why = 'a rejected promise'; }
    send('Uncaught (in promise) ' + why);
  }, true);
})
