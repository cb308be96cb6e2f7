package browser

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// Pages that mimic the consent platforms as a site embeds them: a loader
// script that shows the banner a moment after the page loads, the
// platform's global API, and the cookie it stores the visitor's choice in.

// oneTrustPage embeds a OneTrust-like platform: its stub script, its
// banner #onetrust-banner-sdk and the OneTrust object, whose RejectAll and
// AllowAll store the groups in the OptanonConsent cookie and hide the
// banner.
const oneTrustPage = `<title>Shop</title><h1>Welcome to the shop</h1><p>Our products.</p>
<script src="/scripttemplates/otSDKStub.js" data-domain-script="0000-test" async></script>`

const oneTrustStub = `setTimeout(() => {
  const sdk = document.createElement('div');
  sdk.id = 'onetrust-consent-sdk';
  sdk.innerHTML = '<div id="onetrust-banner-sdk" role="region" aria-label="Cookie banner" style="position:fixed;bottom:0;left:0;right:0;background:#fff">' +
    '<p id="onetrust-policy-text">We use cookies to give you the best experience. Accept all cookies or reject the ones that are not necessary.</p>' +
    '<button id="onetrust-reject-all-handler">Reject All</button><button id="onetrust-accept-btn-handler">Accept All Cookies</button></div>';
  document.body.appendChild(sdk);
  const save = (groups) => {
    document.cookie = 'OptanonConsent=isGDPRRegion=true&groups=' + encodeURIComponent(groups) + '; path=/';
    document.cookie = 'OptanonAlertBoxClosed=' + new Date().toISOString() + '; path=/';
    document.getElementById('onetrust-banner-sdk').style.display = 'none';
  };
  window.OneTrust = {
    RejectAll: () => save('C0001:1,C0002:0,C0003:0,C0004:0'),
    AllowAll: () => save('C0001:1,C0002:1,C0003:1,C0004:1'),
    IsAlertBoxClosed: () => document.cookie.includes('OptanonAlertBoxClosed='),
  };
  document.getElementById('onetrust-reject-all-handler').onclick = () => window.OneTrust.RejectAll();
  document.getElementById('onetrust-accept-btn-handler').onclick = () => window.OneTrust.AllowAll();
}, 300);`

// cookiebotPage embeds a Cookiebot-like platform: script#Cookiebot, its
// dialog #CybotCookiebotDialog and Cookiebot.submitCustomConsent, which
// stores the choice in the CookieConsent cookie.
const cookiebotPage = `<title>News</title><h1>Today's news</h1><p>Stories.</p>
<script id="Cookiebot" src="/uc.js" data-cbid="0000-test" async></script>`

const cookiebotUC = `(() => {
  const d = document.createElement('div');
  d.id = 'CybotCookiebotDialog';
  d.setAttribute('role', 'dialog');
  d.style.cssText = 'position:fixed;top:20%;left:20%;width:60%;background:#fff;border:1px solid';
  d.innerHTML = '<h2>This website uses cookies</h2><p>We use cookies to personalise content and ads and to analyse our traffic.</p>' +
    '<button id="CybotCookiebotDialogBodyButtonDecline">Deny</button><button id="CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll">Allow all</button>';
  document.body.appendChild(d);
  window.Cookiebot = {
    hasResponse: false,
    submitCustomConsent(preferences, statistics, marketing) {
      const v = '{stamp:%27test%27%2Cnecessary:true%2Cpreferences:' + preferences + '%2Cstatistics:' + statistics +
        '%2Cmarketing:' + marketing + '%2Cmethod:%27explicit%27%2Cver:1}';
      document.cookie = 'CookieConsent=' + v + '; path=/';
      this.hasResponse = true;
      d.remove();
    },
  };
})();`

// didomiPage embeds a Didomi-like platform: its loader, its notice
// #didomi-notice and the Didomi object, whose setUserDisagreeToAll and
// setUserAgreeToAll store the purposes in the didomi_token cookie.
const didomiPage = `<title>Travel</title><h1>Trips</h1><p>Offers.</p>
<script src="/didomi/loader.js" async></script>`

