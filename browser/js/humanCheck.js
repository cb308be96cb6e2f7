// humanCheck.js names the check only a person may pass that a document
// shows, or returns '': a CAPTCHA widget (reCAPTCHA, hCaptcha, Cloudflare
// Turnstile, Arkose, GeeTest, DataDome, PerimeterX's press-and-hold, AWS
// WAF), a challenge page standing in front of a site (Cloudflare's "Just a
// moment...") or a short page that asks its visitor to prove they are
// human. It is a function of no argument, run in the document walked,
// that returns {name, whole} or null: whole when the check stands in front
// of the page (a challenge page, a page with little else on it), so that
// nothing can be done before it is passed.
//
// Only what a person sees counts: a widget hidden, smaller than 30 px or
// marked invisible (reCAPTCHA v3 and invisible widgets, which score the
// visitor without asking anything) is no check. A page's words count only
// when the page is short (a challenge page is), so an article about
// CAPTCHAs is not one, and only in the top document (a frame is part of
// a page).
(function () {
  const SHORT_TEXT = 1500; // characters of a page that asks in words alone
  // Frames by their address: [pattern, name].
  const FRAMES = [
    [/\/recaptcha\/(?:api2|enterprise)\/(?:anchor|bframe)/, 'reCAPTCHA'],
    [/(?:^|\.)hcaptcha\.com\//, 'hCaptcha'],
    [/challenges\.cloudflare\.com\//, 'Cloudflare Turnstile'],
    [/(?:arkoselabs\.com|funcaptcha\.com)\//, 'Arkose (FunCaptcha)'],
    [/captcha-delivery\.com\//, 'DataDome'],
    [/(?:geetest\.com)\//, 'GeeTest'],
  ];
  // Widgets by their element, for a widget whose frame has not loaded.
  const WIDGETS = [
    ['.g-recaptcha', 'reCAPTCHA'],
    ['.h-captcha', 'hCaptcha'],
    ['.cf-turnstile', 'Cloudflare Turnstile'],
    ['#px-captcha', 'PerimeterX press and hold'],
    ['.geetest_holder, .geetest_panel', 'GeeTest'],
    ['#captcha-container awswaf-captcha, awswaf-captcha', 'AWS WAF CAPTCHA'],
  ];
  const CHALLENGE = '#challenge-form, #challenge-running, #cf-challenge-running, .cf-browser-verification, #challenge-stage';
  const ASKS = /verify (?:that )?you are (?:a )?human|confirm you are (?:a )?human|are you a robot|i'?m not a robot|checking (?:if the site connection is secure|your browser)|press (?:and|&) hold|human verification|security check to continue/i;

  const seen = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 30 || r.height < 30) return false;
    const st = getComputedStyle(el);
    return st.visibility === 'visible' && st.display !== 'none' && Number(st.opacity) > 0.1;
  };
  const invisible = (el) => /(?:^|[?&#])size=invisible(?:&|$)/.test(el.src || '') ||
    (el.getAttribute && el.getAttribute('data-size') === 'invisible');

  // The page's text up to SHORT_TEXT + 1 characters: a walk that stops
  // early, as innerText would lay out and read a whole long page.
  let text = '';
  if (document.body) {
    const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n && text.length <= SHORT_TEXT; n = w.nextNode()) {
      const p = n.parentElement && n.parentElement.localName;
      if (p !== 'script' && p !== 'style' && p !== 'noscript' && p !== 'template') text += n.data.slice(0, SHORT_TEXT + 1).replace(/\s+/g, ' ');
    }
  }
  // A frame's words are a widget's, not a page's (reCAPTCHA's own frame
  // says "I'm not a robot"): words and challenge pages count in the top
  // document only.
  const top = window === window.top;
  const short = top && text.length <= SHORT_TEXT;
  const found = (name, whole) => ({ name, whole: whole || short });
  for (const f of document.querySelectorAll('iframe[src]')) {
    const src = f.src;
    for (const [re, name] of FRAMES) {
      if (re.test(src) && !invisible(f) && seen(f)) return found(name);
    }
  }
  for (const [sel, name] of WIDGETS) {
    for (const el of document.querySelectorAll(sel)) {
      if (!invisible(el) && seen(el)) return found(name);
    }
  }
  if (!top) return null;
  if (document.querySelector(CHALLENGE) || /^just a moment\.*$|^attention required!? \| cloudflare$/i.test(document.title.trim())) {
    return found('Cloudflare challenge', true);
  }
  if (short && ASKS.test(text + ' ' + document.title)) return found('a "verify you are human" check', true);
  for (const d of document.querySelectorAll('dialog[open], [role=dialog], [aria-modal=true]')) {
    if (seen(d) && ASKS.test(d.innerText.slice(0, SHORT_TEXT))) return found('a "verify you are human" check', true);
  }
  return null;
})
