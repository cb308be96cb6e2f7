package sites

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// WidgetEvent is one result a widget page reported to the server.
type WidgetEvent struct {
	Widget string `json:"widget"`
	Value  string `json:"value"`
}

// Contact is a message sent through the widgets site's embedded (iframe)
// contact form.
type Contact struct {
	Email   string `json:"email"`
	Message string `json:"message"`
}

// Widgets is a gallery of interactive widgets, one page each: tabs, an
// accordion, a menu that opens on hover, a date picker with month paging, an
// autocomplete driven by key events, a slider, a modal dialog, a form in a
// same-origin iframe, a button in an open shadow root, an infinitely
// scrolling feed, a contenteditable editor, a file upload, drag and drop (a
// board with HTML5 drag and drop and a handle dragged with the mouse), an
// ARIA listbox and select-only combobox, a cookie banner that covers the
// page, and settings with a hidden styled checkbox, a switch and radios.
//
// When the user achieves something on a page, the page reports it with
// POST /api/result {"widget": NAME, "value": VALUE} (or the server records it
// directly); State().results[NAME] holds the latest value, and
// State().events every report in order.
type Widgets struct {
	mux *http.ServeMux

	mu        sync.Mutex
	results   map[string]string
	events    []WidgetEvent
	contacts  []Contact
	feedPages int
}

// The pages of the gallery: path, link text, title.
var widgetPages = []struct{ Path, Link string }{
	{"/tabs", "Tabs"},
	{"/accordion", "Accordion"},
	{"/menu", "Hover menu"},
	{"/datepicker", "Date picker"},
	{"/autocomplete", "Autocomplete"},
	{"/slider", "Slider"},
	{"/modal", "Modal dialog"},
	{"/iframe", "Embedded form"},
	{"/shadow", "Shadow DOM card"},
	{"/feed", "Infinite feed"},
	{"/editor", "Rich text editor"},
	{"/upload", "File upload"},
	{"/drag", "Drag and drop"},
	{"/listbox", "Listbox and select-only combobox"},
	{"/cookies", "Shop with a cookie banner"},
	{"/settings", "Settings with switches"},
}

// FeedPosts is the number of posts in the infinite feed; FeedPageSize are
// loaded at a time.
const (
	FeedPosts    = 50
	FeedPageSize = 10
)

var (
	feedPlaces = []string{"Harbor", "Forest", "Desert", "Glacier", "Canyon", "Meadow", "Lighthouse", "Market", "Bridge", "Valley"}
	feedTimes  = []string{"at dawn", "at noon", "in fog", "after rain", "at dusk"}
	feedPeople = []string{"Ana", "Bo", "Chen", "Dev", "Eli", "Fay", "Gus"}
)

// FeedTitle returns the title of post n (1-based) of the infinite feed:
// post 27 is "Lighthouse in fog".
func FeedTitle(n int) string {
	i := n - 1
	return feedPlaces[i%len(feedPlaces)] + " " + feedTimes[i/len(feedPlaces)]
}

// NewWidgets returns the gallery with no results reported.
func NewWidgets() *Widgets {
	g := &Widgets{}
	g.Reset()
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", g.index)
	m.HandleFunc("POST /api/result", g.result)
	m.HandleFunc("GET /api/results", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusOK, g.State()) })
	m.HandleFunc("GET /api/feed", g.feed)
	m.HandleFunc("GET /menu/{item}", g.menuItem)
	m.HandleFunc("GET /iframe/form", g.iframeForm)
	m.HandleFunc("POST /iframe/form", g.iframeSubmit)
	for _, p := range widgetPages {
		body, ok := widgetBodies()[p.Path]
		if !ok {
			panic("sites: no body for widget page " + p.Path)
		}
		page := widgetPage(p.Link, body)
		m.HandleFunc("GET "+p.Path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(page))
		})
	}
	g.mux = m
	return g
}

// Reset forgets every result, contact and feed page.
func (g *Widgets) Reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.results, g.events, g.contacts, g.feedPages = map[string]string{}, nil, nil, 0
}

func (g *Widgets) ServeHTTP(w http.ResponseWriter, r *http.Request) { g.mux.ServeHTTP(w, r) }

// Results returns the latest value each widget reported.
func (g *Widgets) Results() map[string]string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make(map[string]string, len(g.results))
	for k, v := range g.results {
		out[k] = v
	}
	return out
}

