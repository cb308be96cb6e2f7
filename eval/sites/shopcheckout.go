package sites

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// The shop's checkout, validated on the server, and the orders it places.

func (s *Shop) checkoutData(title string) map[string]any {
	d := s.base(title)
	sub, disc := s.totals()
	d["Lines"], d["Subtotal"], d["Discount"], d["Promo"] = append([]CartLine(nil), s.cart...), sub, disc, s.promo
	return d
}

func (s *Shop) checkoutForm(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	d := s.checkoutData("Checkout")
	s.mu.Unlock()
	d["F"] = map[string]string{"shipping": "standard"}
	render(w, 0, shopTmpl(), "checkout", d)
}

var (
	postcodeRe = regexp.MustCompile(`^[0-9]{5}$`)
	emailRe    = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

func (s *Shop) checkout(w http.ResponseWriter, r *http.Request) {
	f := map[string]string{}
	for _, k := range []string{"name", "email", "address", "city", "postcode", "shipping", "gift_wrap"} {
		f[k] = strings.TrimSpace(r.FormValue(k))
	}
	errs := map[string]string{}
	if f["name"] == "" {
		errs["name"] = "Enter your full name."
	}
	if !emailRe.MatchString(f["email"]) {
		errs["email"] = "Enter a valid email address, like name@example.com."
	}
	shipCents := 0
	switch f["shipping"] {
	case "standard", "pickup":
	case "express":
		shipCents = shopExpressCents
	default:
		errs["shipping"] = "Choose a shipping option."
	}
	if f["shipping"] != "pickup" {
		if f["address"] == "" {
			errs["address"] = "Enter your street address."
		}
		if f["city"] == "" {
			errs["city"] = "Enter your city."
		}
		if !postcodeRe.MatchString(f["postcode"]) {
			errs["postcode"] = "Postcode must be 5 digits."
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.cart) == 0 {
		s.flash = "Your cart is empty."
		http.Redirect(w, r, "/cart", http.StatusSeeOther)
		return
	}
	if len(errs) > 0 {
		d := s.checkoutData("Checkout")
		d["F"], d["Errors"] = f, errs
		render(w, http.StatusUnprocessableEntity, shopTmpl(), "checkout", d)
		return
	}
	sub, disc := s.totals()
	o := Order{
		Number: fmt.Sprintf("SO-%d", s.next), Name: f["name"], Email: f["email"], Address: f["address"],
		City: f["city"], Postcode: f["postcode"], Shipping: f["shipping"], GiftWrap: f["gift_wrap"] != "",
		Promo: s.promo, Items: s.cart, SubtotalCents: sub, DiscountCents: disc, ShippingCents: shipCents,
	}
	if o.GiftWrap {
		o.GiftWrapCents = shopGiftWrapCents
	}
	o.TotalCents = sub - disc + shipCents + o.GiftWrapCents
	s.next++
	s.orders = append(s.orders, o)
	s.cart, s.promo = nil, ""
	http.Redirect(w, r, "/orders/"+o.Number, http.StatusSeeOther)
}

func (s *Shop) order(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	var o *Order
	for i := range s.orders {
		if s.orders[i].Number == r.PathValue("number") {
			o = &s.orders[i]
		}
	}
	if o == nil {
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	d := s.base("Order " + o.Number)
	d["Order"] = *o
	s.mu.Unlock()
	render(w, 0, shopTmpl(), "order", d)
}

func (s *Shop) listOrders(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	d := s.base("Orders")
	d["Orders"] = append([]Order(nil), s.orders...)
	s.mu.Unlock()
	render(w, 0, shopTmpl(), "orders", d)
}
