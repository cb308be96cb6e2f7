package replay_test

import (
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"sync"
)

// secret is the test account's password. The site shows it back in several
// encodings (page text, a console message in base64, a request URL
// percent-encoded), so that a trace that leaks it in any form is caught.
const secret = "hunter2 Sëcret/+pw"

// site is a small bank: a sign-in form, an account page with two rows that
// each have an "Open" button, and a savings page. Its label for the
// sign-in button can be changed, as a new release of a site would.
type site struct {
	mu     sync.Mutex
	label  string
	logins int // sign-ins with the right password
	opened []string
}

func newSite() *site { return &site{label: "Sign in"} }

func (s *site) setLabel(l string) { s.mu.Lock(); s.label = l; s.mu.Unlock() }

func (s *site) state() (int, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins, append([]string(nil), s.opened...)
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	s.mu.Lock()
	label := s.label
	s.mu.Unlock()
	page := func(body string) {
		fmt.Fprintf(w, `<!doctype html><html><head><title>Test bank</title></head><body>%s</body></html>`, body)
	}
	switch r.URL.Path {
	case "/":
		page(fmt.Sprintf(`<h1>Sign in</h1><form method="post" action="/login">
<label>Username <input name="user"></label>
<label>Password <input name="pw" type="password"></label>
<button type="submit">%s</button></form>
<script>console.log("sign-in page ready")</script>`, html.EscapeString(label)))
	case "/login":
		if r.FormValue("user") == "ann" && r.FormValue("pw") == secret {
			s.mu.Lock()
			s.logins++
			s.mu.Unlock()
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "ok", Path: "/"})
			http.Redirect(w, r, "/account", http.StatusSeeOther)
			return
		}
		w.WriteHeader(http.StatusForbidden)
		page(`<h1>Wrong password</h1>`)
	case "/account":
		if c, err := r.Cookie("session"); err != nil || c.Value != "ok" {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		page(fmt.Sprintf(`<h1>Your accounts</h1>
<p>Signed in with the password %s.</p>
<table><tr><td>Checking</td><td><form method="post" action="/open?a=checking"><button>Open</button></form></td></tr>
<tr><td>Savings</td><td><form method="post" action="/open?a=savings"><button>Open</button></form></td></tr></table>
<script>console.warn("session key", %q); fetch("/api/ping?k=%s").then(r => r.text()).then(t => console.log("ping", t));</script>`,
			html.EscapeString(secret), base64.StdEncoding.EncodeToString([]byte(secret)), url.QueryEscape(secret)))
	case "/open":
		a := r.URL.Query().Get("a")
		s.mu.Lock()
		s.opened = append(s.opened, a)
		s.mu.Unlock()
		http.Redirect(w, r, "/account/"+a, http.StatusSeeOther)
	case "/account/savings":
		page(`<h1>Savings</h1><p>Savings balance: $42.00</p>`)
	case "/account/checking":
		page(`<h1>Checking</h1><p>Checking balance: $7.00</p>`)
	case "/api/ping":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "pong")
	default:
		http.NotFound(w, r)
	}
}
