// Package passkeysite is a fixture for the passkey tests: a relying party
// built on go-webauthn (a maintained WebAuthn library, so that what is
// checked is what a real site checks: the challenge, the origin, the rp id,
// the signature, user presence and verification), and the scripted model
// that creates a passkey on it or signs in with one.
package passkeysite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/modelserver"
)

// Site is the relying party: "/" has a user name field, "Create a passkey"
// and "Sign in with a passkey"; "/home" greets the user signed in.
type Site struct {
	srv    *httptest.Server
	origin string
	wa     *webauthn.WebAuthn

	mu      sync.Mutex
	users   map[string]*user // by user handle
	reg     *webauthn.SessionData
	regUser *user
	login   *webauthn.SessionData
	signIns []string
}

type user struct {
	id    []byte
	name  string
	creds []webauthn.Credential
}

func (u *user) WebAuthnID() []byte                         { return u.id }
func (u *user) WebAuthnName() string                       { return u.name }
func (u *user) WebAuthnDisplayName() string                { return u.name }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// Start serves the site on loopback as http://HOST:PORT, HOST its rp id:
// localhost, or a name under it (other.localhost), which Chromium treats as
// loopback, a secure context.
func Start(rpID string) (*Site, error) {
	s := &Site{users: map[string]*user{}}
	// Started once the site is whole: a request's handler must see every
	// field (the race detector sees no order in a network round trip).
	s.srv = httptest.NewUnstartedServer(s)
	_, port, _ := net.SplitHostPort(s.srv.Listener.Addr().String())
	s.origin = "http://" + rpID + ":" + port
	wa, err := webauthn.New(&webauthn.Config{RPID: rpID, RPDisplayName: "Passkey demo", RPOrigins: []string{s.origin}})
	if err != nil {
		s.srv.Close()
		return nil, err
	}
	s.wa = wa
	s.srv.Start()
	return s, nil
}

// URL is the site's address, on its rp id's host.
func (s *Site) URL() string { return s.origin + "/" }

// Close stops the site.
func (s *Site) Close() { s.srv.Close() }

// SignIns returns the users who signed in with a passkey, in order.
func (s *Site) SignIns() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.signIns...)
}

// Users returns how many users registered a passkey.
func (s *Site) Users() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.users)
}

