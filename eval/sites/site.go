package sites

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strings"
)

// Site is a built-in site as the eval harness uses it: a handler to serve on
// a fresh 127.0.0.1 port for each task run, and its server-side state for the
// task's checks.
//
// State returns a deep copy made of JSON-like values (maps, slices, strings,
// numbers, bools, or structs with JSON tags): the suite checks address it by
// dotted paths over its JSON form, e.g. "orders.0.items.0.name". It is safe to
// call while the site serves requests.
type Site interface {
	http.Handler
	State() map[string]any
}

// Resetter is implemented by sites whose state can be put back to how New
// made it.
type Resetter interface {
	Reset()
}

// The bank site's account, as sites.New("bank") makes it. The password is
// meant to be given to a task as a secret.
const (
	BankUser     = "ann"
	BankPassword = "correct-horse-battery"
	BankBalance  = "$1,234.56"
)

var registry = map[string]func() Site{
	"shop":    func() Site { return NewShop() },
	"webmail": func() Site { return NewWebmail() },
	"booking": func() Site { return NewBooking() },
	"wiki":    func() Site { return NewWiki() },
	"admin":   func() Site { return NewAdmin() },
	"widgets": func() Site { return NewWidgets() },
	"apps":    func() Site { return NewApps() },
	"bank":    func() Site { return &bankSite{NewBank(BankUser, BankPassword, BankBalance)} },
}

// Names lists the built-in sites in alphabetical order.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New returns a fresh instance of the built-in site called name, with its
// initial data.
func New(name string) (Site, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("sites: no built-in site %q; the sites are: %s", name, strings.Join(Names(), ", "))
	}
	return f(), nil
}

// bankSite gives the bank the Site interface.
type bankSite struct{ *Bank }

func (b *bankSite) State() map[string]any {
	return stateOf(map[string]any{"logins": b.Logins()})
}

// Shared rendering helpers.

// baseCSS is the inline style every site shares; each page adds its own.
const baseCSS = `body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#234;color:#fff;padding:.6em 1.2em;display:flex;gap:1.5em;align-items:center}
header a{color:#fff}header h1{font-size:1.2em;margin:0}
nav{display:flex;gap:1em}
main{max-width:60em;margin:1em auto;padding:0 1em}
label{margin-right:.4em}
.field{margin:.6em 0}
.error{color:#a00}
.notice{background:#efe;border:1px solid #9c9;padding:.4em .8em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}
button{cursor:pointer}`

// render executes the template name of set with data and writes it with
// status (200 when 0).
func render(w http.ResponseWriter, status int, set *template.Template, name string, data any) {
	var b strings.Builder
	if err := set.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if status != 0 {
		w.WriteHeader(status)
	}
	_, _ = w.Write([]byte(b.String()))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// money formats cents as dollars, "$1,234.50".
func money(cents int) string {
	neg := cents < 0
	if neg {
		cents = -cents
	}
	whole := fmt.Sprint(cents / 100)
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	s := fmt.Sprintf("$%s.%02d", b.String(), cents%100)
	if neg {
		s = "-" + s
	}
	return s
}

// deepCopy returns a copy of v through its JSON form, so that State never
// hands out the site's own maps and slices.
func deepCopy(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("sites: state is not JSON: %v", err)) // our own types
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// stateOf builds a State map from named values, deep-copied.
func stateOf(kv map[string]any) map[string]any {
	out, _ := deepCopy(kv).(map[string]any)
	return out
}
