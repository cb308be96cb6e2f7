package sites

import (
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Booking is a hotel reservation.
type Booking struct {
	Ref        string `json:"ref"`
	Name       string `json:"name"`
	Email      string `json:"email"`
	Date       string `json:"date"` // arrival, YYYY-MM-DD
	Nights     int    `json:"nights"`
	Guests     int    `json:"guests"`
	Room       string `json:"room"` // standard, deluxe or suite
	Breakfast  bool   `json:"breakfast"`
	Requests   string `json:"requests,omitempty"`
	Status     string `json:"status"` // confirmed or cancelled
	TotalCents int    `json:"total_cents"`
}

type roomType struct {
	Value, Label string
	Sleeps       int
	NightCents   int
}

var bookingRooms = []roomType{
	{"standard", "Standard", 2, 12000},
	{"deluxe", "Deluxe", 3, 18000},
	{"suite", "Suite", 5, 29000},
}

const bookingBreakfastCents = 1500 // per guest per night

// The Suite is fully booked on these nights.
var suiteBookedNights = map[string]bool{"2026-04-10": true, "2026-04-11": true, "2026-04-12": true}

var bookingSeed = []Booking{
	{Ref: "BK-1998", Name: "Lena Fischer", Email: "lena.fischer@example.com", Date: "2026-04-02", Nights: 2, Guests: 2, Room: "deluxe", Status: "confirmed", TotalCents: 36000},
	{Ref: "BK-1999", Name: "Omar Haddad", Email: "omar.haddad@example.com", Date: "2026-05-10", Nights: 3, Guests: 1, Room: "standard", Status: "confirmed", TotalCents: 36000},
}

// BookingSite is a hotel's booking site: room descriptions, a booking form
// validated on the server with errors shown next to the fields, a list of
// bookings, and cancellation with a confirmation step.
type BookingSite struct {
	mux *http.ServeMux

	mu       sync.Mutex
	bookings []Booking
	next     int
	flash    string
}

// NewBooking returns the booking site with two existing bookings.
func NewBooking() *BookingSite {
	b := &BookingSite{}
	b.Reset()
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", b.home)
	m.HandleFunc("GET /book", b.form)
	m.HandleFunc("POST /book", b.book)
	m.HandleFunc("GET /terms", b.terms)
	m.HandleFunc("GET /bookings", b.list)
	m.HandleFunc("GET /bookings/{ref}", b.show)
	m.HandleFunc("GET /bookings/{ref}/cancel", b.cancelForm)
	m.HandleFunc("POST /bookings/{ref}/cancel", b.cancel)
	b.mux = m
	return b
}

// Reset restores the two seeded bookings.
func (b *BookingSite) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bookings = append([]Booking(nil), bookingSeed...)
	b.next, b.flash = 2001, ""
}

func (b *BookingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) { b.mux.ServeHTTP(w, r) }

// Bookings returns a copy of every booking, the seeded ones first.
func (b *BookingSite) Bookings() []Booking {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Booking(nil), b.bookings...)
}

// State is {"bookings": [Booking...]}, the seeded bookings first.
func (b *BookingSite) State() map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	return stateOf(map[string]any{"bookings": b.bookings})
}

var bookingTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("booking").Funcs(template.FuncMap{"money": money}).Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} - Seaview Hotel</title>
<style>` + baseCSS + `
fieldset{border:1px solid #ccc;margin:.6em 0}.hint{color:#666;font-size:.9em;margin:.2em 0}
input[aria-invalid=true],select[aria-invalid=true]{border:2px solid #a00}</style></head>
<body><header><h1><a href="/">Seaview Hotel</a></h1><nav aria-label="Main"><a href="/book">Book a room</a><a href="/bookings">My bookings</a></nav></header>
<main>{{if .Flash}}<p class="notice" role="status">{{.Flash}}</p>{{end}}{{end}}

{{define "foot"}}</main><footer><p>Seaview Hotel, 8 Shore Lane. Check-in from 3 pm.</p></footer></body></html>{{end}}

{{define "home"}}{{template "head" .}}
<h1>Rooms</h1>
<table><thead><tr><th>Room</th><th>Sleeps</th><th>Price per night</th></tr></thead><tbody>
{{range .Rooms}}<tr><td>{{.Label}}</td><td>{{.Sleeps}}</td><td>{{money .NightCents}}</td></tr>{{end}}
</tbody></table>
<p>Breakfast costs {{money .Breakfast}} per guest per night. We take bookings for arrival dates from March 1 to December 31, 2026.</p>
<p><a href="/book">Book a room</a></p>
{{template "foot" .}}{{end}}

{{define "form"}}{{template "head" .}}
<h1>Book a room</h1>
{{if .Errors}}<div class="error" role="alert">Your booking was not made: please fix the {{len .Errors}} {{if eq (len .Errors) 1}}problem{{else}}problems{{end}} below.</div>{{end}}
<form method="post" action="/book" novalidate>
<div class="field"><label for="name">Full name</label><input type="text" id="name" name="name" value="{{.F.name}}"{{if .Errors.name}} aria-invalid="true" aria-describedby="name-error"{{end}}>
{{with .Errors.name}}<p class="error" id="name-error">{{.}}</p>{{end}}</div>
<div class="field"><label for="email">Email</label><input type="email" id="email" name="email" value="{{.F.email}}"{{if .Errors.email}} aria-invalid="true" aria-describedby="email-error"{{end}}>
{{with .Errors.email}}<p class="error" id="email-error">{{.}}</p>{{end}}</div>
<div class="field"><label for="date">Arrival date</label><input type="text" id="date" name="date" value="{{.F.date}}" placeholder="YYYY-MM-DD" aria-describedby="date-hint"{{if .Errors.date}} aria-invalid="true"{{end}}>
<p class="hint" id="date-hint">Write the date as YYYY-MM-DD, for example 2026-06-01.</p>
{{with .Errors.date}}<p class="error" id="date-error">{{.}}</p>{{end}}</div>
<div class="field"><label for="nights">Nights</label><select id="nights" name="nights">{{range .NightOptions}}<option{{if eq (print .) $.F.nights}} selected{{end}}>{{.}}</option>{{end}}</select>
{{with .Errors.nights}}<p class="error">{{.}}</p>{{end}}</div>
<div class="field"><label for="guests">Guests</label><select id="guests" name="guests">{{range .GuestOptions}}<option{{if eq (print .) $.F.guests}} selected{{end}}>{{.}}</option>{{end}}</select>
{{with .Errors.guests}}<p class="error" id="guests-error">{{.}}</p>{{end}}</div>
<fieldset><legend>Room type</legend>
{{range .Rooms}}<div><input type="radio" id="room-{{.Value}}" name="room" value="{{.Value}}"{{if eq .Value $.F.room}} checked{{end}}><label for="room-{{.Value}}">{{.Label}}</label> <span class="hint">sleeps {{.Sleeps}}, {{money .NightCents}} a night</span></div>{{end}}
{{with .Errors.room}}<p class="error" id="room-error">{{.}}</p>{{end}}</fieldset>
<div class="field"><input type="checkbox" id="breakfast" name="breakfast" value="yes"{{if .F.breakfast}} checked{{end}}><label for="breakfast">Add breakfast</label></div>
<div class="field"><label for="requests">Special requests</label><textarea id="requests" name="requests">{{.F.requests}}</textarea></div>
<div class="field"><input type="checkbox" id="terms" name="terms" value="yes"{{if .F.terms}} checked{{end}}><label for="terms">I accept the booking terms</label> (<a href="/terms">read the terms</a>)
{{with .Errors.terms}}<p class="error" id="terms-error">{{.}}</p>{{end}}</div>
<button type="submit">Book now</button>
</form>
{{template "foot" .}}{{end}}

{{define "terms"}}{{template "head" .}}
<h1>Booking terms</h1><ol><li>Free cancellation up to 48 hours before arrival.</li><li>Later cancellations are charged one night.</li><li>Pets are welcome in Standard rooms only.</li></ol>
<p><a href="/book">Back to the booking form</a></p>
{{template "foot" .}}{{end}}

{{define "list"}}{{template "head" .}}
<h1>My bookings</h1>
<table><thead><tr><th>Reference</th><th>Guest</th><th>Arrival</th><th>Room</th><th>Status</th><th>Actions</th></tr></thead><tbody>
{{range .Bookings}}<tr><td>{{.Ref}}</td><td>{{.Name}}</td><td>{{.Date}}</td><td>{{.Room}}</td><td>{{.Status}}</td>
<td><a href="/bookings/{{.Ref}}">View</a>{{if eq .Status "confirmed"}} <a href="/bookings/{{.Ref}}/cancel">Cancel</a>{{end}}</td></tr>{{end}}
</tbody></table>
{{template "foot" .}}{{end}}

{{define "show"}}{{template "head" .}}
{{with .Booking}}<h1>Booking {{.Ref}}</h1>
{{if eq .Status "confirmed"}}<p>Your booking is confirmed. Your booking reference is <strong id="ref">{{.Ref}}</strong>.</p>{{else}}<p>This booking was cancelled.</p>{{end}}
<dl><dt>Guest</dt><dd>{{.Name}} ({{.Email}})</dd><dt>Arrival</dt><dd>{{.Date}}</dd><dt>Nights</dt><dd>{{.Nights}}</dd>
<dt>Guests</dt><dd>{{.Guests}}</dd><dt>Room</dt><dd>{{.Room}}</dd><dt>Breakfast</dt><dd>{{if .Breakfast}}yes{{else}}no{{end}}</dd>
<dt>Total</dt><dd id="total">{{money .TotalCents}}</dd></dl>{{end}}
<p><a href="/bookings">All bookings</a></p>
{{template "foot" .}}{{end}}

{{define "cancel"}}{{template "head" .}}
<h1>Cancel booking {{.Booking.Ref}}?</h1>
<p>{{.Booking.Name}}, arriving {{.Booking.Date}}, {{.Booking.Nights}} nights in a {{.Booking.Room}} room.</p>
<form method="post" action="/bookings/{{.Booking.Ref}}/cancel"><button type="submit">Yes, cancel this booking</button></form>
<p><a href="/bookings">No, keep it</a></p>
{{template "foot" .}}{{end}}
`))
})

func (b *BookingSite) base(title string) map[string]any {
	f := b.flash
	b.flash = ""
	return map[string]any{"Title": title, "Flash": f, "Rooms": bookingRooms, "Breakfast": bookingBreakfastCents}
}

func (b *BookingSite) home(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	d := b.base("Rooms")
	b.mu.Unlock()
	render(w, 0, bookingTmpl(), "home", d)
}

func (b *BookingSite) formData(f map[string]string, errs map[string]string) map[string]any {
	d := b.base("Book a room")
	d["F"], d["Errors"] = f, errs
	d["NightOptions"] = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
	d["GuestOptions"] = []int{1, 2, 3, 4, 5, 6}
	return d
}

func (b *BookingSite) form(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	d := b.formData(map[string]string{"nights": "1", "guests": "1"}, nil)
	b.mu.Unlock()
	render(w, 0, bookingTmpl(), "form", d)
}

func (b *BookingSite) terms(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	d := b.base("Booking terms")
	b.mu.Unlock()
	render(w, 0, bookingTmpl(), "terms", d)
}

var (
	bookingFirst = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	bookingLast  = time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)
)

// book takes the booking form: it confirms the booking, or shows the form
// again with a message at each field that is wrong.
func (b *BookingSite) book(w http.ResponseWriter, r *http.Request) {
	q := readBookingRequest(r)
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(q.errs) > 0 {
		render(w, http.StatusUnprocessableEntity, bookingTmpl(), "form", b.formData(q.fields, q.errs))
		return
	}
	bk := q.booking(fmt.Sprintf("BK-%d", b.next))
	b.next++
	b.bookings = append(b.bookings, bk)
	b.flash = "Booking confirmed."
	http.Redirect(w, r, "/bookings/"+bk.Ref, http.StatusSeeOther)
}

// bookingRequest is a submitted booking form, read and checked.
type bookingRequest struct {
	fields  map[string]string // the form's fields, trimmed
	arrival time.Time
	nights  int
	guests  int
	room    *roomType
	errs    map[string]string // a message by field; empty when the booking can be made
}

// readBookingRequest reads the booking form of r and checks every field.
func readBookingRequest(r *http.Request) *bookingRequest {
	q := &bookingRequest{fields: map[string]string{}, errs: map[string]string{}}
	for _, k := range []string{"name", "email", "date", "nights", "guests", "room", "breakfast", "requests", "terms"} {
		q.fields[k] = strings.TrimSpace(r.FormValue(k))
	}
	if q.fields["name"] == "" {
		q.errs["name"] = "Enter the guest's full name."
	}
	if !emailRe.MatchString(q.fields["email"]) {
		q.errs["email"] = "Enter a valid email address, like name@example.com."
	}
	q.readStay()
	q.readRoom()
	if q.fields["terms"] == "" {
		q.errs["terms"] = "You must accept the booking terms."
	}
	return q
}

// readStay reads the arrival date, the nights and the guests.
func (q *bookingRequest) readStay() {
	var err error
	q.arrival, err = time.Parse("2006-01-02", q.fields["date"])
	switch {
	case err != nil:
		q.errs["date"] = "Enter the arrival date as YYYY-MM-DD."
	case q.arrival.Before(bookingFirst) || q.arrival.After(bookingLast):
		q.errs["date"] = "We take bookings for arrival dates from 2026-03-01 to 2026-12-31."
	}
	q.nights, err = strconv.Atoi(q.fields["nights"])
	if err != nil || q.nights < 1 || q.nights > 14 {
		q.errs["nights"] = "Choose from 1 to 14 nights."
	}
	q.guests, err = strconv.Atoi(q.fields["guests"])
	if err != nil || q.guests < 1 || q.guests > 6 {
		q.errs["guests"] = "Choose from 1 to 6 guests."
	}
}

// readRoom reads the room type and checks that it sleeps the guests and,
// for the Suite, that it is free on every night of the stay. It runs after
// readStay.
func (q *bookingRequest) readRoom() {
	for i := range bookingRooms {
		if bookingRooms[i].Value == q.fields["room"] {
			q.room = &bookingRooms[i]
		}
	}
	if q.room == nil {
		q.errs["room"] = "Choose a room type."
		return
	}
	if q.errs["guests"] == "" && q.guests > q.room.Sleeps {
		q.errs["guests"] = fmt.Sprintf("A %s room sleeps at most %d guests.", q.room.Label, q.room.Sleeps)
	}
	if q.room.Value == "suite" && q.errs["date"] == "" && q.errs["nights"] == "" {
		if n, booked := suiteBookedNight(q.arrival, q.nights); booked {
			q.errs["room"] = fmt.Sprintf("The Suite is fully booked on the night of %s. Choose another room or date.", n)
		}
	}
}

// suiteBookedNight returns the first night of a stay on which the Suite is
// fully booked, as YYYY-MM-DD.
func suiteBookedNight(arrival time.Time, nights int) (string, bool) {
	for i := 0; i < nights; i++ {
		if n := arrival.AddDate(0, 0, i).Format("2006-01-02"); suiteBookedNights[n] {
			return n, true
		}
	}
	return "", false
}

// booking is the confirmed booking of a request without errors, with its
// total.
func (q *bookingRequest) booking(ref string) Booking {
	f := q.fields
	bk := Booking{
		Ref: ref, Name: f["name"], Email: f["email"], Date: f["date"], Nights: q.nights,
		Guests: q.guests, Room: q.room.Value, Breakfast: f["breakfast"] != "", Requests: f["requests"], Status: "confirmed",
	}
	bk.TotalCents = q.nights * q.room.NightCents
	if bk.Breakfast {
		bk.TotalCents += q.nights * q.guests * bookingBreakfastCents
	}
	return bk
}

func (b *BookingSite) list(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	d := b.base("My bookings")
	d["Bookings"] = append([]Booking(nil), b.bookings...)
	b.mu.Unlock()
	render(w, 0, bookingTmpl(), "list", d)
}

// lookup returns the index of the booking with ref; the caller holds b.mu.
func (b *BookingSite) lookup(ref string) int {
	for i, x := range b.bookings {
		if x.Ref == ref {
			return i
		}
	}
	return -1
}

func (b *BookingSite) show(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	i := b.lookup(r.PathValue("ref"))
	if i < 0 {
		b.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	d := b.base("Booking " + b.bookings[i].Ref)
	d["Booking"] = b.bookings[i]
	b.mu.Unlock()
	render(w, 0, bookingTmpl(), "show", d)
}

func (b *BookingSite) cancelForm(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	i := b.lookup(r.PathValue("ref"))
	if i < 0 || b.bookings[i].Status != "confirmed" {
		b.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	d := b.base("Cancel booking")
	d["Booking"] = b.bookings[i]
	b.mu.Unlock()
	render(w, 0, bookingTmpl(), "cancel", d)
}

func (b *BookingSite) cancel(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.lookup(r.PathValue("ref"))
	if i < 0 {
		http.NotFound(w, r)
		return
	}
	b.bookings[i].Status = "cancelled"
	b.flash = fmt.Sprintf("Booking %s was cancelled.", b.bookings[i].Ref)
	http.Redirect(w, r, "/bookings", http.StatusSeeOther)
}
