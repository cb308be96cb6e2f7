package browser

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/botauth"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/testfixture/sigcheck"
)

// signedSite serves a page that makes every kind of request, and checks
// the signature of each request it receives with the test verifier.
type signedSite struct {
	*httptest.Server
	ver *sigcheck.Verifier
	mu  sync.Mutex
	got map[string]string // "METHOD /path" to "signed" or why not
}

func (s *signedSite) seen(what string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.got[what]
	return v, ok
}

func startSignedSite(t *testing.T, ver *sigcheck.Verifier, page func() string) *signedSite {
	s := &signedSite{ver: ver, got: map[string]string{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		verdict := "signed"
		if _, err := ver.Request(r); err != nil {
			verdict = err.Error()
		}
		if r.Header.Get("Signature") == "" {
			verdict = "unsigned"
		}
		s.mu.Lock()
		s.got[r.Method+" "+r.URL.Path] = verdict
		s.mu.Unlock()
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page())
		case "/s.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `document.title = 'scripted'`)
		case "/s.css":
			w.Header().Set("Content-Type", "text/css")
			fmt.Fprint(w, `p { color: red }`)
		case "/worker.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `fetch('/from-worker').then(() => postMessage('done'))`)
		case "/img.png":
			w.Header().Set("Content-Type", "image/gif")
			_, _ = w.Write([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"))
		case "/api":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"ok":true}`)
		case "/post":
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusSeeOther)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!doctype html><title>Landed</title><p>landed</p>`)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// TestSigning: with a signer, every request a real Chromium sends (the
// document, an image, a script, a style sheet, a fetch, a beacon, a
// dedicated worker's fetch, a frame of another site, a form post and the
// redirect hop it leads to on another site) reaches the sites signed for
// its own authority, as a verifier apart from the signer checks; with
// SignDomains naming one site, the other site's requests arrive unsigned.
func TestSigning(t *testing.T) {
	t.Parallel()
	key, err := botauth.NewKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := botauth.NewSigner(key, botauth.SignerOptions{SignatureAgent: "https://bot.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ver := &sigcheck.Verifier{Keys: map[string]ed25519.PublicKey{key.Thumbprint(): key.Public()}}
	other := startSignedSite(t, ver, func() string { return `<!doctype html><title>Other</title><p>other</p>` })
	site := startSignedSite(t, ver, func() string {
		return `<!doctype html><title>Page</title>
<link rel="stylesheet" href="/s.css"><script src="/s.js"></script>
<img src="/img.png" alt="local"><img src="` + other.URL + `/img.png" alt="other">
<iframe src="` + other.URL + `/frame"></iframe>
<p id="s">-</p>
<form method="post" action="/post?to=` + other.URL + `/landing"><input name="q" value="mug"><button>Send</button></form>
<script>
fetch('/api', {headers: {'Signature': 'forged=:AAAA:'}});
navigator.sendBeacon('/beacon', 'b=1');
const wk = new Worker('/worker.js'); wk.onmessage = (e) => { document.getElementById('s').textContent = e.data };
</script>`
	})
	check := func(t *testing.T, s *signedSite, name, verdict string, reqs ...string) {
		t.Helper()
		for _, r := range reqs {
			var got string
			waitFor(t, name+" "+r, 10*time.Second, func() bool {
				var ok bool
				got, ok = s.seen(r)
				return ok
			})
			if got != verdict {
				t.Errorf("%s %s: %s, want %s", name, r, got, verdict)
			}
		}
	}
	for _, c := range []struct {
		name        string
		domains     string
		otherSigned bool
	}{{"every site", "", true}, {"one site", strings.TrimPrefix(site.URL, "http://"), false}} {
		t.Run(c.name, func(t *testing.T) {
			for _, s := range []*signedSite{site, other} {
				s.mu.Lock()
				clear(s.got)
				s.mu.Unlock()
			}
			domains, err := contract.ParseDomainPatterns(c.domains)
			if err != nil {
				t.Fatal(err)
			}
			b := newTabWith(t, Options{Signer: signer, SignDomains: domains})
			do(t, b, contract.Action{Name: contract.ActGoto, URL: site.URL + "/"})
			waitFor(t, "the worker's answer", 10*time.Second, func() bool {
				return evalPage[string](t, b, "document.getElementById('s').textContent") == "done"
			})
			snap := snapshot(t, b)
			do(t, b, contract.Action{Name: contract.ActClick, Ref: refOf(t, snap, `button "Send"`)})
			check(t, site, "site", "signed", "GET /", "GET /s.css", "GET /s.js", "GET /img.png", "GET /api",
				"POST /beacon", "GET /worker.js", "GET /from-worker", "POST /post")
			otherVerdict := "unsigned"
			if c.otherSigned {
				otherVerdict = "signed"
			}
			check(t, other, "other site", otherVerdict, "GET /img.png", "GET /frame", "GET /landing")
		})
	}
}