const didomiLoader = `setTimeout(() => {
  const host = document.createElement('div');
  host.id = 'didomi-host';
  host.innerHTML = '<div id="didomi-notice" style="position:fixed;bottom:0;left:0;right:0;background:#fff">' +
    '<p>We and our partners use cookies to store and access personal data on your device.</p>' +
    '<button id="didomi-notice-disagree-button">Continue without agreeing</button><button id="didomi-notice-agree-button">Agree and close</button></div>';
  document.body.appendChild(host);
  let answered = false;
  const save = (agree) => {
    const purposes = agree ? {enabled: ['analytics', 'ads'], disabled: []} : {enabled: [], disabled: ['analytics', 'ads']};
    document.cookie = 'didomi_token=' + encodeURIComponent(JSON.stringify({purposes})) + '; path=/';
    answered = true;
    document.getElementById('didomi-notice').remove();
  };
  window.Didomi = {
    setUserDisagreeToAll: () => save(false),
    setUserAgreeToAll: () => save(true),
    shouldConsentBeCollected: () => !answered,
  };
}, 200);`

// usercentricsPage embeds a Usercentrics-like platform: its banner in the
// shadow root of #usercentrics-root and the UC_UI object, whose
// denyAllConsents and acceptAllConsents keep the choice in localStorage
// (uc_settings), as Usercentrics does.
const usercentricsPage = `<title>Bank</title><h1>Accounts</h1><p>Rates.</p>
<script id="usercentrics-cmp" src="/usercentrics/loader.js" async></script>`

const usercentricsLoader = `(() => {
  const host = document.createElement('div');
  host.id = 'usercentrics-root';
  document.body.appendChild(host);
  const root = host.attachShadow({mode: 'open'});
  root.innerHTML = '<div role="dialog" aria-label="Privacy settings" style="position:fixed;bottom:0;left:0;right:0;background:#fff">' +
    '<p>We use cookies and similar technologies with your consent.</p>' +
    '<button data-testid="uc-deny-all-button">Deny</button><button data-testid="uc-accept-all-button">Accept All</button></div>';
  let required = true;
  const save = (all) => {
    localStorage.setItem('uc_settings', JSON.stringify({services: [{id: 'analytics', status: all}, {id: 'ads', status: all}]}));
    required = false;
    root.innerHTML = '';
    return Promise.resolve();
  };
  window.UC_UI = {
    denyAllConsents: () => save(false),
    acceptAllConsents: () => save(true),
    isConsentRequired: () => required,
    closeCMP: () => Promise.resolve(),
  };
})();`

// genericPage is a site's own cookie dialog: its buttons store the choice
// in a cookie, and only for a trusted click.
const genericPage = `<title>Blog</title><h1>My blog</h1><p>Posts.</p>
<div id=cookies role=dialog aria-label="Cookies" style="position:fixed;bottom:0;left:0;right:0;background:#fff">
<p>We use cookies to measure our audience. Do you agree?</p>
<button id=no>Reject all</button> <button id=yes>Accept all</button></div>
<script>
for (const [id, v] of [['no', 'rejected'], ['yes', 'accepted']]) {
  document.getElementById(id).addEventListener('click', (e) => {
    if (!e.isTrusted) return;
    document.cookie = 'blog_consent=' + v + '; path=/';
    document.getElementById('cookies').remove();
  });
}
</script>`

// consentSite serves the consent pages and keeps the Cookie header of the
// latest request to /next, which is what the site sees of the choice.
type consentSite struct {
	url string
	mu  sync.Mutex
	got string
}

