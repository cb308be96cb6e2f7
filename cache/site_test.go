package cache_test

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

// secret is the test account's password.
const secret = "s3cret pa55"

// site is a small members' site: a sign-in form, then the member's page
// with their plan. Its sign-in button can be renamed, as a new release of
// a site would do, or stand where a "Delete account" button now is.
type site struct {
	mu      sync.Mutex
	label   string // the sign-in button's name
	delete  bool   // the button's place holds "Delete account"
	logins  []string
	deleted int
}

func newSite() *site { return &site{label: "Sign in"} }

func (s *site) set(label string, del bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.label, s.delete = label, del
}

func (s *site) state() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.logins), s.deleted
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
		if r.Method != http.MethodPost || r.FormValue("pw") != secret || user == "" {
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

// member is the scripted model: it reads each observation, as a real model
// would, and does one thing a turn: type the user name (from the task),
// type the password, press the sign-in button (whatever its name), read
// the plan. It gives up on a page without a way to sign in.
func member() modelserver.Responder {
	return modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		lines := outline.Parse(obs)
		call := modelserver.ToolCall
		field := func(name string) (ref string, filled bool) {
			for _, l := range lines {
				if l.Role == "textbox" && l.Name == name {
					return l.Ref, strings.Contains(l.Text, "value=") || strings.Contains(l.Text, ": ")
				}
			}
			return "", false
		}
		user := ""
		for _, m := range req.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, "Task: Sign in as ") {
				user = strings.Fields(strings.TrimPrefix(m.Content, "Task: Sign in as "))[0]
			}
		}
		if strings.Contains(obs, "Your plan:") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{call("done", map[string]any{"answer": "plan: Gold"})}}
		}
		uref, ufilled := field("Username")
		pref, pfilled := field("Password")
		switch {
		case uref != "" && !ufilled:
			return modelserver.Turn{ToolCalls: []modelserver.Call{call("type", map[string]any{"ref": uref, "text": user})}}
		case pref != "" && !pfilled:
			return modelserver.Turn{ToolCalls: []modelserver.Call{call("type", map[string]any{"ref": pref, "text": "<secret>pw</secret>"})}}
		}
		for _, name := range []string{"Sign in", "Log in"} {
			if ref, ok := outline.FindRef(obs, "button", name); ok {
				return modelserver.Turn{ToolCalls: []modelserver.Call{call("click", map[string]any{"ref": ref})}}
			}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{call("fail", map[string]any{"reason": "no way to sign in on this page"})}}
	})
}
