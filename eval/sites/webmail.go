package sites

import (
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Mail is one message in the webmail inbox.
type Mail struct {
	ID       int    `json:"id"`
	FromName string `json:"from_name"`
	From     string `json:"from"`
	Subject  string `json:"subject"`
	Date     string `json:"date"`
	Body     string `json:"body"`
	Read     bool   `json:"read"`
	Deleted  bool   `json:"deleted"`
}

// SentMail is a message sent from the webmail's compose form.
type SentMail struct {
	ID            int      `json:"id"`
	To            []string `json:"to"`
	Subject       string   `json:"subject"`
	Body          string   `json:"body"`
	InReplyTo     int      `json:"in_reply_to,omitempty"`
	ForwardedFrom int      `json:"forwarded_from,omitempty"`
}

// The webmail user's own address.
const WebmailUser = "sam.lee@acme.test"

var webmailInbox = []Mail{
	{ID: 1, FromName: "Maria Gomez", From: "maria@acme.test", Subject: "Quarterly report draft", Date: "Mar 3, 2026",
		Body: "Hi Sam,\n\nThe draft of the Q1 report is ready in the shared folder. Could you review section 2 (costs) by Friday?\n\nThanks,\nMaria"},
	{ID: 2, FromName: "IT Helpdesk", From: "helpdesk@acme.test", Subject: "Your password expires in 5 days", Date: "Mar 4, 2026",
		Body: "Your network password expires on March 9, 2026. Change it at the self-service portal before then to keep access.\n\nIT Helpdesk, extension 4400"},
	{ID: 3, FromName: "Tom Becker", From: "tom.becker@acme.test", Subject: "Lunch on Thursday?", Date: "Mar 4, 2026",
		Body: "Hey Sam,\n\nAre you free for lunch on Thursday at 12:30? There is a new ramen place on Dock Street.\n\nTom"},
	{ID: 4, FromName: "Travel Desk", From: "travel@acme.test", Subject: "Your flight to Lisbon", Date: "Mar 5, 2026",
		Body: "Your trip is booked.\n\nBooking reference: QX7P2L\nFlight TP 1347 departs at 09:40 on April 14 from Terminal 2.\nHotel: Casa Alfama, 3 nights.\n\nTravel Desk"},
	{ID: 5, FromName: "Priya Nair", From: "priya.nair@acme.test", Subject: "Invoice 4471 overdue", Date: "Mar 5, 2026",
		Body: "Hello,\n\nInvoice 4471 for $2,380.00 was due on February 28. Could you check with accounts payable when it will be paid?\n\nKind regards,\nPriya Nair\nBrightline Supplies"},
	{ID: 6, FromName: "Garden Club", From: "news@gardenclub.test", Subject: "Spring planting guide", Date: "Mar 6, 2026",
		Body: "This month: plant sweet peas after the last frost, divide your hostas, and join our seed swap on March 21 at the community hall."},
	{ID: 7, FromName: "Jonas Weber", From: "jonas@acme.test", Subject: "Meeting notes: roadmap", Date: "Mar 6, 2026",
		Body: "Notes from today's roadmap meeting:\n\n1. Beta release moves to May 12.\n2. Sam owns the migration guide.\n3. Next review is on March 20.\n\nJonas"},
	{ID: 8, FromName: "Maria Gomez", From: "maria@acme.test", Subject: "Office move", Date: "Mar 7, 2026",
		Body: "Hi all,\n\nThe office move is on March 21. Your new desk number is 4.17 on the fourth floor. Please pack your things by March 20.\n\nMaria"},
}

// Webmail is a small mail client: an inbox with search, message pages with
// reply, forward and delete, a compose form validated on the server, and a
// sent folder.
type Webmail struct {
	mux *http.ServeMux

	mu    sync.Mutex
	inbox []Mail
	sent  []SentMail
	flash string
}

// NewWebmail returns a webmail account with the fixed inbox and nothing sent.
func NewWebmail() *Webmail {
	m := &Webmail{}
	m.Reset()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/inbox", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /inbox", m.showInbox)
	mux.HandleFunc("GET /messages/{id}", m.showMessage)
	mux.HandleFunc("POST /messages/{id}/delete", m.delete)
	mux.HandleFunc("GET /compose", m.compose)
	mux.HandleFunc("POST /send", m.send)
	mux.HandleFunc("GET /sent", m.showSent)
	mux.HandleFunc("GET /sent/{id}", m.showSentMessage)
	m.mux = mux
	return m
}

// Reset restores the inbox and empties the sent folder.
func (m *Webmail) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inbox = append([]Mail(nil), webmailInbox...)
	m.sent, m.flash = nil, ""
}

func (m *Webmail) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.mux.ServeHTTP(w, r) }

// Sent returns a copy of the messages sent, oldest first.
func (m *Webmail) Sent() []SentMail {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]SentMail, len(m.sent))
	for i, s := range m.sent {
		s.To = append([]string(nil), s.To...)
		out[i] = s
	}
	return out
}

// Inbox returns a copy of the inbox, deleted messages included (marked).
func (m *Webmail) Inbox() []Mail {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Mail(nil), m.inbox...)
}