func newConsentSite(t *testing.T) *consentSite {
	t.Helper()
	s := &consentSite{}
	mux := http.NewServeMux()
	page := func(body, ct string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", ct)
			fmt.Fprint(w, body)
		}
	}
	const html, js = "text/html; charset=utf-8", "text/javascript"
	mux.Handle("/onetrust", page(oneTrustPage, html))
	mux.Handle("/scripttemplates/otSDKStub.js", page(oneTrustStub, js))
	mux.Handle("/cookiebot", page(cookiebotPage, html))
	mux.Handle("/uc.js", page(cookiebotUC, js))
	mux.Handle("/generic", page(genericPage, html))
	mux.Handle("/didomi", page(didomiPage, html))
	mux.Handle("/didomi/loader.js", page(didomiLoader, js))
	mux.Handle("/usercentrics", page(usercentricsPage, html))
	mux.Handle("/usercentrics/loader.js", page(usercentricsLoader, js))
	mux.HandleFunc("/next", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = r.Header.Get("Cookie")
		s.mu.Unlock()
		fmt.Fprint(w, "<title>Next</title><p>Next page</p>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// cookie returns the value of the named cookie the site received on its
// latest /next request, URL-decoded.
func (s *consentSite) cookie(t *testing.T, b *Browser, name string) string {
	t.Helper()
	do(t, b, contract.Action{Name: contract.ActGoto, URL: s.url + "/next"})
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range strings.SplitSeq(s.got, "; ") {
		if k, v, _ := strings.Cut(c, "="); k == name {
			dec, err := url.QueryUnescape(v)
			if err != nil {
				t.Fatalf("cookie %s=%q: %v", name, v, err)
			}
			return dec
		}
	}
	t.Fatalf("the site got no %s cookie; its Cookie header: %q", name, s.got)
	return ""
}

// wantNotice fails the test unless one of the snapshot's notices is want.
func wantNotice(t *testing.T, s contract.Snapshot, want string) {
	t.Helper()
	for _, n := range s.Notices {
		if n == want {
			return
		}
	}
	t.Errorf("no notice %q; notices: %q", want, s.Notices)
}

// consentCase is one consent page: the banner's text, the notice for each
// answer and the cookie that stores it (or the localStorage key, with
// local).
type consentCase struct {
	path, banner, cookie string
	local                bool
	notice, stored       map[string]string
}

var consentCases = []consentCase{
	{
		path: "/onetrust", banner: "We use cookies to give you the best experience", cookie: "OptanonConsent",
		notice: map[string]string{ConsentReject: "cookie consent: rejected (OneTrust)", ConsentAccept: "cookie consent: accepted (OneTrust)"},
		stored: map[string]string{ConsentReject: "groups=C0001:1,C0002:0,C0003:0,C0004:0", ConsentAccept: "groups=C0001:1,C0002:1,C0003:1,C0004:1"},
	},
	{
		path: "/cookiebot", banner: "This website uses cookies", cookie: "CookieConsent",
		notice: map[string]string{ConsentReject: "cookie consent: rejected (Cookiebot)", ConsentAccept: "cookie consent: accepted (Cookiebot)"},
		stored: map[string]string{
			ConsentReject: "necessary:true,preferences:false,statistics:false,marketing:false",
			ConsentAccept: "necessary:true,preferences:true,statistics:true,marketing:true",
		},
	},
	{
		path: "/didomi", banner: "We and our partners use cookies", cookie: "didomi_token",
		notice: map[string]string{ConsentReject: "cookie consent: rejected (Didomi)", ConsentAccept: "cookie consent: accepted (Didomi)"},
		stored: map[string]string{ConsentReject: `"enabled":[],"disabled":["analytics","ads"]`, ConsentAccept: `"enabled":["analytics","ads"],"disabled":[]`},
	},
	{
		path: "/usercentrics", banner: "We use cookies and similar technologies", cookie: "uc_settings", local: true,
		notice: map[string]string{ConsentReject: "cookie consent: rejected (Usercentrics)", ConsentAccept: "cookie consent: accepted (Usercentrics)"},
		stored: map[string]string{
			ConsentReject: `[{"id":"analytics","status":false},{"id":"ads","status":false}]`,
			ConsentAccept: `[{"id":"analytics","status":true},{"id":"ads","status":true}]`,
		},
	},
	{
		path: "/generic", banner: "We use cookies to measure our audience", cookie: "blog_consent",
		notice: map[string]string{
			ConsentReject: `cookie consent: rejected (a cookie dialog, clicked "Reject all")`,
			ConsentAccept: `cookie consent: accepted (a cookie dialog, clicked "Accept all")`,
		},
		stored: map[string]string{ConsentReject: "rejected", ConsentAccept: "accepted"},
	},
}

// With Consent set, the first snapshot after goto no longer shows the
// banner, says how it was answered, and the site's next request carries
// the answer in its cookie.
func TestConsentAnswersBanners(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{ConsentReject, ConsentAccept} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			b := newTabWith(t, Options{Consent: mode})
			site := newConsentSite(t)
			for _, c := range consentCases {
				s := open(t, b, site.url+c.path)
				if strings.Contains(s.Text, c.banner) {
					t.Errorf("%s: the banner still shows:\n%s", c.path, s.Text)
				}
				wantNotice(t, s, c.notice[mode])
				var got string
				if c.local {
					got = evalPage[string](t, b, "localStorage.getItem("+strconv.Quote(c.cookie)+") ?? ''")
				} else {
					got = site.cookie(t, b, c.cookie)
				}
				if !strings.Contains(got, c.stored[mode]) {
					t.Errorf("%s: the site got %s=%q, want it to hold %q", c.path, c.cookie, got, c.stored[mode])
				}
			}
		})
	}
}

