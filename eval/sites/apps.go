package sites

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"sync"
)

// Apps is three single-page apps, each one document whose later parts
// appear as the user works in it, saving to the server with fetch and
// never leaving the page: a car insurance claim form (/claim: the policy
// found, then the kind of claim, then the questions of that kind, a
// review dialog), a laptop configurator (/laptop: each choice opens the
// next, whose options depend on it, and a price that follows; a quote
// saved from a dialog) and a help desk's inbox (/tickets: a ticket's row
// expands to its message and its fields, the assignee's list filled once
// a team is chosen, a reply, a dialog to close it).
//
// State() is {"claims": [Claim...], "quotes": [Quote...], "tickets":
// [Ticket...]}.
type Apps struct {
	mux *http.ServeMux

	mu      sync.Mutex
	claims  []Claim
	quotes  []Quote
	tickets []Ticket
}

// NewApps returns the apps with no claim or quote and the inbox's
// tickets all open.
func NewApps() *Apps {
	a := &Apps{}
	a.Reset()
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", a.index)
	m.HandleFunc("GET /claim", a.page("claim", "File a claim - Northwind Insurance", func() any { return appPolicies }))
	m.HandleFunc("GET /laptop", a.page("laptop", "Build your laptop - Contoso", func() any { return laptopCatalog }))
	m.HandleFunc("GET /tickets", a.page("tickets", "Support inbox - Helpdesk", func() any {
		return map[string]any{"tickets": a.Tickets(), "teams": appTeams}
	}))
	m.HandleFunc("POST /api/claims", a.postClaim)
	m.HandleFunc("POST /api/quotes", a.postQuote)
	m.HandleFunc("POST /api/tickets/{id}", a.postTicket)
	a.mux = m
	return a
}

// Reset forgets every claim and quote and opens every ticket again.
func (a *Apps) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.claims, a.quotes = nil, nil
	a.tickets = make([]Ticket, len(appTickets))
	copy(a.tickets, appTickets)
}

func (a *Apps) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

// State is {"claims": [...], "quotes": [...], "tickets": [...]}.
func (a *Apps) State() map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, q := a.claims, a.quotes
	if c == nil {
		c = []Claim{}
	}
	if q == nil {
		q = []Quote{}
	}
	return stateOf(map[string]any{"claims": c, "quotes": q, "tickets": a.tickets})
}

// Tickets returns a copy of the inbox's tickets.
func (a *Apps) Tickets() []Ticket {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Ticket, len(a.tickets))
	for i, t := range a.tickets {
		t.Replies = append([]string{}, t.Replies...)
		out[i] = t
	}
	return out
}

//go:embed apps/*.html
var appHTML embed.FS

// page serves the app NAME (apps/NAME.html) with its data, the JSON of
// data(), in place of the body's /*DATA*/null.
func (a *Apps) page(name, title string, data func() any) http.HandlerFunc {
	body, err := appHTML.ReadFile("apps/" + name + ".html")
	if err != nil {
		panic(err) // embedded
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		js, err := json.Marshal(data())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		// Inside a script: no "</" may end it early.
		b := strings.Replace(string(body), "/*DATA*/null", strings.ReplaceAll(string(js), "</", `<\/`), 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprint(w, appPage(title, b))
	}
}

func (a *Apps) index(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = fmt.Fprint(w, appPage("Apps", `<h1>Apps</h1><ul>
<li><a href="/claim">File a car insurance claim</a> (Northwind Insurance)</li>
<li><a href="/laptop">Build your laptop</a> (Contoso)</li>
<li><a href="/tickets">Support inbox</a> (Helpdesk)</li></ul>`))
}

// appPage wraps an app's body in its document, with the helper that
// sends JSON to the server.
func appPage(title, body string) string {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>` + template.HTMLEscapeString(title) + `</title>
<style>` + baseCSS + appCSS + `</style>
<script>
async function send(path, data) {
  const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(data)});
  const out = await r.json();
  if (!r.ok) throw new Error(out.error || ('status ' + r.status));
  return out;
}
</script></head>
<body>
` + body + `
</body></html>`
}

const appCSS = `
.layout{display:flex;gap:2em;align-items:flex-start}.layout>section{flex:3}.layout>aside{flex:1;background:#fff;border:1px solid #ddd;padding:.6em 1em}
fieldset{margin:1em 0;background:#fff;border:1px solid #ccc}.f{margin:.5em 0}.f label{display:block}
textarea{width:90%;min-height:4em}input[type=text],input:not([type]){min-width:18em}
dialog::backdrop{background:rgba(0,0,0,.4)}.muted{color:#666}
tr.open{background:#eef}.pane{background:#fff;border:1px solid #ccc;margin:1em 0;padding:.4em 1em}.thread{border-left:3px solid #9bd;padding-left:.6em}
footer{margin:2em 1em;color:#666;font-size:.9em}
`

// writeError answers a JSON request with a 422 and what to do.
func writeError(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": msg})
}

// decode reads a JSON request body into v, answering 400 when it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "send JSON: " + err.Error()})
		return false
	}
	return true
}
