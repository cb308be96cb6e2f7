// Package signin is a fixture for the tests of the run cache: a members'
// site with a sign-in form, and a scripted model that signs in the way a
// model would, reading each page. The site can change as a new release of
// a real one does: its sign-in button renamed, or a "Delete account"
// button in its place.
package signin

import (
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/webagent/webagent/internal/outline"
	"github.com/webagent/webagent/modelserver"
)

// Password is the one password the site takes.
const Password = "s3cret pa55"

// Site is the members' site: "/" has the sign-in form, "/home" the plan of
// the member signed in ("Your plan: Gold").
type Site struct {
	mu      sync.Mutex
	label   string
	delete  bool
	logins  []string
	deleted int
}

// New returns the site with its button named "Sign in".
func New() *Site { return &Site{label: "Sign in"} }

// Set names the sign-in button label; with del, a "Delete account" button
// stands in its place instead.
func (s *Site) Set(label string, del bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.label, s.delete = label, del
}

// State returns who signed in, in order, and how many accounts were
// deleted.
func (s *Site) State() (logins []string, deleted int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.logins), s.deleted
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	page := func(body string) {
		fmt.Fprintf(w, `<!doctype html><html><head><title>Members</title></head><body>%s</body></html>`, body)
	}
	s.mu.Lock()
	label, del := s.label, s.delete
	s.mu.Unlock()
	switch r.URL.Path {
	case "/":
		button := `<button type="submit">` + html.EscapeString(label) + `</button>`
		if del {
			button = `<button type="submit" formaction="/delete">Delete account</button>`
		}
		page(`<h1>Members</h1><form method="post" action="/login">
<label>Username <input name="user"></label>
<label>Password <input name="pw" type="password"></label>` + button + `</form>`)
	case "/login":
		user := r.FormValue("user")
		if r.Method != http.MethodPost || r.FormValue("pw") != Password || user == "" {
			w.WriteHeader(http.StatusForbidden)
			page(`<h1>Wrong password</h1>`)
			return
		}
		s.mu.Lock()
		s.logins = append(s.logins, user)
		s.mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "user", Value: user, Path: "/"})
		http.Redirect(w, r, "/home", http.StatusSeeOther)
	case "/home":
		c, err := r.Cookie("user")
		if err != nil {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		page(`<h1>Welcome, ` + html.EscapeString(c.Value) + `</h1><p>Your plan: Gold</p>`)
	case "/delete":
		s.mu.Lock()
		s.deleted++
		s.mu.Unlock()
		page(`<h1>Account deleted</h1>`)
	default:
		http.NotFound(w, r)
	}
}

// Task is the task the model plays, with the user as a variable.
const Task = "Sign in as {{user}} with <secret>pw</secret> and tell me my plan."

// Model is the scripted model: one call a turn, it types the user named
// in the task ("Sign in as NAME"), then <secret>pw</secret>, presses the
// sign-in button whatever its name ("Sign in", "Log in"), and answers
// "plan: Gold" from the member's page. It gives up on a page without a way
// to sign in.
func Model() modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		call := func(name string, args map[string]any) modelserver.Turn {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall(name, args)}}
		}
		if strings.Contains(obs, "Your plan:") {
			return call("done", map[string]any{"answer": "plan: Gold"})
		}
		user := ""
		for _, m := range req.Messages {
			if rest, ok := strings.CutPrefix(m.Content, "Task: Sign in as "); ok && m.Role == "user" {
				user = strings.Fields(rest)[0]
			}
		}
		for _, l := range outline.Parse(obs) {
			if l.Role == "textbox" && !strings.Contains(l.Text, "value=") {
				text := user
				if l.Name == "Password" {
					text = "<secret>pw</secret>"
				}
				return call("type", map[string]any{"ref": l.Ref, "text": text})
			}
		}
		for _, name := range []string{"Sign in", "Log in"} {
			if ref, ok := outline.FindRef(obs, "button", name); ok {
				return call("click", map[string]any{"ref": ref})
			}
		}
		return call("fail", map[string]any{"reason": "no way to sign in on this page"})
	})
}
