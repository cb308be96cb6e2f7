package sites

import (
	"crypto/rand"
	"encoding/hex"
	"html/template"
	"net/http"
	"sync"
)

// Bank is a small online-banking site: a sign-in form, and an account page
// that shows the balance only to a signed-in user. It is the demo's site and
// the login test's.
type Bank struct {
	User, Password string
	Balance        string

	mu       sync.Mutex
	sessions map[string]bool
	logins   int
}

// NewBank returns a Bank with one account.
func NewBank(user, password, balance string) *Bank {
	return &Bank{User: user, Password: password, Balance: balance, sessions: map[string]bool{}}
}

// Logins reports how many successful sign-ins the site has seen.
func (b *Bank) Logins() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.logins
}

var bankPages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in - Harbor Bank</title>
<style>body{font-family:sans-serif;max-width:30em;margin:2em auto} label{display:block;margin:.5em 0}</style></head>
<body><header><h1>Harbor Bank</h1><nav><a href="/help">Help</a></nav></header>
<main><h2>Sign in to online banking</h2>
{{if .Error}}<p role="alert" class="error">{{.Error}}</p>{{end}}
<form method="post" action="/login">
<label>Username <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form></main></body></html>`))
})

var bankAccount = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("account").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Your account - Harbor Bank</title></head>
<body><header><h1>Harbor Bank</h1><p>Signed in as {{.User}}</p></header>
<main><h2>Checking account</h2>
<table><tr><th>Account</th><th>Balance</th></tr>
<tr><td>Everyday checking</td><td id="balance">{{.Balance}}</td></tr></table>
<form method="post" action="/logout"><button type="submit">Sign out</button></form>
</main></body></html>`))
})

func (b *Bank) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch r.URL.Path {
	case "/":
		if b.signedIn(r) {
			http.Redirect(w, r, "/account", http.StatusSeeOther)
			return
		}
		_ = bankPages().Execute(w, map[string]string{})
	case "/login":
		if r.Method != http.MethodPost {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		if r.FormValue("username") != b.User || r.FormValue("password") != b.Password {
			w.WriteHeader(http.StatusUnauthorized)
			_ = bankPages().Execute(w, map[string]string{"Error": "Wrong username or password."})
			return
		}
		id := newSessionID()
		b.mu.Lock()
		b.sessions[id] = true
		b.logins++
		b.mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "session", Value: id, Path: "/", HttpOnly: true})
		http.Redirect(w, r, "/account", http.StatusSeeOther)
	case "/account":
		if !b.signedIn(r) {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		_ = bankAccount().Execute(w, b)
	case "/logout":
		if c, err := r.Cookie("session"); err == nil {
			b.mu.Lock()
			delete(b.sessions, c.Value)
			b.mu.Unlock()
		}
		http.Redirect(w, r, "/", http.StatusSeeOther)
	case "/help":
		_, _ = w.Write([]byte(`<!doctype html><title>Help - Harbor Bank</title><h1>Help</h1><p>Call us.</p><a href="/">Back to sign in</a>`))
	default:
		http.NotFound(w, r)
	}
}

func (b *Bank) signedIn(r *http.Request) bool {
	c, err := r.Cookie("session")
	if err != nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sessions[c.Value]
}

func newSessionID() string {
	var buf [16]byte
	_, _ = rand.Read(buf[:])
	return hex.EncodeToString(buf[:])
}