// Contacts returns the messages sent with the iframe's form.
func (g *Widgets) Contacts() []Contact {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Contact(nil), g.contacts...)
}

// State is {"results": {widget: latest value}, "events": [WidgetEvent...],
// "contacts": [Contact...], "feed_pages": pages of the feed loaded}.
func (g *Widgets) State() map[string]any {
	g.mu.Lock()
	defer g.mu.Unlock()
	ev, c := g.events, g.contacts
	if ev == nil {
		ev = []WidgetEvent{}
	}
	if c == nil {
		c = []Contact{}
	}
	return stateOf(map[string]any{"results": g.results, "events": ev, "contacts": c, "feed_pages": g.feedPages})
}

// Record stores a widget's result as if its page had reported it.
func (g *Widgets) Record(widget, value string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.results[widget] = value
	g.events = append(g.events, WidgetEvent{widget, value})
}

func (g *Widgets) result(w http.ResponseWriter, r *http.Request) {
	var ev WidgetEvent
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&ev); err != nil || ev.Widget == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "send {\"widget\": NAME, \"value\": VALUE}"})
		return
	}
	g.Record(ev.Widget, ev.Value)
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (g *Widgets) feed(w http.ResponseWriter, r *http.Request) {
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	type post struct {
		N      int    `json:"n"`
		Title  string `json:"title"`
		Author string `json:"author"`
		Likes  int    `json:"likes"`
	}
	posts := []post{}
	for n := (page-1)*FeedPageSize + 1; n <= min(FeedPosts, page*FeedPageSize); n++ {
		posts = append(posts, post{n, FeedTitle(n), feedPeople[n%len(feedPeople)], (n * 37) % 120})
	}
	g.mu.Lock()
	g.feedPages = max(g.feedPages, page)
	g.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"posts": posts, "more": page*FeedPageSize < FeedPosts})
}

func (g *Widgets) menuItem(w http.ResponseWriter, r *http.Request) {
	item := r.PathValue("item")
	names := map[string]string{"laptops": "Laptops", "phones": "Phones", "tablets": "Tablets", "accessories": "Accessories",
		"contact": "Contact support", "warranty": "Warranty", "about": "About us", "careers": "Careers"}
	name, ok := names[item]
	if !ok {
		http.NotFound(w, r)
		return
	}
	g.Record("menu", name)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(widgetPage(name, fmt.Sprintf(`<h1>%s</h1><p>You reached the %s page through the menu.</p><p><a href="/menu">Back to the menu</a></p>`,
		template.HTMLEscapeString(name), template.HTMLEscapeString(name)))))
}

func (g *Widgets) iframeForm(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(iframeFormPage("", "", "")))
}

func (g *Widgets) iframeSubmit(w http.ResponseWriter, r *http.Request) {
	email, msg := strings.TrimSpace(r.FormValue("email")), strings.TrimSpace(r.FormValue("message"))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch {
	case !emailRe.MatchString(email):
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write([]byte(iframeFormPage(email, msg, "Enter a valid email address.")))
		return
	case msg == "":
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write([]byte(iframeFormPage(email, msg, "Write a message.")))
		return
	}
	g.mu.Lock()
	g.contacts = append(g.contacts, Contact{email, msg})
	g.results["iframe"] = email
	g.events = append(g.events, WidgetEvent{"iframe", email})
	g.mu.Unlock()
	_, _ = w.Write([]byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sent</title></head><body>
<p role="status">Thanks! We will reply to ` + template.HTMLEscapeString(email) + ` within two days.</p></body></html>`))
}

func iframeFormPage(email, msg, errMsg string) string {
	e := ""
	if errMsg != "" {
		e = `<p class="error" role="alert">` + template.HTMLEscapeString(errMsg) + `</p>`
	}
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact form</title>
<style>body{font-family:system-ui,sans-serif;margin:.5em}.error{color:#a00}label{display:block;margin-top:.4em}</style></head><body>
<form method="post" action="/iframe/form" novalidate>` + e + `
<label for="email">Your email</label><input type="email" id="email" name="email" value="` + template.HTMLEscapeString(email) + `">
<label for="message">Message</label><textarea id="message" name="message">` + template.HTMLEscapeString(msg) + `</textarea>
<p><button type="submit">Send message</button></p></form></body></html>`
}

func (g *Widgets) index(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString(`<h1>All widgets</h1><p>Each page holds one widget to operate.</p><ul>`)
	for _, p := range widgetPages {
		fmt.Fprintf(&b, `<li><a href="%s">%s</a></li>`, p.Path, p.Link)
	}
	b.WriteString(`</ul>`)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(widgetPage("Widget gallery", b.String())))
}

