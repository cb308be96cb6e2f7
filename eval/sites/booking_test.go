package sites

import (
	"net/url"
	"testing"
)

func bookingForm(mod func(url.Values)) url.Values {
	v := url.Values{"name": {"Ann Lee"}, "email": {"ann@example.com"}, "date": {"2026-06-01"}, "nights": {"2"},
		"guests": {"2"}, "room": {"deluxe"}, "terms": {"yes"}}
	if mod != nil {
		mod(v)
	}
	return v
}

func TestBookingValidation(t *testing.T) {
	t.Parallel()
	b := NewBooking()
	c := serve(t, b)
	_, body := c.get("/book")
	mustContain(t, "form", body, `<label for="date">Arrival date</label>`, `<label for="room-suite">Suite</label>`, `<label for="terms">I accept the booking terms</label>`)
	for _, tc := range []struct {
		name string
		mod  func(url.Values)
		want string
	}{
		{"no name", func(v url.Values) { v.Del("name") }, "Enter the guest&#39;s full name."},
		{"bad email", func(v url.Values) { v.Set("email", "ann@") }, "Enter a valid email address"},
		{"bad date", func(v url.Values) { v.Set("date", "1 June") }, "Enter the arrival date as YYYY-MM-DD."},
		{"past date", func(v url.Values) { v.Set("date", "2025-12-01") }, "from 2026-03-01 to 2026-12-31"},
		{"no room", func(v url.Values) { v.Del("room") }, "Choose a room type."},
		{"too many guests", func(v url.Values) { v.Set("guests", "4") }, "A Deluxe room sleeps at most 3 guests."},
		{"suite booked", func(v url.Values) { v.Set("room", "suite"); v.Set("date", "2026-04-09"); v.Set("nights", "3") }, "The Suite is fully booked on the night of 2026-04-10."},
		{"no terms", func(v url.Values) { v.Del("terms") }, "You must accept the booking terms."},
	} {
		code, _, body := c.post("/book", bookingForm(tc.mod))
		if code != 422 {
			t.Errorf("%s: status %d", tc.name, code)
		}
		mustContain(t, tc.name, body, tc.want, "Your booking was not made", `value="ann`)
	}
	if n := len(b.Bookings()); n != 2 {
		t.Fatalf("invalid forms made bookings: %d", n)
	}
}

func TestBookingBookAndCancel(t *testing.T) {
	t.Parallel()
	b := NewBooking()
	c := serve(t, b)
	_, final, body := c.post("/book", bookingForm(func(v url.Values) { v.Set("breakfast", "yes"); v.Set("requests", "Quiet room") }))
	if final != "/bookings/BK-2001" {
		t.Fatalf("booking went to %s", final)
	}
	// 2 nights × $180 + 2 nights × 2 guests × $15 = $420.
	mustContain(t, "confirmation", body, "Booking confirmed.", `<strong id="ref">BK-2001</strong>`, "$420.00")
	bk := b.Bookings()[2]
	if bk.Ref != "BK-2001" || bk.Room != "deluxe" || bk.Guests != 2 || !bk.Breakfast || bk.TotalCents != 42000 || bk.Requests != "Quiet room" {
		t.Fatalf("booking = %+v", bk)
	}
	_, body = c.get("/bookings")
	mustContain(t, "list", body, "Omar Haddad", "BK-2001", `href="/bookings/BK-1999/cancel"`)
	_, body = c.get("/bookings/BK-1999/cancel")
	mustContain(t, "cancel form", body, "Cancel booking BK-1999?", "Yes, cancel this booking")
	_, _, body = c.post("/bookings/BK-1999/cancel", nil)
	mustContain(t, "after cancel", body, "Booking BK-1999 was cancelled.")
	if st := b.Bookings()[1].Status; st != "cancelled" {
		t.Fatalf("status = %s", st)
	}
	if code, _ := c.get("/bookings/BK-1999/cancel"); code != 404 {
		t.Errorf("cancelling twice: %d", code)
	}
}