// State is {"sent": [SentMail...], "inbox": [Mail...], "deleted": [id...]}.
func (m *Webmail) State() map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	deleted := []int{}
	for _, x := range m.inbox {
		if x.Deleted {
			deleted = append(deleted, x.ID)
		}
	}
	sent := m.sent
	if sent == nil {
		sent = []SentMail{}
	}
	return stateOf(map[string]any{"sent": sent, "inbox": m.inbox, "deleted": deleted})
}

var mailTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("mail").Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} - Acme Mail</title>
<style>` + baseCSS + `
.unread td{font-weight:bold}.body{white-space:pre-wrap;background:#fff;border:1px solid #ddd;padding:1em}
textarea{width:100%;height:10em}input[type=text],input[type=email]{width:30em}
.quoted{white-space:pre-wrap;color:#555;border-left:3px solid #ccc;padding-left:.8em}</style></head>
<body><header><h1>Acme Mail</h1><nav aria-label="Folders"><a href="/inbox">Inbox</a><a href="/sent">Sent</a><a href="/compose">Compose</a></nav>
<span>` + WebmailUser + `</span></header>
<main>{{if .Flash}}<p class="notice" role="status">{{.Flash}}</p>{{end}}{{end}}

{{define "foot"}}</main></body></html>{{end}}

{{define "inbox"}}{{template "head" .}}
<h1>Inbox</h1>
<form method="get" action="/inbox" role="search"><label for="q">Search mail</label><input type="search" id="q" name="q" value="{{.Q}}"><button type="submit">Search</button></form>
{{if .Q}}<p>{{len .Mails}} messages match “{{.Q}}”. <a href="/inbox">Clear search</a></p>{{end}}
{{if .Mails}}<table><thead><tr><th>From</th><th>Subject</th><th>Date</th></tr></thead><tbody>
{{range .Mails}}<tr{{if not .Read}} class="unread"{{end}}><td>{{.FromName}}</td><td><a href="/messages/{{.ID}}">{{.Subject}}</a></td><td>{{.Date}}</td></tr>
{{end}}</tbody></table>{{else}}<p>No messages.</p>{{end}}
{{template "foot" .}}{{end}}

{{define "message"}}{{template "head" .}}
<article><h1>{{.Mail.Subject}}</h1>
<p>From: {{.Mail.FromName}} &lt;{{.Mail.From}}&gt;<br>To: ` + WebmailUser + `<br>Date: {{.Mail.Date}}</p>
<div class="body" id="body">{{.Mail.Body}}</div></article>
<p><a href="/compose?reply={{.Mail.ID}}">Reply</a> <a href="/compose?forward={{.Mail.ID}}">Forward</a></p>
<form method="post" action="/messages/{{.Mail.ID}}/delete"><button type="submit">Delete</button></form>
<p><a href="/inbox">Back to inbox</a></p>
{{template "foot" .}}{{end}}

{{define "compose"}}{{template "head" .}}
<h1>{{.Heading}}</h1>
{{if .Errors}}<div class="error" role="alert">The message was not sent. {{range .Errors}}{{.}} {{end}}</div>{{end}}
<form method="post" action="/send" novalidate>
<input type="hidden" name="reply" value="{{.F.reply}}"><input type="hidden" name="forward" value="{{.F.forward}}">
<div class="field"><label for="to">To</label><input type="email" multiple id="to" name="to" value="{{.F.to}}"></div>
<div class="field"><label for="subject">Subject</label><input type="text" id="subject" name="subject" value="{{.F.subject}}"></div>
<div class="field"><label for="body">Message</label><textarea id="body" name="body">{{.F.body}}</textarea></div>
{{with .Original}}<p>The original message will be included below your note:</p><div class="quoted">From: {{.FromName}} &lt;{{.From}}&gt;
Subject: {{.Subject}}

{{.Body}}</div>{{end}}
<button type="submit">Send</button> <a href="/inbox">Discard</a>
</form>
{{template "foot" .}}{{end}}

{{define "sent"}}{{template "head" .}}
<h1>Sent</h1>
{{if .Sent}}<table><thead><tr><th>To</th><th>Subject</th></tr></thead><tbody>
{{range .Sent}}<tr><td>{{range $i, $t := .To}}{{if $i}}, {{end}}{{$t}}{{end}}</td><td><a href="/sent/{{.ID}}">{{.Subject}}</a></td></tr>{{end}}
</tbody></table>{{else}}<p>You have not sent any messages.</p>{{end}}
{{template "foot" .}}{{end}}

{{define "sentmessage"}}{{template "head" .}}
<h1>{{.Sent.Subject}}</h1><p>To: {{range $i, $t := .Sent.To}}{{if $i}}, {{end}}{{$t}}{{end}}</p>
<div class="body">{{.Sent.Body}}</div><p><a href="/sent">Back to sent</a></p>
{{template "foot" .}}{{end}}
`))
})

func (m *Webmail) base(title string) map[string]any {
	f := m.flash
	m.flash = ""
	return map[string]any{"Title": title, "Flash": f}
}

// find returns the index of a message not deleted; the caller holds m.mu.
func (m *Webmail) find(idStr string) int {
	id, err := strconv.Atoi(idStr)
	if err != nil {
		return -1
	}
	for i, x := range m.inbox {
		if x.ID == id && !x.Deleted {
			return i
		}
	}
	return -1
}

func (m *Webmail) showInbox(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	m.mu.Lock()
	d := m.base("Inbox")
	var list []Mail
	for i := len(m.inbox) - 1; i >= 0; i-- { // newest first
		x := m.inbox[i]
		if x.Deleted {
			continue
		}
		if q != "" && !strings.Contains(strings.ToLower(x.FromName+" "+x.From+" "+x.Subject+" "+x.Body), strings.ToLower(q)) {
			continue
		}
		list = append(list, x)
	}
	m.mu.Unlock()
	d["Q"], d["Mails"] = q, list
	render(w, 0, mailTmpl(), "inbox", d)
}

func (m *Webmail) showMessage(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	i := m.find(r.PathValue("id"))
	if i < 0 {
		m.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	m.inbox[i].Read = true
	d := m.base(m.inbox[i].Subject)
	d["Mail"] = m.inbox[i]
	m.mu.Unlock()
	render(w, 0, mailTmpl(), "message", d)
}

func (m *Webmail) delete(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := m.find(r.PathValue("id"))
	if i < 0 {
		http.NotFound(w, r)
		return
	}
	m.inbox[i].Deleted = true
	m.flash = fmt.Sprintf("Deleted “%s”.", m.inbox[i].Subject)
	http.Redirect(w, r, "/inbox", http.StatusSeeOther)
}

func (m *Webmail) compose(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := map[string]string{}
	heading := "New message"
	m.mu.Lock()
	d := m.base("Compose")
	var orig *Mail
	if id := q.Get("reply"); id != "" {
		if i := m.find(id); i >= 0 {
			x := m.inbox[i]
			heading = "Reply"
			f["reply"], f["to"], f["subject"] = id, x.From, "Re: "+x.Subject
		}
	} else if id := q.Get("forward"); id != "" {
		if i := m.find(id); i >= 0 {
			x := m.inbox[i]
			orig = &x
			heading = "Forward"
			f["forward"], f["subject"] = id, "Fwd: "+x.Subject
		}
	}
	m.mu.Unlock()
	d["F"], d["Heading"] = f, heading
	if orig != nil {
		d["Original"] = *orig
	}
	render(w, 0, mailTmpl(), "compose", d)
}

func (m *Webmail) send(w http.ResponseWriter, r *http.Request) {
	f := map[string]string{}
	for _, k := range []string{"to", "subject", "body", "reply", "forward"} {
		f[k] = strings.TrimSpace(r.FormValue(k))
	}
	var to []string
	var errs []string
	for _, a := range strings.FieldsFunc(f["to"], func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
		if !emailRe.MatchString(a) {
			errs = append(errs, fmt.Sprintf("“%s” is not an email address.", a))
			continue
		}
		to = append(to, strings.ToLower(a))
	}
	if len(to) == 0 && len(errs) == 0 {
		errs = append(errs, "Add at least one recipient.")
	}
	if f["subject"] == "" {
		errs = append(errs, "Add a subject.")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var orig *Mail
	if f["forward"] != "" {
		if i := m.find(f["forward"]); i >= 0 {
			x := m.inbox[i]
			orig = &x
		}
	}
	if f["body"] == "" && orig == nil {
		errs = append(errs, "Write a message.")
	}
	if len(errs) > 0 {
		d := m.base("Compose")
		d["F"], d["Errors"], d["Heading"] = f, errs, "New message"
		if orig != nil {
			d["Original"], d["Heading"] = *orig, "Forward"
		} else if f["reply"] != "" {
			d["Heading"] = "Reply"
		}
		render(w, http.StatusUnprocessableEntity, mailTmpl(), "compose", d)
		return
	}
	s := SentMail{ID: len(m.sent) + 1, To: to, Subject: f["subject"], Body: f["body"]}
	if i := m.find(f["reply"]); i >= 0 {
		s.InReplyTo = m.inbox[i].ID
	}
	if orig != nil {
		s.ForwardedFrom = orig.ID
		s.Body = strings.TrimSpace(s.Body + "\n\n---------- Forwarded message ----------\nFrom: " + orig.FromName + " <" + orig.From + ">\nSubject: " + orig.Subject + "\n\n" + orig.Body)
	}
	m.sent = append(m.sent, s)
	m.flash = "Your message was sent."
	http.Redirect(w, r, "/sent", http.StatusSeeOther)
}

func (m *Webmail) showSent(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	d := m.base("Sent")
	d["Sent"] = append([]SentMail(nil), m.sent...)
	m.mu.Unlock()
	render(w, 0, mailTmpl(), "sent", d)
}

func (m *Webmail) showSentMessage(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PathValue("id"))
	m.mu.Lock()
	if id < 1 || id > len(m.sent) {
		m.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	d := m.base("Sent message")
	d["Sent"] = m.sent[id-1]
	m.mu.Unlock()
	render(w, 0, mailTmpl(), "sentmessage", d)
}