// widgetPage wraps a body in the gallery's layout, with the report helper.
func widgetPage(title, body string) string {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>` + template.HTMLEscapeString(title) + ` - Widget gallery</title>
<style>` + baseCSS + widgetCSS + `</style>
<script>
function report(widget, value) {
  return fetch('/api/result', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({widget: widget, value: String(value)})});
}
</script></head>
<body><header><h1><a href="/">Widget gallery</a></h1></header><main>
` + body + `
</main></body></html>`
}

const widgetCSS = `
[role=tablist]{display:flex;gap:.2em;border-bottom:1px solid #999}
[role=tab]{border:1px solid #999;border-bottom:none;background:#eee;padding:.3em .8em}
[role=tab][aria-selected=true]{background:#fff;font-weight:bold}
[role=tabpanel]{border:1px solid #999;border-top:none;padding:.8em;background:#fff}
.acc button{display:block;width:100%;text-align:left;padding:.4em;margin-top:.3em}
.acc .panel{padding:.4em 1em;background:#fff}
.menubar{display:flex;gap:1em;list-style:none;padding:0}
.menubar>li{position:relative}
.menubar ul{position:absolute;top:100%;left:0;list-style:none;margin:0;padding:.3em;background:#fff;border:1px solid #999;min-width:10em;display:none}
.menubar li.open>ul{display:block}
.cal{border:1px solid #999;background:#fff;padding:.6em;display:inline-block}
.cal[hidden]{display:none}
.cal table td{border:none;padding:0}.cal button.day{width:2.4em}
[role=listbox]{list-style:none;margin:0;padding:0;border:1px solid #999;background:#fff;max-width:20em}
[role=option]{padding:.2em .5em;cursor:pointer}[role=option][aria-selected=true]{background:#cde}
dialog::backdrop{background:rgba(0,0,0,.4)}
.post{background:#fff;border:1px solid #ddd;padding:.6em;margin:.6em 0;height:7em}
.editor{border:1px solid #999;background:#fff;min-height:6em;padding:.5em}
.board{display:flex;gap:1em}.column{border:2px dashed #999;background:#fff;min-height:10em;width:14em;padding:.5em}
.column.over{border-color:#36c}.card{border:1px solid #666;background:#ffd;padding:.4em;margin:.3em 0;cursor:grab}
.track{position:relative;width:320px;height:40px;background:#ddd;border-radius:20px;margin:.5em 0}
.handle{position:absolute;left:0;top:0;width:40px;height:40px;border-radius:20px;background:#36c;cursor:grab}
.combo-pop{position:absolute;z-index:5;box-shadow:0 2px 6px rgba(0,0,0,.3)}.combo-wrap{position:relative;display:inline-block}
.cookie-banner{position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:flex-end;justify-content:center}
.cookie-banner>div{background:#fff;padding:1em 2em;margin-bottom:0;width:100%}
.switch{position:relative}.switch input{position:absolute;opacity:0;z-index:-1;width:1em;height:1em;margin:0}
.switch span.track2{display:inline-block;width:40px;height:20px;border-radius:10px;background:#ccc;vertical-align:middle}
.switch input:checked+span.track2{background:#3a3}
[role=switch]{display:inline-block;width:40px;height:20px;border-radius:10px;background:#ccc;vertical-align:middle}
[role=switch][aria-checked=true]{background:#3a3}
`

// widgetHTML holds the widget pages' bodies: widgets/NAME.html is the body
// of the page /NAME, followed by a newline that is not part of it.
//
//go:embed widgets/*.html
var widgetHTML embed.FS

// widgetBodies holds each widget page's body.
var widgetBodies = sync.OnceValue(readWidgetBodies)

// readWidgetBodies reads widgetHTML into a map from page path to body.
func readWidgetBodies() map[string]string {
	files, err := fs.Glob(widgetHTML, "widgets/*.html")
	if err != nil {
		panic(err)
	}
	bodies := make(map[string]string, len(files))
	for _, f := range files {
		b, err := widgetHTML.ReadFile(f)
		if err != nil {
			panic(err)
		}
		bodies["/"+strings.TrimSuffix(path.Base(f), ".html")] = strings.TrimSuffix(string(b), "\n")
	}
	return bodies
}
