package sites

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Ticket is a ticket of the help desk's inbox.
type Ticket struct {
	ID         int      `json:"id"`
	Subject    string   `json:"subject"`
	Customer   string   `json:"customer"`
	Message    string   `json:"message"`
	Status     string   `json:"status"` // Open or Closed
	Priority   string   `json:"priority"`
	Team       string   `json:"team"`
	Assignee   string   `json:"assignee"`
	Replies    []string `json:"replies"`
	Resolution string   `json:"resolution"`
}

// appTeams are the help desk's teams and their agents.
var appTeams = map[string][]string{
	"Billing":  {"Marco Rossi", "Priya Patel"},
	"IT":       {"Dana White", "Sam Lee"},
	"Shipping": {"Ken Ito", "Lola Diaz"},
}

var ticketPriorities = []string{"Low", "Normal", "High", "Urgent"}

var ticketResolutions = []string{"Resolved", "Duplicate", "Will not fix"}

func newTicket(id int, subject, customer, message string) Ticket {
	return Ticket{ID: id, Subject: subject, Customer: customer, Message: message, Status: "Open", Priority: "Normal", Replies: []string{}}
}

// appTickets is the inbox as it starts.
var appTickets = []Ticket{
	newTicket(1041, "Cannot sign in after password reset", "Julia Berg", "I reset my password this morning and now the sign-in page says my account is locked."),
	newTicket(1042, "Charged twice for my order", "Omar Haddad", "My card was charged $84.20 twice for order SO-5521. Please refund one of them."),
	newTicket(1043, "Office printer shows paper jam", "Rita Gomez", "The printer by the kitchen says paper jam, but there is no paper stuck in it."),
	newTicket(1044, "Parcel marked delivered but not here", "Hugo Blanc", "Tracking says my parcel was delivered yesterday, but nothing arrived."),
	newTicket(1045, "Invoice address is wrong", "Mei Chen", "The invoice for March shows our old address. Can you send a corrected one?"),
	newTicket(1046, "Refund not received", "Anna Novak", "I returned a kettle two weeks ago and have not had my refund yet."),
	newTicket(1047, "Printer on the third floor prints blank pages", "Tom Fischer", "Every page comes out blank since the toner was changed."),
	newTicket(1048, "Change my delivery date", "Sara Kim", "Could my order arrive on Friday instead of Wednesday?"),
}

// ticketChange is what the inbox sends for a ticket: the fields set.
type ticketChange struct {
	Priority   *string `json:"priority"`
	Team       *string `json:"team"`
	Assignee   *string `json:"assignee"`
	Reply      *string `json:"reply"`
	Resolution *string `json:"resolution"` // closes the ticket
}

// postTicket changes a ticket and answers with it.
func (a *Apps) postTicket(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PathValue("id"))
	var c ticketChange
	if !decode(w, r, &c) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	i := slices.IndexFunc(a.tickets, func(t Ticket) bool { return t.ID == id })
	if i < 0 {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no ticket " + r.PathValue("id")})
		return
	}
	t := a.tickets[i]
	t.Replies = append([]string{}, t.Replies...)
	if msg := applyTicketChange(&t, c); msg != "" {
		writeError(w, msg)
		return
	}
	a.tickets[i] = t
	writeJSON(w, http.StatusOK, t)
}

// applyTicketChange sets c's fields on t, or says what is wrong.
func applyTicketChange(t *Ticket, c ticketChange) string {
	if t.Status == "Closed" {
		return "the ticket is closed"
	}
	if c.Priority != nil {
		if !slices.Contains(ticketPriorities, *c.Priority) {
			return "no priority " + *c.Priority
		}
		t.Priority = *c.Priority
	}
	if c.Team != nil {
		if _, ok := appTeams[*c.Team]; !ok && *c.Team != "" {
			return "no team " + *c.Team
		}
		t.Team, t.Assignee = *c.Team, ""
	}
	if c.Assignee != nil {
		if *c.Assignee != "" && !slices.Contains(appTeams[t.Team], *c.Assignee) {
			return *c.Assignee + " is not in the team " + t.Team
		}
		t.Assignee = *c.Assignee
	}
	if c.Reply != nil {
		reply := strings.TrimSpace(*c.Reply)
		if reply == "" {
			return "write the reply first"
		}
		t.Replies = append(t.Replies, reply)
	}
	if c.Resolution != nil {
		if !slices.Contains(ticketResolutions, *c.Resolution) {
			return "choose a resolution"
		}
		t.Resolution, t.Status = *c.Resolution, "Closed"
	}
	return ""
}
