package sites

import (
	"strings"
	"testing"
)

// Each app is one document holding its data; nothing in it leaves the
// page (no form posts, no links but the way back to the list of apps).
func TestAppsPages(t *testing.T) {
	t.Parallel()
	c := serve(t, NewApps())
	for path, want := range map[string][]string{
		"/claim":   {"File a car insurance claim", `"number":"MTR-204817"`, "showModal", "/api/claims"},
		"/laptop":  {"Build your laptop", `"name":"Forge 16"`, `"name":"3 years","cents":24900`, "/api/quotes"},
		"/tickets": {"Support inbox", `"subject":"Charged twice for my order"`, `"replies":[]`, `"Billing":["Marco Rossi","Priya Patel"]`},
	} {
		code, body := c.get(path)
		if code != 200 {
			t.Errorf("%s: %d", path, code)
		}
		mustContain(t, path, body, want...)
		mustContain(t, path, body, "async function send(")
		mustNotContain(t, path, body, "/*DATA*/", "<form", "http://", "https://")
		if n := strings.Count(body, "<a href="); n != 1 {
			t.Errorf("%s has %d links; want only the one to the list of apps", path, n)
		}
	}
}

func TestAppsClaim(t *testing.T) {
	t.Parallel()
	a := NewApps()
	c := serve(t, a)
	for body, want := range map[string]int{
		`{"policy":"MTR-999999","kind":"collision","date":"03/11/2026"}`: 422,
		`{"policy":"MTR-204817","kind":"flood","date":"03/11/2026"}`:     422,
		`{"policy":"MTR-204817","kind":"collision","date":"2026-11-03"}`: 422,
		`{"policy":"MTR-204817","kind":"glass","date":"03/11/2026"}`:     422,
		`not json`: 400,
	} {
		if code := c.postJSON("/api/claims", body); code != want {
			t.Errorf("%s: %d, want %d", body, code, want)
		}
	}
	ok := `{"policy":"MTR-550912","kind":"glass","date":"27/11/2026","glass":{"glass":"Windscreen","damage":"crack","where":"mobile","address":"8 Mill Lane","day":"Wednesday 2 December","slot":"Afternoon, 13:00 to 17:00"}}`
	if code := c.postJSON("/api/claims", ok); code != 200 {
		t.Fatalf("a whole claim: %d", code)
	}
	claims, _ := a.State()["claims"].([]any)
	if len(claims) != 1 {
		t.Fatalf("claims = %v", claims)
	}
	cl, _ := claims[0].(map[string]any)
	glass, _ := cl["glass"].(map[string]any)
	if cl["id"] != "CL-1001" || glass["day"] != "Wednesday 2 December" {
		t.Errorf("claim = %v", cl)
	}
}

func TestAppsQuotePrice(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    Quote
		want int
		err  string
	}{
		{Quote{Model: "Forge 16", Processor: "Core i9", Memory: "64 GB", Storage: "2 TB", Colour: "Graphite", Protection: "3 years"}, 334800, ""},
		{Quote{Model: "Aero 13", Processor: "Core i5", Memory: "16 GB", Storage: "512 GB", Colour: "Sky Blue", Protection: "1 year"}, 129800, ""},
		{Quote{Model: "Aero 13", Processor: "Core i5", Memory: "8 GB", Storage: "256 GB", Colour: "Silver"}, 99900, ""},
		{Quote{Model: "Forge 16", Processor: "Core i7", Memory: "64 GB", Storage: "2 TB", Colour: "Graphite"}, 0, "takes 16 GB or 32 GB"},
		{Quote{Model: "Aero 13", Processor: "Core i5", Memory: "8 GB", Storage: "256 GB", Colour: "Graphite"}, 0, "comes in Silver or Sky Blue"},
		{Quote{Model: "Aero 14"}, 0, `no model "Aero 14"`},
	} {
		got, err := c.q.price()
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%+v: %d, %v; want %d", c.q, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%+v: error %v; want %q", c.q, err, c.err)
		}
	}
	a := NewApps()
	c := serve(t, a)
	if code := c.postJSON("/api/quotes", `{"name":"Video team","email":"nope","model":"Forge 16"}`); code != 422 {
		t.Errorf("a bad email: %d", code)
	}
	if code := c.postJSON("/api/quotes", `{"name":"Video team","email":"lee@example.com","model":"Forge 16","processor":"Core i9","memory":"64 GB","storage":"2 TB","colour":"Graphite","protection":"3 years"}`); code != 200 {
		t.Fatalf("a quote: %d", code)
	}
	q, _ := a.State()["quotes"].([]any)
	if len(q) != 1 || q[0].(map[string]any)["total_cents"] != 334800.0 || q[0].(map[string]any)["id"] != "Q-2001" {
		t.Errorf("quotes = %v", q)
	}
}

func TestAppsTicket(t *testing.T) {
	t.Parallel()
	a := NewApps()
	c := serve(t, a)
	for _, s := range []struct {
		body string
		want int
	}{
		{`{"priority":"High","team":"Billing"}`, 200},
		{`{"assignee":"Sam Lee"}`, 422}, // not in Billing
		{`{"assignee":"Priya Patel","reply":"Refunded."}`, 200},
		{`{"reply":"  "}`, 422},
		{`{"priority":"Soon"}`, 422},
		{`{"resolution":"Maybe"}`, 422},
		{`{"resolution":"Resolved"}`, 200},
		{`{"priority":"Low"}`, 422}, // closed
	} {
		if code := c.postJSON("/api/tickets/1042", s.body); code != s.want {
			t.Errorf("%s: %d, want %d", s.body, code, s.want)
		}
	}
	if code := c.postJSON("/api/tickets/9999", `{}`); code != 404 {
		t.Errorf("no such ticket: %d", code)
	}
	tk := a.Tickets()[1]
	if tk.Priority != "High" || tk.Team != "Billing" || tk.Assignee != "Priya Patel" || tk.Status != "Closed" ||
		tk.Resolution != "Resolved" || len(tk.Replies) != 1 || tk.Replies[0] != "Refunded." {
		t.Errorf("ticket = %+v", tk)
	}
	if o := a.Tickets()[0]; o.Status != "Open" || o.Replies == nil {
		t.Errorf("another ticket changed: %+v", o)
	}
	a.Reset()
	if tk := a.Tickets()[1]; tk.Status != "Open" || len(tk.Replies) != 0 {
		t.Errorf("after Reset: %+v", tk)
	}
}