// Without Consent, the banner is left to the model: it shows in the
// snapshot, with its buttons, and no notice speaks of it.
func TestConsentOffLeavesBanner(t *testing.T) {
	t.Parallel()
	shared := newTab(t)
	site := newConsentSite(t)
	for _, c := range consentCases {
		// The platforms show their banner a moment after the page loads.
		s := open(t, shared, site.url+c.path)
		waitFor(t, c.path+"'s banner in the snapshot", 5*time.Second, func() bool {
			if !strings.Contains(s.Text, c.banner) {
				s = snapshot(t, shared)
			}
			return strings.Contains(s.Text, c.banner)
		})
		for _, n := range s.Notices {
			if strings.Contains(n, "cookie consent") {
				t.Errorf("%s: a notice about consent without Consent set: %q", c.path, n)
			}
		}
	}
	s := open(t, shared, site.url+"/generic")
	refOf(t, s, `button "Reject all"`)
}

// Nothing but a cookie banner's reject button is clicked: not a dialog
// with a Reject button that is not about cookies (though it speaks of
// them), not a fixed toolbar's Decline, not a Reject button elsewhere on
// a page whose body is named after its banner; and a banner without a
// reject button is left to the model, which a notice tells.
func TestConsentClicksOnlyBannerButtons(t *testing.T) {
	t.Parallel()
	b := newTabWith(t, Options{Consent: ConsentReject})
	noneClicked := func(s contract.Snapshot) {
		t.Helper()
		if got := evalPage[any](t, b, "window.clicked ?? null"); got != nil {
			t.Errorf("the page's %v button was clicked", got)
		}
		for _, n := range s.Notices {
			if strings.Contains(n, "cookie consent: rejected") {
				t.Errorf("a notice of a rejection: %q", n)
			}
		}
	}
	s := open(t, b, servePage(t, `<title>Applications</title><h1>Applications</h1>
<div role=dialog aria-label="Application"><p>Jane applied for the baker position: she bakes cookies for the café.</p>
<button onclick="window.clicked = 'reject'">Reject</button> <button onclick="window.clicked = 'accept'">Accept</button></div>
<div style="position:fixed;top:0;right:0"><button onclick="window.clicked = 'decline'">Decline</button></div>`))
	refOf(t, s, `button "Reject"`)
	noneClicked(s)
	for _, n := range s.Notices {
		if strings.Contains(n, "cookie") {
			t.Errorf("a notice about cookies on a page without a banner: %q", n)
		}
	}

	s = open(t, b, servePage(t, `<title>Reviews</title><body class="has-cookie-banner"><h1>Reviews</h1>
<p>A review waits: <button onclick="window.clicked = 'review'">Reject</button></p>
<div id=cookie-banner style="position:fixed;bottom:0;left:0;right:0;background:#fff"><p>We use cookies for analytics.</p>
<button onclick="window.clicked = 'settings'">Manage settings</button> <button onclick="window.clicked = 'accept'">Accept all</button></div>`))
	noneClicked(s)
	if !strings.Contains(s.Text, "We use cookies for analytics") {
		t.Errorf("the banner without a reject button is not in the snapshot:\n%s", s.Text)
	}
	wantNotice(t, s, "cookie consent: a cookie banner (a cookie dialog) shows, but it could not be rejected: "+
		"it has no button to reject; it is in the snapshot: answer it yourself if it is in the way")
}

func TestCheckConsent(t *testing.T) {
	for _, v := range []string{"", ConsentReject, ConsentAccept} {
		if err := CheckConsent(v); err != nil {
			t.Errorf("CheckConsent(%q) = %v", v, err)
		}
	}
	err := CheckConsent("maybe")
	if err == nil || !strings.Contains(err.Error(), `"maybe"`) || !strings.Contains(err.Error(), "reject") {
		t.Errorf(`CheckConsent("maybe") = %v, want it to name the value and the choices`, err)
	}
	_, err = Launch(tctx(t), Options{Consent: "maybe"})
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Errorf("Launch with Consent maybe = %v, want a *ConfigError", err)
	}
}
