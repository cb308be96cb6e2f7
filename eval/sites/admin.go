package sites

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// User is one account in the admin site.
type User struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Email  string `json:"email"`
	Role   string `json:"role"` // viewer, editor or admin
	Active bool   `json:"active"`
	Joined string `json:"joined"` // YYYY-MM-DD
}

// UserEdit records one save of the edit or add form.
type UserEdit struct {
	UserID  int      `json:"user_id"`
	Name    string   `json:"name"`
	Changed []string `json:"changed"` // fields that changed: name, email, role, active; "created" for a new user
}

var adminNames = []string{
	"Aisha Khan", "Ben Carter", "Chloe Dubois", "Daniel Kim", "Elena Petrova", "Farid Rahman", "Grace Liu",
	"Hugo Martins", "Ines Alvarez", "Jamal Wright", "Kaito Sato", "Laura Becker", "Mateo Rossi", "Nadia Hassan",
	"Oliver Grant", "Priya Patel", "Quentin Moreau", "Rosa Jimenez", "Samuel Osei", "Tara Byrne", "Umar Farouk",
	"Vera Novak", "William Chen", "Ximena Torres", "Yusuf Demir", "Zoe Fischer", "Arjun Mehta", "Bianca Costa",
	"Conor Walsh", "Dalia Mansour", "Erik Lund", "Fatima Zahra", "George Miller", "Hana Yamamoto", "Ivan Horvat",
}

// adminSeed builds the 35 users: IDs 1-35 in the order of adminNames.
// Users 1, 12 and 23 are admins, other IDs divisible by 3 are editors, the
// rest viewers; users 5, 11, 19, 28 and 33 are inactive; user n joined
// 23×n days after 2023-01-09.
func adminSeed() []User {
	inactive := map[int]bool{5: true, 11: true, 19: true, 28: true, 33: true}
	start := time.Date(2023, 1, 9, 0, 0, 0, 0, time.UTC)
	users := make([]User, len(adminNames))
	for i, n := range adminNames {
		id := i + 1
		role := "viewer"
		switch {
		case id == 1 || id == 12 || id == 23:
			role = "admin"
		case id%3 == 0:
			role = "editor"
		}
		users[i] = User{
			ID: id, Name: n, Email: strings.ToLower(strings.ReplaceAll(n, " ", ".")) + "@example.org",
			Role: role, Active: !inactive[id], Joined: start.AddDate(0, 0, 23*id).Format("2006-01-02"),
		}
	}
	return users
}

// AdminPageSize is the number of users per page of the list.
const AdminPageSize = 10

var adminRoles = []struct{ Value, Label string }{{"viewer", "Viewer"}, {"editor", "Editor"}, {"admin", "Admin"}}

// Admin is a user-administration console: a users table with sorting by
// column, a filter box and pagination, and a form to edit or add a user.
type Admin struct {
	mux *http.ServeMux

	mu    sync.Mutex
	users []User
	edits []UserEdit
	flash string
}

// NewAdmin returns the console with its 35 users.
func NewAdmin() *Admin {
	a := &Admin{}
	a.Reset()
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/users", http.StatusSeeOther)
	})
	m.HandleFunc("GET /users", a.list)
	m.HandleFunc("GET /users/new", a.newForm)
	m.HandleFunc("POST /users/new", a.create)
	m.HandleFunc("GET /users/{id}/edit", a.editForm)
	m.HandleFunc("POST /users/{id}", a.save)
	a.mux = m
	return a
}

// Reset restores the 35 users and forgets the edits.
func (a *Admin) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.users, a.edits, a.flash = adminSeed(), nil, ""
}

func (a *Admin) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

// Users returns a copy of the users, by ID.
func (a *Admin) Users() []User {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]User(nil), a.users...)
}

// Edits returns the saves made, oldest first.
func (a *Admin) Edits() []UserEdit {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]UserEdit(nil), a.edits...)
}

