// consent.js finds a cookie-consent banner in the page and answers it, mode
// being "reject" or "accept". A consent platform (OneTrust, Cookiebot,
// Didomi, Usercentrics) is answered through its own JavaScript API; a
// banner whose platform has no API here (an IAB TCF CMP, a site's own
// cookie dialog) gets its button kept for consentButton.js, which the
// browser then clicks with a trusted click. A platform the page loads but
// that has not shown its banner yet is waited for, on every DOM change, at
// most ms. Only a visible dialog or fixed box that speaks of cookies or
// consent, or a known platform's banner, counts: nothing else is touched.
// It resolves to {platform, outcome, label, button}: outcome "none" (no
// banner), "api" (answered through the API; label is the call), "click"
// (label is the button's text, button the button), "shown" (the API was called and the banner still
// shows) or "failed" (a banner with no button for mode).
(function (mode, ms) {
  const reject = mode === 'reject';
  const shows = (el) => {
    if (!el || !el.isConnected) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 &&
      el.checkVisibility({opacityProperty: true, visibilityProperty: true});
  };
  const fn = (obj, name) => obj && typeof obj[name] === 'function';
  const first = (sels) => {
    for (const s of sels) {
      for (const el of document.querySelectorAll(s)) if (shows(el)) return el;
    }
    return null;
  };

  // The platforms: their banner, the script tag that loads them, whether
  // their API is there, whether the visitor has answered already, the
  // call that answers for mode, and their own buttons.
  const platforms = [
    {
      name: 'OneTrust',
      banner: ['#onetrust-banner-sdk', '#onetrust-pc-sdk'],
      loader: 'script[src*="otSDKStub"], script[src*="cookielaw.org"], script[src*="otBannerSdk"]',
      ready: () => fn(window.OneTrust, 'RejectAll'),
      answered: () => fn(window.OneTrust, 'IsAlertBoxClosed') && window.OneTrust.IsAlertBoxClosed(),
      call: reject ? 'OneTrust.RejectAll()' : 'OneTrust.AllowAll()',
      answer: () => reject ? window.OneTrust.RejectAll() : window.OneTrust.AllowAll(),
      buttons: reject ? ['#onetrust-reject-all-handler', '.ot-pc-refuse-all-handler'] : ['#onetrust-accept-btn-handler', '#accept-recommended-btn-handler'],
    },
    {
      name: 'Cookiebot',
      banner: ['#CybotCookiebotDialog'],
      loader: 'script#Cookiebot, script#CookieConsent, script[src*="cookiebot.com"]',
      ready: () => fn(window.Cookiebot, 'submitCustomConsent'),
      answered: () => !!(window.Cookiebot && window.Cookiebot.hasResponse),
      call: reject ? 'Cookiebot.submitCustomConsent(false, false, false)' : 'Cookiebot.submitCustomConsent(true, true, true)',
      answer: () => window.Cookiebot.submitCustomConsent(!reject, !reject, !reject),
      buttons: reject ? ['#CybotCookiebotDialogBodyButtonDecline'] : ['#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll', '#CybotCookiebotDialogBodyButtonAccept'],
    },
    {
      name: 'Didomi',
      banner: ['#didomi-notice', '#didomi-popup'],
      loader: 'script[src*="privacy-center.org"], script[src*="didomi"]',
      ready: () => fn(window.Didomi, 'setUserDisagreeToAll'),
      answered: () => fn(window.Didomi, 'shouldConsentBeCollected') && !window.Didomi.shouldConsentBeCollected(),
      call: reject ? 'Didomi.setUserDisagreeToAll()' : 'Didomi.setUserAgreeToAll()',
      answer: () => reject ? window.Didomi.setUserDisagreeToAll() : window.Didomi.setUserAgreeToAll(),
      buttons: reject ? ['#didomi-notice-disagree-button'] : ['#didomi-notice-agree-button'],
    },
    {
      name: 'Usercentrics',
      banner: ['#usercentrics-root', '#usercentrics-cmp-ui'],
      loader: 'script#usercentrics-cmp, script[src*="usercentrics"]',
      ready: () => fn(window.UC_UI, 'denyAllConsents') || fn(window.__ucCmp, 'denyAllConsents'),
      answered: () => fn(window.UC_UI, 'isConsentRequired') && window.UC_UI.isConsentRequired() === false,
      call: reject ? 'UC_UI.denyAllConsents()' : 'UC_UI.acceptAllConsents()',
      answer: async () => {
        const api = fn(window.UC_UI, 'denyAllConsents') ? window.UC_UI : window.__ucCmp;
        await (reject ? api.denyAllConsents() : api.acceptAllConsents());
        if (fn(api, 'saveConsents')) await api.saveConsents();
        if (fn(api, 'closeCMP')) await api.closeCMP();
      },
      buttons: [],
      shadow: '[role=dialog], [data-testid=uc-default-banner], #uc-center-container',
    },
  ];

  // What a cookie banner says, and the buttons that answer it: a label
  // is compared whole, in lower case, its spaces and end punctuation
  // trimmed.
  const aboutCookies = new RegExp([
    String.raw`\b(we|our|this (site|website)|uses?|used|using|store|set|accept|allow|reject|these|third[- ]party|essential|necessary|optional|analytics|marketing|tracking|functional|performance|advertising) cookies\b`,
    String.raw`\bcookies? (policy|settings|preferences|consent|banner|notice|choices)\b`,
    String.raw`\bconsent\b`, String.raw`\bgdpr\b`, 'einwilligung', 'cookies (verwenden|nutzen|setzen)',
    'consentement', 'consentimiento', 'consenso', 'toestemming',
  ].join('|'), 'i');
  const rejectRE = [
    /^(reject|decline|deny|refuse)( all)?( cookies| optional cookies| non-essential cookies)?$/,
    /^(only|use only) (necessary|essential|required)( cookies)?( only)?$/,
    /^(necessary|essential|required)( cookies)? only$/,
    /^use necessary cookies only$/, /^continue without (accepting|agreeing)$/,
    /^(alle )?ablehnen$/, /^nur (notwendige|erforderliche|essenzielle)( cookies)?( akzeptieren| erlauben| zulassen)?$/,
    /^tout refuser$/, /^refuser( tout)?$/, /^continuer sans accepter$/,
    /^rechazar( todo| todas)?$/, /^rifiuta( tutto| tutti)?$/, /^alles weigeren$/, /^weigeren$/,
  ];
  const acceptRE = [
    /^(accept|allow|agree)( all)?( cookies)?$/, /^(accept|allow) all cookies$/,
    /^i (agree|accept)$/, /^(ok|okay|got it)$/, /^agree and (continue|close)$/,
    /^(alle )?akzeptieren$/, /^alle (zulassen|erlauben)$/, /^zustimmen$/,
    /^tout accepter$/, /^accepter( tout)?$/, /^j'accepte$/,
    /^aceptar( todo| todas)?$/, /^accetta( tutto| tutti)?$/, /^alles accepteren$/, /^accepteren$/,
  ];
  const text = (b) => (b.innerText || b.value || b.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim();
  const label = (b) => text(b).toLowerCase().replace(/[.!…]+$/, '');
  const wanted = reject ? rejectRE : acceptRE;
  const buttonIn = (box) => {
    for (const b of box.querySelectorAll('button, [role=button], a, input[type=button], input[type=submit]')) {
      if (shows(b) && wanted.some((re) => re.test(label(b)))) return b;
    }
    return null;
  };

  const BANNER_MAX = 3000; // characters of text
  // The boxes that may be a site's own cookie banner: dialogs, boxes
  // named after cookies or consent, and fixed or sticky boxes. A banner
  // shows in the viewport, so the fixed ones are found by hit tests on a
  // grid denser at the edges, where banners sit, and their ancestors:
  // a few dozen tests, where reading every element's style would cost
  // a large page a tenth of a second at every snapshot.
  const named = '[id*=cookie i], [class*=cookie i], [id*=consent i], [class*=consent i], [id*=gdpr i], [class*=gdpr i], [id*=cmp i], [class*=cmp-]';
  const GRID = [0.01, 0.05, 0.15, 0.3, 0.5, 0.7, 0.85, 0.95, 0.99];
  const fixedBoxes = (out) => {
    const seen = new Set();
    const w = document.documentElement.clientWidth, h = document.documentElement.clientHeight;
    for (const fx of GRID) {
      for (const fy of GRID) {
        for (const hit of document.elementsFromPoint(fx * w, fy * h).slice(0, 3)) {
          for (let el = hit; el && el !== document.body && el !== document.documentElement && !seen.has(el); el = el.parentElement) {
            seen.add(el);
            const pos = getComputedStyle(el).position;
            if (pos === 'fixed' || pos === 'sticky') out.add(el);
          }
        }
      }
    }
  };
  const boxes = () => {
    const out = new Set();
    for (const el of document.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true], ' + named)) out.add(el);
    fixedBoxes(out);
    // A banner is short: a box of the whole page (a body or wrapper
    // named after its banner) is not one. The smallest box is tried
    // first, so that a banner's button is the one found.
    const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
    return [...out]
      .filter((el) => el !== document.body && el !== document.documentElement && shows(el))
      .filter((el) => { const t = el.innerText || ''; return t.length <= BANNER_MAX && aboutCookies.test(t); })
      .sort((a, b) => area(a) - area(b));
  };

  // A platform's banner shows; Usercentrics draws its own in a shadow
  // root, which its host only holds.
  const bannerOf = (p) => {
    if (!p.shadow) return first(p.banner);
    const hosts = p.banner.map((s) => document.querySelector(s)).filter((h) => h && h.shadowRoot);
    return hosts.find((h) => [...h.shadowRoot.querySelectorAll(p.shadow)].some(shows)) || null;
  };
  // A platform asks when its banner shows and it has no answer stored.
  const platformShown = () => platforms.find((p) =>
    bannerOf(p) && (p.ready() || p.buttons.length) && !(p.ready() && p.answered()));
  // A platform is pending while its script is on the page and it has
  // not yet either loaded its API or found an answer stored.
  const pending = () => platforms.some((p) => document.querySelector(p.loader) && !(p.ready() && p.answered()));
  const settled = () => platformShown() || (pending() ? null : 'none');
  const until = (cond, limit) => {
    const v = cond();
    if (v || limit <= 0) return Promise.resolve(v);
    return new Promise((resolve) => {
      let done = false, queued = false;
      const finish = (v) => {
        if (done) return;
        done = true; obs.disconnect(); clearTimeout(to); clearInterval(iv); resolve(v);
      };
      const check = () => { queued = false; const v = cond(); if (v) finish(v); };
      const obs = new MutationObserver(() => { if (!queued) { queued = true; setTimeout(check, 0); } });
      obs.observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'class', 'hidden', 'open']});
      const iv = setInterval(check, 100); // an API defined without a DOM change
      const to = setTimeout(() => finish(cond()), limit);
    });
  };
  const keep = (platform, b) => ({platform, outcome: 'click', label: text(b), button: b});
  const generic = () => {
    const tcf = typeof window.__tcfapi === 'function';
    for (const box of boxes()) {
      const b = buttonIn(box);
      if (b) return keep(tcf ? 'an IAB TCF consent platform' : 'a cookie dialog', b);
    }
    return null;
  };
  const plainDialog = () => boxes().length > 0;

  return (async () => {
    const t0 = Date.now();
    let p = platformShown();
    if (!p && pending()) p = await until(settled, ms);
    if (p && p !== 'none') {
      const banner = () => bannerOf(p);
      if (p.ready()) {
        try { await p.answer(); } catch (e) { /* its buttons are tried below */ }
        const gone = await until(() => !banner(), Math.max(ms - (Date.now() - t0), 200));
        if (gone) return {platform: p.name, outcome: 'api', label: p.call};
      }
      const b = first(p.buttons);
      if (b) return keep(p.name, b);
      const g = generic();
      if (g) return {...g, platform: p.name};
      return {platform: p.name, outcome: p.ready() ? 'shown' : 'failed', label: p.ready() ? p.call : ''};
    }
    const g = generic();
    if (g) return g;
    if (plainDialog()) return {platform: typeof window.__tcfapi === 'function' ? 'an IAB TCF consent platform' : 'a cookie dialog', outcome: 'failed', label: ''};
    return {platform: '', outcome: 'none', label: ''};
  })();
})
