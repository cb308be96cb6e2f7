package browser

import (
	"strings"
	"testing"

	"github.com/webagent/webagent/testfixture/tier"
)

// The checks a person must pass are named, on the snapshot's first line and
// in HumanCheck, with whether they stand in front of the page; widgets
// that ask nothing (invisible reCAPTCHA) and pages that only talk about
// CAPTCHAs are not checks.
func TestHumanCheckNamed(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	shared := newTab(t)
	article := strings.Repeat("<p>"+strings.Repeat("A long story about how sites ask whether you are a robot. ", 10)+"</p>", 6)
	// A widget's frame on another site (localhost and 127.0.0.1 are
	// different sites), as Google's and hCaptcha's frames are.
	widgets := serve(t, map[string]string{"/": `<div style="width:300px;height:74px">I'm not a robot</div>`})
	other := strings.Replace(widgets, "127.0.0.1", "localhost", 1)
	form := `<form><label>Email <input name=email></label>` + article + `%s<button>Send</button></form>`
	cases := []struct {
		name, page, check string
		whole             bool
	}{
		{"recaptcha frame", strings.Replace(form, "%s", `<div class=g-recaptcha data-sitekey=k><iframe title=reCAPTCHA width=304 height=78 src="`+other+`/recaptcha/api2/anchor?ar=1&k=key&size=normal"></iframe></div>`, 1), "reCAPTCHA", false},
		{"recaptcha page", `<title>Sorry</title><p>Our systems have detected unusual traffic.</p><iframe width=304 height=78 src="` + other + `/recaptcha/api2/anchor?k=key"></iframe>`, "reCAPTCHA", true},
		{"hcaptcha unloaded", strings.Replace(form, "%s", `<div class=h-captcha data-sitekey=k style="width:303px;height:78px"></div>`, 1), "hCaptcha", false},
		{"turnstile", strings.Replace(form, "%s", `<div class=cf-turnstile data-sitekey=k style="width:300px;height:65px"><iframe style="width:300px;height:65px;border:0" src="`+other+`/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv/x"></iframe></div>`, 1), "Cloudflare Turnstile", false},
		{"cloudflare challenge", `<title>Just a moment...</title><h1>example.com</h1><p>Checking if the site connection is secure</p><div id=challenge-stage></div>`, "Cloudflare challenge", true},
		{"verify page", `<title>Access denied</title><h1>Please verify you are a human</h1><p>Press and hold the button.</p><button>Press &amp; Hold</button>`, `a "verify you are human" check`, true},
		{"invisible recaptcha", strings.Replace(form, "%s", `<iframe width=256 height=60 src="`+other+`/recaptcha/api2/anchor?k=key&size=invisible"></iframe>`, 1), "", false},
		{"hidden widget", strings.Replace(form, "%s", `<div class=g-recaptcha style="display:none;width:304px;height:78px"></div>`, 1), "", false},
		{"article about robots", `<title>News</title><h1>Are you a robot?</h1>` + article, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := open(t, shared, servePage(t, c.page))
			if s.HumanCheck != c.check || (c.check != "" && s.HumanCheckBlocks != c.whole) {
				t.Fatalf("HumanCheck %q (blocks %v), want %q (blocks %v):\n%s", s.HumanCheck, s.HumanCheckBlocks, c.check, c.whole, s.Text)
			}
			first, _, _ := strings.Cut(s.Text, "\n")
			if c.check == "" {
				if strings.Contains(s.Text, "human check") {
					t.Fatalf("no check, but the snapshot says one:\n%s", s.Text)
				}
				return
			}
			if !strings.HasPrefix(first, "human check: "+c.check) {
				t.Fatalf("the first line does not name the check: %q", first)
			}
		})
	}
}