// State is {"users": [User...] by ID, "edits": [UserEdit...]}.
func (a *Admin) State() map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	edits := a.edits
	if edits == nil {
		edits = []UserEdit{}
	}
	return stateOf(map[string]any{"users": a.users, "edits": edits})
}

var adminTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("admin").Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} - Console</title>
<style>` + baseCSS + `
th a{color:inherit}.inactive{color:#888}.pager{display:flex;gap:.6em;align-items:center;margin:.8em 0}</style></head>
<body><header><h1>Console</h1><nav aria-label="Main"><a href="/users">Users</a><a href="/users/new">Add user</a></nav></header>
<main>{{if .Flash}}<p class="notice" role="status">{{.Flash}}</p>{{end}}{{end}}

{{define "foot"}}</main></body></html>{{end}}

{{define "list"}}{{template "head" .}}
<h1>Users</h1>
<form method="get" action="/users" role="search"><input type="hidden" name="sort" value="{{.Sort}}"><input type="hidden" name="dir" value="{{.Dir}}">
<label for="q">Filter users</label><input type="search" id="q" name="q" value="{{.Q}}"> <button type="submit">Filter</button>{{if .Q}} <a href="/users?sort={{.Sort}}&amp;dir={{.Dir}}">Clear filter</a>{{end}}</form>
{{if .Users}}<table id="users"><thead><tr>
{{range .Columns}}<th{{if .Sorted}} aria-sort="{{if eq $.Dir "desc"}}descending{{else}}ascending{{end}}"{{end}}><a href="{{.Href}}">{{.Label}}</a>{{if .Sorted}}{{if eq $.Dir "desc"}} ▼{{else}} ▲{{end}}{{end}}</th>{{end}}
<th>Actions</th></tr></thead><tbody>
{{range .Users}}<tr data-id="{{.ID}}"{{if not .Active}} class="inactive"{{end}}><td>{{.Name}}</td><td>{{.Email}}</td><td>{{.RoleLabel}}</td><td>{{if .Active}}Active{{else}}Inactive{{end}}</td><td>{{.Joined}}</td>
<td><a href="/users/{{.ID}}/edit?return={{$.Return}}">Edit</a></td></tr>
{{end}}</tbody></table>{{else}}<p>No users match “{{.Q}}”.</p>{{end}}
<div class="pager"><span id="page-info">Page {{.Page}} of {{.Pages}} ({{.Total}} users)</span>
{{if .Prev}}<a href="{{.Prev}}">Previous page</a>{{end}}
{{range .PageLinks}}{{if .Current}}<span aria-current="page">{{.N}}</span>{{else}}<a href="{{.Href}}" aria-label="Page {{.N}}">{{.N}}</a>{{end}}{{end}}
{{if .Next}}<a href="{{.Next}}">Next page</a>{{end}}</div>
{{template "foot" .}}{{end}}

{{define "edit"}}{{template "head" .}}
<h1>{{.Heading}}</h1>
{{if .Errors}}<div class="error" role="alert">{{range .Errors}}<p>{{.}}</p>{{end}}</div>{{end}}
<form method="post" action="{{.Action}}" novalidate><input type="hidden" name="return" value="{{.Return}}">
<div class="field"><label for="name">Name</label><input type="text" id="name" name="name" value="{{.U.Name}}"></div>
<div class="field"><label for="email">Email</label><input type="email" id="email" name="email" value="{{.U.Email}}"></div>
<div class="field"><label for="role">Role</label><select id="role" name="role">{{range .Roles}}<option value="{{.Value}}"{{if eq .Value $.U.Role}} selected{{end}}>{{.Label}}</option>{{end}}</select></div>
<div class="field"><input type="checkbox" id="active" name="active" value="yes"{{if .U.Active}} checked{{end}}><label for="active">Active</label></div>
<button type="submit">{{.Button}}</button> <a href="{{.Return}}">Cancel</a>
</form>
{{template "foot" .}}{{end}}
`))
})

type adminRow struct {
	User
	RoleLabel string
}

type adminColumn struct {
	Label, Href string
	Sorted      bool
}

type adminPageLink struct {
	N       int
	Href    string
	Current bool
}

func roleLabel(v string) string {
	for _, r := range adminRoles {
		if r.Value == v {
			return r.Label
		}
	}
	return v
}

func usersURL(q, sortBy, dir string, page int) string {
	v := url.Values{}
	if q != "" {
		v.Set("q", q)
	}
	v.Set("sort", sortBy)
	v.Set("dir", dir)
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return "/users?" + v.Encode()
}

func (a *Admin) list(w http.ResponseWriter, r *http.Request) {
	qv := r.URL.Query()
	q := strings.TrimSpace(qv.Get("q"))
	sortBy, dir := qv.Get("sort"), qv.Get("dir")
	keys := map[string]func(u User) string{
		"name":   func(u User) string { return u.Name },
		"email":  func(u User) string { return u.Email },
		"role":   func(u User) string { return roleLabel(u.Role) },
		"status": func(u User) string { return map[bool]string{true: "Active", false: "Inactive"}[u.Active] },
		"joined": func(u User) string { return u.Joined },
	}
	if keys[sortBy] == nil {
		sortBy = "name"
	}
	if dir != "desc" {
		dir = "asc"
	}
	a.mu.Lock()
	flash := a.flash
	a.flash = ""
	var users []User
	for _, u := range a.users {
		if q == "" || strings.Contains(strings.ToLower(u.Name+" "+u.Email+" "+roleLabel(u.Role)), strings.ToLower(q)) {
			users = append(users, u)
		}
	}
	a.mu.Unlock()
	key := keys[sortBy]
	sort.SliceStable(users, func(i, j int) bool {
		ki, kj := key(users[i]), key(users[j])
		if ki == kj {
			return users[i].Name < users[j].Name
		}
		if dir == "desc" {
			return ki > kj
		}
		return ki < kj
	})
	pages := max(1, (len(users)+AdminPageSize-1)/AdminPageSize)
	page, err := strconv.Atoi(qv.Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	page = min(page, pages)
	lo, hi := (page-1)*AdminPageSize, min(len(users), page*AdminPageSize)
	var rows []adminRow
	for _, u := range users[lo:hi] {
		rows = append(rows, adminRow{u, roleLabel(u.Role)})
	}
	var cols []adminColumn
	for _, c := range []struct{ key, label string }{{"name", "Name"}, {"email", "Email"}, {"role", "Role"}, {"status", "Status"}, {"joined", "Joined"}} {
		d := "asc"
		if c.key == sortBy && dir == "asc" {
			d = "desc"
		}
		cols = append(cols, adminColumn{Label: c.label, Href: usersURL(q, c.key, d, 1), Sorted: c.key == sortBy})
	}
	var links []adminPageLink
	for n := 1; n <= pages; n++ {
		links = append(links, adminPageLink{N: n, Href: usersURL(q, sortBy, dir, n), Current: n == page})
	}
	d := map[string]any{
		"Title": "Users", "Flash": flash, "Q": q, "Sort": sortBy, "Dir": dir, "Users": rows, "Columns": cols,
		"Page": page, "Pages": pages, "Total": len(users), "PageLinks": links, "Return": usersURL(q, sortBy, dir, page),
	}
	if page > 1 {
		d["Prev"] = usersURL(q, sortBy, dir, page-1)
	}
	if page < pages {
		d["Next"] = usersURL(q, sortBy, dir, page+1)
	}
	render(w, 0, adminTmpl(), "list", d)
}

// userIndex returns the index of the user with the ID in s; the caller
// holds a.mu.
func (a *Admin) userIndex(s string) int {
	id, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	for i, u := range a.users {
		if u.ID == id {
			return i
		}
	}
	return -1
}

func (a *Admin) editForm(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	i := a.userIndex(r.PathValue("id"))
	if i < 0 {
		a.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	u := a.users[i]
	a.mu.Unlock()
	render(w, 0, adminTmpl(), "edit", map[string]any{
		"Title": "Edit " + u.Name, "Heading": "Edit user: " + u.Name, "U": u, "Roles": adminRoles,
		"Action": fmt.Sprintf("/users/%d", u.ID), "Button": "Save changes", "Return": localPath(r.URL.Query().Get("return"), "/users"),
	})
}

func (a *Admin) newForm(w http.ResponseWriter, r *http.Request) {
	render(w, 0, adminTmpl(), "edit", map[string]any{
		"Title": "Add user", "Heading": "Add user", "U": User{Role: "viewer", Active: true}, "Roles": adminRoles,
		"Action": "/users/new", "Button": "Create user", "Return": "/users",
	})
}

// readUser validates the form; the caller holds a.mu. self is the index of
// the user being edited, or -1.
func (a *Admin) readUser(r *http.Request, self int) (User, []string) {
	u := User{
		Name: strings.TrimSpace(r.FormValue("name")), Email: strings.ToLower(strings.TrimSpace(r.FormValue("email"))),
		Role: r.FormValue("role"), Active: r.FormValue("active") != "",
	}
	var errs []string
	if u.Name == "" {
		errs = append(errs, "Name cannot be empty.")
	}
	if !emailRe.MatchString(u.Email) {
		errs = append(errs, "Enter a valid email address.")
	} else {
		for i, o := range a.users {
			if i != self && o.Email == u.Email {
				errs = append(errs, fmt.Sprintf("The email %s is already used by %s.", u.Email, o.Name))
			}
		}
	}
	if roleLabel(u.Role) == u.Role {
		errs = append(errs, "Choose a role.")
	}
	return u, errs
}

func (a *Admin) save(w http.ResponseWriter, r *http.Request) {
	ret := localPath(r.FormValue("return"), "/users")
	a.mu.Lock()
	defer a.mu.Unlock()
	i := a.userIndex(r.PathValue("id"))
	if i < 0 {
		http.NotFound(w, r)
		return
	}
	old := a.users[i]
	u, errs := a.readUser(r, i)
	u.ID, u.Joined = old.ID, old.Joined
	if len(errs) > 0 {
		render(w, http.StatusUnprocessableEntity, adminTmpl(), "edit", map[string]any{
			"Title": "Edit " + old.Name, "Heading": "Edit user: " + old.Name, "U": u, "Roles": adminRoles, "Errors": errs,
			"Action": fmt.Sprintf("/users/%d", u.ID), "Button": "Save changes", "Return": ret,
		})
		return
	}
	changed := []string{}
	if u.Name != old.Name {
		changed = append(changed, "name")
	}
	if u.Email != old.Email {
		changed = append(changed, "email")
	}
	if u.Role != old.Role {
		changed = append(changed, "role")
	}
	if u.Active != old.Active {
		changed = append(changed, "active")
	}
	a.users[i] = u
	a.edits = append(a.edits, UserEdit{UserID: u.ID, Name: u.Name, Changed: changed})
	a.flash = "Saved changes to " + u.Name + "."
	http.Redirect(w, r, ret, http.StatusSeeOther)
}

func (a *Admin) create(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	u, errs := a.readUser(r, -1)
	if len(errs) > 0 {
		render(w, http.StatusUnprocessableEntity, adminTmpl(), "edit", map[string]any{
			"Title": "Add user", "Heading": "Add user", "U": u, "Roles": adminRoles, "Errors": errs,
			"Action": "/users/new", "Button": "Create user", "Return": "/users",
		})
		return
	}
	u.ID = len(a.users) + 1
	for _, o := range a.users {
		u.ID = max(u.ID, o.ID+1)
	}
	u.Joined = "2026-03-01"
	a.users = append(a.users, u)
	a.edits = append(a.edits, UserEdit{UserID: u.ID, Name: u.Name, Changed: []string{"created"}})
	a.flash = "Created " + u.Name + "."
	http.Redirect(w, r, "/users", http.StatusSeeOther)
}
