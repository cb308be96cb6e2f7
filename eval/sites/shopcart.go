package sites

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The shop's cart: adding, updating and removing lines, the promo code, the
// totals, and the cart page.

// localPath returns ret when it is a path on this site, else def.
func localPath(ret, def string) string {
	u, err := url.Parse(ret)
	if ret == "" || err != nil || u.IsAbs() || u.Host != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(ret, "//") {
		return def
	}
	return ret
}

func parseQty(s string, min int) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < min || n > 99 {
		return 0, false
	}
	return n, true
}

func (s *Shop) add(w http.ResponseWriter, r *http.Request) {
	p, ok := shopProduct(r.FormValue("slug"))
	if !ok {
		http.Error(w, "no such product", http.StatusBadRequest)
		return
	}
	qs := r.FormValue("qty")
	if qs == "" {
		qs = "1"
	}
	ret := localPath(r.FormValue("return"), "/cart")
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := parseQty(qs, 1)
	if !ok {
		s.flash = "Quantity must be a whole number from 1 to 99."
		http.Redirect(w, r, ret, http.StatusSeeOther)
		return
	}
	found := false
	for i := range s.cart {
		if s.cart[i].Slug == p.Slug {
			s.cart[i].Quantity = min(99, s.cart[i].Quantity+n)
			s.cart[i].TotalCents = s.cart[i].Quantity * s.cart[i].UnitCents
			found = true
		}
	}
	if !found {
		s.cart = append(s.cart, CartLine{Slug: p.Slug, Name: p.Name, Quantity: n, UnitCents: p.PriceCents, TotalCents: n * p.PriceCents})
	}
	if n == 1 {
		s.flash = fmt.Sprintf("Added %s to your cart.", p.Name)
	} else {
		s.flash = fmt.Sprintf("Added %d × %s to your cart.", n, p.Name)
	}
	http.Redirect(w, r, ret, http.StatusSeeOther)
}

func (s *Shop) update(w http.ResponseWriter, r *http.Request) {
	slug := r.FormValue("slug")
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := parseQty(r.FormValue("qty"), 0)
	if !ok {
		s.flash = "Quantity must be a whole number from 0 to 99."
		http.Redirect(w, r, "/cart", http.StatusSeeOther)
		return
	}
	for i := range s.cart {
		if s.cart[i].Slug != slug {
			continue
		}
		if n == 0 {
			s.flash = fmt.Sprintf("Removed %s from your cart.", s.cart[i].Name)
			s.cart = append(s.cart[:i], s.cart[i+1:]...)
		} else {
			s.cart[i].Quantity = n
			s.cart[i].TotalCents = n * s.cart[i].UnitCents
			s.flash = fmt.Sprintf("Updated the quantity of %s to %d.", s.cart[i].Name, n)
		}
		break
	}
	http.Redirect(w, r, "/cart", http.StatusSeeOther)
}

func (s *Shop) remove(w http.ResponseWriter, r *http.Request) {
	slug := r.FormValue("slug")
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.cart {
		if s.cart[i].Slug == slug {
			s.flash = fmt.Sprintf("Removed %s from your cart.", s.cart[i].Name)
			s.cart = append(s.cart[:i], s.cart[i+1:]...)
			break
		}
	}
	http.Redirect(w, r, "/cart", http.StatusSeeOther)
}

func (s *Shop) applyPromo(w http.ResponseWriter, r *http.Request) {
	code := strings.ToUpper(strings.TrimSpace(r.FormValue("code")))
	s.mu.Lock()
	defer s.mu.Unlock()
	if code == ShopPromoCode {
		s.promo = code
		s.flash = "Promo code " + code + " applied."
	} else {
		s.flash = fmt.Sprintf("The promo code %q is not valid.", r.FormValue("code"))
	}
	http.Redirect(w, r, "/cart", http.StatusSeeOther)
}

// totals returns subtotal and discount; the caller holds s.mu.
func (s *Shop) totals() (sub, discount int) {
	for _, l := range s.cart {
		sub += l.TotalCents
	}
	if s.promo != "" {
		discount = (sub + 5) / 10
	}
	return sub, discount
}

func (s *Shop) showCart(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	d := s.base("Cart")
	sub, disc := s.totals()
	d["Lines"], d["Subtotal"], d["Discount"], d["Promo"] = append([]CartLine(nil), s.cart...), sub, disc, s.promo
	s.mu.Unlock()
	render(w, 0, shopTmpl(), "cart", d)
}