// AddUser registers a user with a credential made elsewhere, so that a
// second site knows the same user (the rp id test).
func (s *Site) AddUser(name string, handle []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[string(handle)] = &user{id: handle, name: name}
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	case "/home":
		c, err := r.Cookie("who")
		if err != nil {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Home</title><h1>Welcome, %s</h1>`, html.EscapeString(c.Value))
	case "/register/begin":
		s.registerBegin(w, r)
	case "/register/finish":
		s.registerFinish(w, r)
	case "/login/begin":
		s.loginBegin(w)
	case "/login/finish":
		s.loginFinish(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *Site) registerBegin(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("user")
	if name == "" {
		http.Error(w, "no user name", http.StatusBadRequest)
		return
	}
	u := &user{id: []byte("handle-" + name), name: name}
	opts, sess, err := s.wa.BeginRegistration(u, webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
		ResidentKey: protocol.ResidentKeyRequirementRequired, UserVerification: protocol.VerificationRequired,
	}))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	s.reg, s.regUser = sess, u
	s.mu.Unlock()
	writeJSON(w, opts.Response)
}

func (s *Site) registerFinish(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sess, u := s.reg, s.regUser
	s.mu.Unlock()
	if sess == nil {
		http.Error(w, "no registration under way", http.StatusBadRequest)
		return
	}
	cred, err := s.wa.FinishRegistration(u, *sess, r)
	if err != nil {
		http.Error(w, "registration refused: "+errText(err), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	u.creds = append(u.creds, *cred)
	s.users[string(u.id)] = u
	s.mu.Unlock()
	writeJSON(w, map[string]string{"user": u.name})
}

func (s *Site) loginBegin(w http.ResponseWriter) {
	opts, sess, err := s.wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	s.login = sess
	s.mu.Unlock()
	writeJSON(w, opts.Response)
}

func (s *Site) loginFinish(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sess := s.login
	s.mu.Unlock()
	if sess == nil {
		http.Error(w, "no sign-in under way", http.StatusBadRequest)
		return
	}
	var who *user
	_, err := s.wa.FinishDiscoverableLogin(func(_, handle []byte) (webauthn.User, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		u, ok := s.users[string(handle)]
		if !ok {
			return nil, fmt.Errorf("unknown user")
		}
		who = u
		return u, nil
	}, *sess, r)
	if err != nil {
		http.Error(w, "sign-in refused: "+errText(err), http.StatusForbidden)
		return
	}
	s.mu.Lock()
	s.signIns = append(s.signIns, who.name)
	s.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: "who", Value: who.name, Path: "/"})
	writeJSON(w, map[string]string{"user": who.name})
}

func errText(err error) string {
	if pe, ok := err.(*protocol.Error); ok && pe.DevInfo != "" {
		return pe.Details + ": " + pe.DevInfo
	}
	return err.Error()
}

func writeJSON(w http.ResponseWriter, v any) {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(v)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b.Bytes())
}

// page runs the ceremonies with the browser's own JSON helpers.
const page = `<!doctype html><html><head><title>Passkey demo</title></head><body>
<h1>Passkey demo</h1>
<label>Username <input id="u" name="user" autocomplete="username webauthn"></label>
<button id="create" type="button">Create a passkey</button>
<button id="signin" type="button">Sign in with a passkey</button>
<p id="status" role="status"></p>
<script>
const status = document.getElementById('status');
async function post(url, cred) {
  const r = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(cred.toJSON())});
  if (!r.ok) throw new Error(await r.text());
  return r.json();
}
document.getElementById('create').onclick = async () => {
  try {
    const r = await fetch('/register/begin?user=' + encodeURIComponent(document.getElementById('u').value));
    if (!r.ok) throw new Error(await r.text());
    const opts = PublicKeyCredential.parseCreationOptionsFromJSON(await r.json());
    const cred = await navigator.credentials.create({publicKey: opts});
    const res = await post('/register/finish', cred);
    status.textContent = 'Passkey created for ' + res.user;
  } catch (e) { status.textContent = 'Passkey error: ' + (e.name || '') + ' ' + e.message; }
};
document.getElementById('signin').onclick = async () => {
  try {
    const r = await fetch('/login/begin');
    if (!r.ok) throw new Error(await r.text());
    const opts = PublicKeyCredential.parseRequestOptionsFromJSON(await r.json());
    const cred = await navigator.credentials.get({publicKey: opts});
    await post('/login/finish', cred);
    location.href = '/home';
  } catch (e) { status.textContent = 'Passkey error: ' + (e.name || '') + ' ' + e.message; }
};
</script></body></html>`

// Model is the scripted model. With a task "Create a passkey for NAME" it
// types NAME and presses "Create a passkey", and answers what the page then
// says; with "Sign in with a passkey" it presses that button and answers
// the greeting of the page it reaches, or fails with the page's error.
func Model() modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		call := func(name string, args map[string]any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		task := ""
		for _, m := range req.Messages {
			if rest, ok := strings.CutPrefix(m.Content, "Task: "); ok && m.Role == "user" {
				task = rest
			}
		}
		for _, l := range outline.Parse(obs) {
			switch {
			case strings.Contains(l.Text, "Welcome, "):
				return call("done", map[string]any{"answer": l.Text})
			case strings.Contains(l.Text, "Passkey created for "):
				// The browser's notice of the new passkey comes with the
				// observation after the browser heard of it, which under
				// load may be after the page shows it: a model that reads
				// it waits for it (a few times at most).
				if !told(req, "was created and saved") && waits(req) < 10 {
					return call("wait", map[string]any{"ms": 200})
				}
				return call("done", map[string]any{"answer": l.Text})
			case strings.Contains(l.Text, "Passkey error"):
				return call("fail", map[string]any{"reason": l.Text})
			}
		}
		if name, ok := strings.CutPrefix(task, "Create a passkey for "); ok {
			name = strings.Fields(name)[0]
			for _, l := range outline.Parse(obs) {
				if l.Role == "textbox" && !strings.Contains(l.Text, "value=") {
					return call("type", map[string]any{"ref": l.Ref, "text": name})
				}
			}
			if ref, ok := outline.FindRef(obs, "button", "Create a passkey"); ok {
				return call("click", map[string]any{"ref": ref})
			}
		}
		if ref, ok := outline.FindRef(obs, "button", "Sign in with a passkey"); ok && strings.HasPrefix(task, "Sign in") {
			return call("click", map[string]any{"ref": ref})
		}
		return call("fail", map[string]any{"reason": "nothing to do on this page"})
	})
}

// told reports whether a message of the conversation says s.
func told(req *modelserver.ChatRequest, s string) bool {
	for _, m := range req.Messages {
		if m.Role != "assistant" && strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// waits counts the model's wait calls so far.
func waits(req *modelserver.ChatRequest) int {
	n := 0
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			if c.Name == "wait" {
				n++
			}
		}
	}
	return n
}
