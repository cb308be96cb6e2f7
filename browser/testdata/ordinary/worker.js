// The worker of probe.html: it answers with its tells.
importScripts('tells.js');
tells().then((t) => postMessage(t), (e) => postMessage({ error: String(e) }));
