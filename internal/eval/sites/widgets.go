package sites

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
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
		body, ok := widgetBodies[p.Path]
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

// widgetBodies holds each widget page's body.
var widgetBodies = map[string]string{
	"/tabs": `<h1>Aurora headphones</h1>
<div role="tablist" aria-label="Product details">
<button role="tab" id="tab-overview" aria-selected="true" aria-controls="panel-overview">Overview</button>
<button role="tab" id="tab-specs" aria-selected="false" aria-controls="panel-specs" tabindex="-1">Specifications</button>
<button role="tab" id="tab-reviews" aria-selected="false" aria-controls="panel-reviews" tabindex="-1">Reviews</button>
</div>
<div role="tabpanel" id="panel-overview" aria-labelledby="tab-overview"><p>Wireless over-ear headphones with active noise cancelling.</p></div>
<div role="tabpanel" id="panel-specs" aria-labelledby="tab-specs" hidden><ul><li>Battery life: 32 hours</li><li>Weight: 254 g</li><li>Bluetooth 5.3</li><li>Charging: USB-C, 10 minutes for 5 hours of play</li></ul></div>
<div role="tabpanel" id="panel-reviews" aria-labelledby="tab-reviews" hidden><p>Rated 4.6 out of 5 by 212 customers.</p><p>“Comfortable on long flights.” — Noor</p></div>
<script>
const tabs = [...document.querySelectorAll('[role=tab]')];
function select(t) {
  for (const o of tabs) {
    const on = o === t;
    o.setAttribute('aria-selected', on);
    o.tabIndex = on ? 0 : -1;
    document.getElementById(o.getAttribute('aria-controls')).hidden = !on;
  }
  t.focus();
  report('tabs', t.textContent);
}
tabs.forEach((t, i) => {
  t.addEventListener('click', () => select(t));
  t.addEventListener('keydown', e => {
    if (e.key === 'ArrowRight') select(tabs[(i + 1) % tabs.length]);
    if (e.key === 'ArrowLeft') select(tabs[(i + tabs.length - 1) % tabs.length]);
  });
});
</script>`,

	"/accordion": `<h1>Frequently asked questions</h1>
<div class="acc">
<h2><button aria-expanded="false" aria-controls="a1">What is the return policy?</button></h2>
<div class="panel" id="a1" hidden><p>You can return unused items within 45 days of delivery for a full refund.</p></div>
<h2><button aria-expanded="false" aria-controls="a2">Do you ship abroad?</button></h2>
<div class="panel" id="a2" hidden><p>We ship to 28 countries. International delivery takes 6 to 10 working days.</p></div>
<h2><button aria-expanded="false" aria-controls="a3">How do I reset my password?</button></h2>
<div class="panel" id="a3" hidden><p>Use the “Forgot password” link on the sign-in page; the reset link is valid for 30 minutes.</p></div>
<h2><button aria-expanded="false" aria-controls="a4">Which payment methods do you accept?</button></h2>
<div class="panel" id="a4" hidden><p>Cards, bank transfer and gift vouchers. We do not accept cheques.</p></div>
</div>
<script>
for (const b of document.querySelectorAll('.acc button')) {
  b.addEventListener('click', () => {
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', open);
    document.getElementById(b.getAttribute('aria-controls')).hidden = !open;
    if (open) report('accordion', b.textContent);
  });
}
</script>`,

	"/menu": `<h1>Store navigation</h1>
<p>Point at a menu to open it.</p>
<nav aria-label="Store"><ul class="menubar">
<li class="menu"><button aria-haspopup="true" aria-expanded="false">Products</button>
<ul><li><a href="/menu/laptops">Laptops</a></li><li><a href="/menu/phones">Phones</a></li><li><a href="/menu/tablets">Tablets</a></li><li><a href="/menu/accessories">Accessories</a></li></ul></li>
<li class="menu"><button aria-haspopup="true" aria-expanded="false">Support</button>
<ul><li><a href="/menu/contact">Contact support</a></li><li><a href="/menu/warranty">Warranty</a></li></ul></li>
<li class="menu"><button aria-haspopup="true" aria-expanded="false">Company</button>
<ul><li><a href="/menu/about">About us</a></li><li><a href="/menu/careers">Careers</a></li></ul></li>
</ul></nav>
<script>
// A menu opens when the pointer enters it, and (for keyboards and touch)
// when its button is clicked or focused with Enter or ArrowDown. It closes
// a moment after the pointer leaves it, or on Escape.
const menus = [...document.querySelectorAll('li.menu')];
function setOpen(li, open) {
  if (open) menus.forEach(m => m !== li && setOpen(m, false));
  li.classList.toggle('open', open);
  li.querySelector('button').setAttribute('aria-expanded', open);
}
for (const li of menus) {
  let timer = null;
  li.addEventListener('mouseenter', () => { clearTimeout(timer); setOpen(li, true); });
  li.addEventListener('mouseleave', () => { timer = setTimeout(() => setOpen(li, false), 500); });
  const b = li.querySelector('button');
  b.addEventListener('click', () => { clearTimeout(timer); setOpen(li, true); });
  b.addEventListener('keydown', e => {
    if (e.key === 'Enter' || e.key === 'ArrowDown') { setOpen(li, true); li.querySelector('a').focus(); e.preventDefault(); }
  });
  li.addEventListener('keydown', e => { if (e.key === 'Escape') { setOpen(li, false); b.focus(); } });
}
</script>`,

	"/datepicker": `<h1>Choose your check-in date</h1>
<div class="field"><label for="checkin">Check-in date</label>
<input type="text" id="checkin" readonly placeholder="Pick a date" aria-describedby="checkin-hint">
<button type="button" id="open-cal" aria-haspopup="dialog">Open calendar</button>
<p id="checkin-hint">Click “Open calendar” and pick a day.</p></div>
<div class="cal" id="cal" role="dialog" aria-label="Calendar" hidden>
<div><button type="button" id="prev">Previous month</button> <strong id="month" aria-live="polite"></strong> <button type="button" id="next">Next month</button></div>
<table role="grid"><thead><tr><th>Mo</th><th>Tu</th><th>We</th><th>Th</th><th>Fr</th><th>Sa</th><th>Su</th></tr></thead><tbody id="days"></tbody></table>
</div>
<p id="status" role="status"></p>
<script>
const months = ['January','February','March','April','May','June','July','August','September','October','November','December'];
let year = 2026, month = 2; // the calendar opens on March 2026
const cal = document.getElementById('cal'), input = document.getElementById('checkin');
function draw() {
  document.getElementById('month').textContent = months[month] + ' ' + year;
  const body = document.getElementById('days');
  body.textContent = '';
  const first = (new Date(Date.UTC(year, month, 1)).getUTCDay() + 6) % 7;
  const n = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  let row = body.insertRow();
  for (let i = 0; i < first; i++) row.insertCell();
  for (let d = 1; d <= n; d++) {
    if (row.cells.length === 7) row = body.insertRow();
    const b = document.createElement('button');
    b.type = 'button'; b.className = 'day'; b.textContent = d;
    b.setAttribute('aria-label', months[month] + ' ' + d + ', ' + year);
    b.addEventListener('click', () => pick(d));
    row.insertCell().appendChild(b);
  }
}
function pick(d) {
  const iso = year + '-' + String(month + 1).padStart(2, '0') + '-' + String(d).padStart(2, '0');
  input.value = iso;
  cal.hidden = true;
  document.getElementById('status').textContent = 'Check-in date set to ' + months[month] + ' ' + d + ', ' + year + '.';
  report('datepicker', iso);
}
function openCal() { cal.hidden = false; draw(); }
document.getElementById('open-cal').addEventListener('click', openCal);
input.addEventListener('click', openCal);
document.getElementById('prev').addEventListener('click', () => { if (--month < 0) { month = 11; year--; } draw(); });
document.getElementById('next').addEventListener('click', () => { if (++month > 11) { month = 0; year++; } draw(); });
</script>`,

	"/autocomplete": `<h1>Find a flight</h1>
<form id="f" novalidate>
<div class="field"><label for="city">Destination city</label>
<input type="text" id="city" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="suggestions" autocomplete="off">
<ul id="suggestions" role="listbox" aria-label="Suggestions" hidden></ul></div>
<button type="submit">Search flights</button>
</form>
<p id="status" role="status"></p>
<script>
// Suggestions follow the keys typed: they update on input and keyup events,
// never from the field's value alone.
const cities = ['Amsterdam, Netherlands','Athens, Greece','Barcelona, Spain','Berlin, Germany','Bordeaux, France','Bratislava, Slovakia',
  'Brussels, Belgium','Budapest, Hungary','Copenhagen, Denmark','Dublin, Ireland','Edinburgh, UK','Geneva, Switzerland','Hamburg, Germany',
  'Helsinki, Finland','Krakow, Poland','Lille, France','Lima, Peru','Limassol, Cyprus','Linz, Austria','Lisbon, Portugal','Liverpool, UK',
  'Ljubljana, Slovenia','London, UK','Lyon, France','Madrid, Spain','Marseille, France','Milan, Italy','Munich, Germany','Naples, Italy',
  'Oslo, Norway','Paris, France','Porto, Portugal','Prague, Czechia','Riga, Latvia','Rome, Italy','Seville, Spain','Stockholm, Sweden',
  'Tallinn, Estonia','Valencia, Spain','Vienna, Austria','Vilnius, Lithuania','Warsaw, Poland','Zagreb, Croatia','Zurich, Switzerland'];
const input = document.getElementById('city'), list = document.getElementById('suggestions');
let chosen = '', active = -1;
function show() {
  const q = input.value.trim().toLowerCase();
  list.textContent = '';
  active = -1;
  const hits = q ? cities.filter(c => c.toLowerCase().startsWith(q)).slice(0, 6) : [];
  hits.forEach((c, i) => {
    const li = document.createElement('li');
    li.setAttribute('role', 'option'); li.id = 'opt-' + i; li.tabIndex = -1; li.textContent = c;
    li.addEventListener('mousedown', e => e.preventDefault());
    li.addEventListener('click', () => choose(c));
    list.appendChild(li);
  });
  list.hidden = hits.length === 0;
  input.setAttribute('aria-expanded', hits.length > 0);
}
function choose(c) {
  input.value = c; chosen = c; list.hidden = true; input.setAttribute('aria-expanded', false);
  document.getElementById('status').textContent = 'Destination: ' + c + '.';
  report('autocomplete', c);
}
function move(d) {
  const opts = [...list.children];
  if (!opts.length) return;
  active = (active + d + opts.length) % opts.length;
  opts.forEach((o, i) => o.setAttribute('aria-selected', i === active));
  input.setAttribute('aria-activedescendant', opts[active].id);
}
input.addEventListener('input', () => { chosen = ''; show(); });
input.addEventListener('keyup', e => { if (e.key.length === 1 || e.key === 'Backspace') show(); });
input.addEventListener('keydown', e => {
  if (e.key === 'ArrowDown') { move(1); e.preventDefault(); }
  else if (e.key === 'ArrowUp') { move(-1); e.preventDefault(); }
  else if (e.key === 'Enter' && active >= 0) { choose(list.children[active].textContent); e.preventDefault(); }
  else if (e.key === 'Escape') { list.hidden = true; }
});
document.getElementById('f').addEventListener('submit', e => {
  e.preventDefault();
  const s = document.getElementById('status');
  if (!chosen) { s.textContent = 'Choose a city from the suggestions.'; return; }
  s.textContent = 'Searching flights to ' + chosen + '…';
  report('autocomplete_search', chosen);
});
</script>`,

	"/slider": `<h1>Sound settings</h1>
<div class="field"><label for="volume">Volume</label>
<input type="range" id="volume" min="0" max="100" step="10" value="30" aria-describedby="volume-out"> <output id="volume-out" for="volume">30</output></div>
<p>Use the arrow keys, Home and End to change the volume in steps of 10.</p>
<p id="status" role="status"></p>
<script>
const v = document.getElementById('volume');
v.addEventListener('input', () => { document.getElementById('volume-out').textContent = v.value; });
v.addEventListener('change', () => {
  document.getElementById('status').textContent = 'Volume saved: ' + v.value + '.';
  report('slider', v.value);
});
</script>`,

	"/modal": `<h1>Email preferences</h1>
<p>You receive our weekly newsletter and product announcements.</p>
<button type="button" id="unsub">Unsubscribe from all emails</button>
<p id="status" role="status"></p>
<dialog id="dlg" aria-labelledby="dlg-title">
<h2 id="dlg-title">Unsubscribe from all emails?</h2>
<p>You will stop receiving every email from us.</p>
<label for="confirm-text">Type UNSUBSCRIBE to confirm</label> <input type="text" id="confirm-text" autocomplete="off">
<p><button type="button" id="confirm" disabled>Confirm</button> <button type="button" id="cancel">Cancel</button></p>
</dialog>
<script>
const dlg = document.getElementById('dlg'), text = document.getElementById('confirm-text'), ok = document.getElementById('confirm');
document.getElementById('unsub').addEventListener('click', () => { text.value = ''; ok.disabled = true; dlg.showModal(); });
text.addEventListener('input', () => { ok.disabled = text.value.trim() !== 'UNSUBSCRIBE'; });
document.getElementById('cancel').addEventListener('click', () => { dlg.close(); report('modal', 'cancelled'); });
ok.addEventListener('click', () => {
  dlg.close();
  document.getElementById('unsub').disabled = true;
  document.getElementById('status').textContent = 'You are unsubscribed from all emails.';
  report('modal', 'unsubscribed');
});
</script>`,

	"/iframe": `<h1>Contact us</h1>
<p>Send us a message with the form below.</p>
<iframe src="/iframe/form" title="Contact form" width="480" height="260"></iframe>`,

	"/shadow": `<h1>Offers</h1>
<coupon-card></coupon-card>
<p id="status" role="status"></p>
<script>
customElements.define('coupon-card', class extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({mode: 'open'});
    root.innerHTML = '<style>div{border:2px dashed #690;padding:.8em;background:#fff;max-width:20em}</style>' +
      '<div><h2>Spring offer</h2><p>20% off your next order.</p><button type="button">Reveal code</button><p class="code" hidden></p></div>';
    root.querySelector('button').addEventListener('click', () => {
      const p = root.querySelector('.code');
      p.hidden = false;
      p.textContent = 'Your code: SPRING-7431';
      root.querySelector('button').disabled = true;
      report('shadow', 'revealed');
    });
  }
});
</script>`,

	"/feed": `<h1>Photo feed</h1>
<div id="posts" aria-label="Posts"></div>
<p id="loading" role="status">Loading…</p>
<script>
// Ten posts at a time; the next ten load when the page is scrolled near
// its end.
let page = 0, more = true, busy = false;
const posts = document.getElementById('posts'), loading = document.getElementById('loading');
async function load() {
  if (busy || !more) return;
  busy = true;
  const r = await fetch('/api/feed?page=' + (page + 1));
  const data = await r.json();
  page++; more = data.more;
  for (const p of data.posts) {
    const a = document.createElement('article');
    a.className = 'post';
    a.innerHTML = '<h2></h2><p></p><button type="button" aria-pressed="false">Like</button>';
    a.querySelector('h2').textContent = 'Post ' + p.n + ': ' + p.title;
    a.querySelector('p').textContent = 'by ' + p.author + ' · ' + p.likes + ' likes';
    const b = a.querySelector('button');
    b.addEventListener('click', () => {
      const on = b.getAttribute('aria-pressed') !== 'true';
      b.setAttribute('aria-pressed', on);
      if (on) report('feed', p.title);
    });
    posts.appendChild(a);
  }
  loading.textContent = more ? 'Scroll down for more posts.' : 'You have reached the end.';
  busy = false;
  nearEnd();
}
function nearEnd() {
  if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 200) load();
}
window.addEventListener('scroll', nearEnd, {passive: true});
load();
</script>`,

	"/editor": `<h1>Notes</h1>
<div role="toolbar" aria-label="Formatting"><button type="button" id="bold">Bold</button> <button type="button" id="clear">Clear</button></div>
<div class="editor" id="note" contenteditable="true" role="textbox" aria-multiline="true" aria-label="Note"></div>
<p><button type="button" id="save">Save note</button></p>
<p id="status" role="status"></p>
<script>
const note = document.getElementById('note');
document.getElementById('bold').addEventListener('mousedown', e => e.preventDefault());
document.getElementById('bold').addEventListener('click', () => document.execCommand('bold'));
document.getElementById('clear').addEventListener('click', () => { note.textContent = ''; });
document.getElementById('save').addEventListener('click', () => {
  const text = note.innerText.trim();
  document.getElementById('status').textContent = text ? 'Note saved.' : 'The note is empty.';
  if (text) report('editor', text);
});
</script>`,
	"/upload": `<h1>Your profile photo</h1>
<form id="f" novalidate>
<div class="field"><label for="photo">Profile photo</label> <input type="file" id="photo" accept="image/*,.txt"></div>
<div class="field"><span id="docs-label">Documents</span> <input type="file" id="docs" multiple hidden aria-labelledby="docs-label">
<button type="button" id="docs-button" aria-describedby="docs-label">Choose documents</button> <span id="docs-list">No documents chosen.</span></div>
<button type="submit">Save profile</button>
</form>
<p id="status" role="status"></p>
<script>
const photo = document.getElementById('photo'), docs = document.getElementById('docs');
document.getElementById('docs-button').addEventListener('click', () => docs.click());
const describe = (files) => Array.from(files).map(f => f.name + ' (' + f.size + ' bytes)').join(', ');
docs.addEventListener('change', () => { document.getElementById('docs-list').textContent = describe(docs.files) || 'No documents chosen.'; });
photo.addEventListener('change', () => { document.getElementById('status').textContent = photo.files.length ? 'Photo chosen: ' + describe(photo.files) + '.' : ''; });
document.getElementById('f').addEventListener('submit', async e => {
  e.preventDefault();
  const s = document.getElementById('status');
  if (!photo.files.length) { s.textContent = 'Choose a photo first.'; return; }
  const text = await photo.files[0].text();
  s.textContent = 'Profile saved with ' + photo.files[0].name + '.';
  report('upload', photo.files[0].name + ':' + text.trim());
  if (docs.files.length) report('upload_docs', Array.from(docs.files).map(f => f.name).join(','));
});
</script>`,

	"/drag": `<h1>Sprint board</h1>
<p>Drag a card to the column where it belongs.</p>
<div class="board">
<section class="column" id="todo" aria-label="To do"><h2>To do</h2>
<div class="card" draggable="true" id="card-login" role="button" aria-roledescription="draggable card">Fix the login page</div>
<div class="card" draggable="true" id="card-docs" role="button" aria-roledescription="draggable card">Write the docs</div>
<button type="button" class="add" aria-label="Add a card to To do">Add a card</button></section>
<section class="column" id="done" aria-label="Done"><h2>Done</h2>
<button type="button" class="add" aria-label="Add a card to Done">Add a card</button></section>
</div>
<h2>Confirm the order</h2>
<p>Slide the handle all the way to the right.</p>
<div class="track" id="track"><div class="handle" id="handle" role="slider" aria-label="Slide to confirm" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0" tabindex="0"></div></div>
<p id="status" role="status"></p>
<script>
// The board uses HTML5 drag and drop: dragstart/dragover/drop.
for (const c of document.querySelectorAll('.card')) {
  c.addEventListener('dragstart', e => { e.dataTransfer.setData('text/plain', c.id); e.dataTransfer.effectAllowed = 'move'; });
}
for (const col of document.querySelectorAll('.column')) {
  col.addEventListener('dragover', e => { e.preventDefault(); col.classList.add('over'); });
  col.addEventListener('dragleave', () => col.classList.remove('over'));
  col.addEventListener('drop', e => {
    e.preventDefault();
    col.classList.remove('over');
    const card = document.getElementById(e.dataTransfer.getData('text/plain'));
    if (!card) return;
    col.insertBefore(card, col.querySelector('.add'));
    document.getElementById('status').textContent = '“' + card.textContent + '” moved to ' + col.getAttribute('aria-label') + '.';
    report('drag', card.textContent + ' -> ' + col.getAttribute('aria-label'));
  });
}
// The handle follows the mouse while the button is held (mouse events only).
const handle = document.getElementById('handle'), track = document.getElementById('track');
let startX = null, startLeft = 0;
const maxLeft = () => track.clientWidth - handle.offsetWidth;
handle.addEventListener('mousedown', e => { startX = e.clientX; startLeft = handle.offsetLeft; e.preventDefault(); });
document.addEventListener('mousemove', e => {
  if (startX === null) return;
  const left = Math.max(0, Math.min(maxLeft(), startLeft + e.clientX - startX));
  handle.style.left = left + 'px';
  handle.setAttribute('aria-valuenow', Math.round(100 * left / maxLeft()));
});
document.addEventListener('mouseup', () => {
  if (startX === null) return;
  startX = null;
  if (handle.offsetLeft >= maxLeft() - 2) {
    document.getElementById('status').textContent = 'Order confirmed.';
    report('slide', 'confirmed');
  } else {
    handle.style.left = '0px';
    handle.setAttribute('aria-valuenow', 0);
  }
});
</script>`,

	"/listbox": `<h1>Delivery options</h1>
<div class="field"><span id="ship-label">Shipping method</span>
<div class="combo-wrap"><button type="button" id="ship" role="combobox" aria-haspopup="listbox" aria-expanded="false" aria-controls="ship-list" aria-labelledby="ship-label ship">Choose a method</button>
<ul id="ship-list" role="listbox" class="combo-pop" aria-label="Shipping methods" hidden>
<li role="option" id="s-std" aria-selected="false">Standard (3-5 days)</li>
<li role="option" id="s-exp" aria-selected="false">Express (next day)</li>
<li role="option" id="s-pick" aria-selected="false">Pick up in store</li>
</ul></div></div>
<div class="field"><span id="contact-label">Preferred contact</span>
<ul role="listbox" id="contact" aria-labelledby="contact-label" tabindex="0">
<li role="option" aria-selected="true">Email</li><li role="option" aria-selected="false">Phone</li><li role="option" aria-selected="false">Text message</li>
</ul></div>
<p id="status" role="status"></p>
<script>
const ship = document.getElementById('ship'), list = document.getElementById('ship-list');
function setOpen(open) { list.hidden = !open; ship.setAttribute('aria-expanded', open); }
ship.addEventListener('click', () => setOpen(list.hidden));
for (const o of list.querySelectorAll('[role=option]')) {
  o.addEventListener('click', () => {
    for (const x of list.children) x.setAttribute('aria-selected', x === o);
    ship.textContent = o.textContent;
    setOpen(false);
    document.getElementById('status').textContent = 'Shipping: ' + o.textContent + '.';
    report('listbox_combo', o.textContent);
  });
}
document.addEventListener('click', e => { if (!ship.contains(e.target) && !list.contains(e.target)) setOpen(false); });
const contact = document.getElementById('contact');
for (const o of contact.querySelectorAll('[role=option]')) {
  o.addEventListener('click', () => {
    for (const x of contact.children) x.setAttribute('aria-selected', x === o);
    report('listbox', o.textContent);
  });
}
</script>`,

	"/cookies": `<h1>Aurora headphones</h1>
<p>Wireless over-ear headphones. Price: €199.</p>
<button type="button" id="buy">Buy now</button>
<p id="status" role="status"></p>
<div class="cookie-banner" id="banner" aria-label="Cookie consent"><div>
<p>We use cookies to improve your experience.</p>
<button type="button" id="accept">Accept all cookies</button> <button type="button" id="reject">Reject</button>
</div></div>
<script>
const banner = document.getElementById('banner');
document.getElementById('accept').addEventListener('click', () => { banner.remove(); report('cookies', 'accepted'); });
document.getElementById('reject').addEventListener('click', () => { banner.remove(); report('cookies', 'rejected'); });
document.getElementById('buy').addEventListener('click', () => {
  document.getElementById('status').textContent = 'Added to your basket.';
  report('buy', 'bought');
});
</script>`,

	"/settings": `<h1>Account settings</h1>
<form id="f">
<p><label><input type="checkbox" id="offers" checked> Email me offers</label></p>
<p><label class="switch"><input type="checkbox" id="dark"><span class="track2"></span> Dark mode</label></p>
<p><span id="notif-label">Notifications</span> <span role="switch" id="notif" aria-checked="false" aria-labelledby="notif-label" tabindex="0"></span></p>
<fieldset><legend>Plan</legend>
<label><input type="radio" name="plan" value="free" checked> Free</label>
<label><input type="radio" name="plan" value="pro"> Pro</label></fieldset>
<p><button type="submit">Save settings</button></p>
</form>
<p id="status" role="status"></p>
<script>
const notif = document.getElementById('notif');
const toggle = () => notif.setAttribute('aria-checked', notif.getAttribute('aria-checked') !== 'true');
notif.addEventListener('click', toggle);
notif.addEventListener('keydown', e => { if (e.key === ' ' || e.key === 'Enter') { toggle(); e.preventDefault(); } });
document.getElementById('f').addEventListener('submit', e => {
  e.preventDefault();
  const v = 'offers=' + document.getElementById('offers').checked + ' dark=' + document.getElementById('dark').checked +
    ' notifications=' + (notif.getAttribute('aria-checked') === 'true') + ' plan=' + document.querySelector('[name=plan]:checked').value;
  document.getElementById('status').textContent = 'Settings saved.';
  report('settings', v);
});
</script>`,
}
