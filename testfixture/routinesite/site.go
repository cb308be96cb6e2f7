// Package routinesite is a fixture for the tests of routines (package
// routine): a small back office with a two-page "new customer" form and a
// shop whose orders it records, and a scripted model that does its tasks
// one call a turn, or through the routines it is offered. Its buttons can
// be renamed as a new release of a real site renames them.
package routinesite

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
)

// Password is the password every new customer is given, as a secret.
const Password = "Tr0ub4dor&3"

// Customer is a customer the site created.
type Customer struct{ Name, Email, Plan, Password string }

// Order is an order the site took.
type Order struct {
	Product  string
	Quantity int
	Receipt  bool
}

// Products are the shop's products.
var Products = []string{"Blue mug", "Red mug", "Teapot"}

// Site is the back office: /customers/new (name and email, "Next"),
// /customers/plan (plan and password, "Create customer"), /customers/added;
// /shop, /shop/item, /cart ("Place order"), /orders/N (a receipt box).
type Site struct {
	mu        sync.Mutex
	labels    map[string]string
	customers []Customer
	orders    []Order
	cart      map[string]int
}

// New returns the site with its buttons as first released.
func New() *Site { return &Site{labels: map[string]string{}, cart: map[string]int{}} }

// Rename gives the button first named old the name now.
func (s *Site) Rename(old, now string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.labels[old] = now
}

func (s *Site) label(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.labels[name]; ok {
		return l
	}
	return name
}

// Customers are the customers created, in order.
func (s *Site) Customers() []Customer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.customers)
}

// Orders are the orders taken, in order.
func (s *Site) Orders() []Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.orders)
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	page := func(title, body string) {
		fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title></head><body><nav><a href="/customers/new">New customer</a> <a href="/shop">Shop</a></nav><main>%s</main></body></html>`, title, body)
	}
	esc := html.EscapeString
	_ = r.ParseForm()
	f := r.Form.Get
	switch r.URL.Path {
	case "/customers/new":
		page("New customer", `<h1>New customer</h1><form action="/customers/plan">
<label>Full name <input name="name" required></label>
<label>Email <input name="email" type="email" required></label>
<button>`+esc(s.label("Next"))+`</button></form>`)
	case "/customers/plan":
		page("New customer: plan", `<h1>Plan for `+esc(f("name"))+`</h1><form method="post" action="/customers/create">
<input type="hidden" name="name" value="`+esc(f("name"))+`"><input type="hidden" name="email" value="`+esc(f("email"))+`">
<label>Plan <select name="plan"><option>Basic</option><option>Pro</option><option>Team</option></select></label>
<label>Password <input name="password" type="password" required></label>
<button>`+esc(s.label("Create customer"))+`</button></form>`)
	case "/customers/create":
		if r.Method != http.MethodPost || f("name") == "" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.customers = append(s.customers, Customer{Name: f("name"), Email: f("email"), Plan: f("plan"), Password: f("password")})
		s.mu.Unlock()
		http.Redirect(w, r, "/customers/added?name="+url.QueryEscape(f("name")), http.StatusSeeOther)
	case "/customers/added":
		page("Customer added", `<h1>Customer `+esc(f("name"))+` added</h1><p><a href="/shop">Shop</a></p>`)
	case "/shop":
		body := `<h1>Shop</h1><ul>`
		for _, p := range Products {
			body += `<li><a href="/shop/item?name=` + url.QueryEscape(p) + `">` + esc(p) + `</a></li>`
		}
		page("Shop", body+`</ul>`)
	case "/shop/item":
		page(f("name"), `<h1>`+esc(f("name"))+`</h1><form method="post" action="/cart">
<input type="hidden" name="name" value="`+esc(f("name"))+`"><label>Quantity <input name="qty" value="1"></label>
<button>`+esc(s.label("Add to cart"))+`</button></form>`)
	case "/cart":
		s.cartPage(w, r, page)
	case "/order":
		s.order(w, r)
	case "/receipt":
		n, err := strconv.Atoi(f("order"))
		s.mu.Lock()
		if err == nil && r.Method == http.MethodPost && n >= 1 && n <= len(s.orders) {
			s.orders[n-1].Receipt = f("on") == "true"
		}
		s.mu.Unlock()
	default:
		if n, ok := orderNumber(r.URL.Path); ok {
			s.orderPage(w, r, n, page)
			return
		}
		http.NotFound(w, r)
	}
}

func (s *Site) cartPage(w http.ResponseWriter, r *http.Request, page func(title, body string)) {
	if r.Method == http.MethodPost {
		qty, err := strconv.Atoi(r.Form.Get("qty"))
		if err != nil || qty < 1 {
			http.Error(w, "bad quantity", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.cart = map[string]int{r.Form.Get("name"): qty}
		s.mu.Unlock()
	}
	s.mu.Lock()
	body := `<h1>Cart</h1><ul>`
	for p, q := range s.cart {
		body += fmt.Sprintf(`<li>%d × %s</li>`, q, html.EscapeString(p))
	}
	s.mu.Unlock()
	page("Cart", body+`</ul><form method="post" action="/order"><button>`+html.EscapeString(s.label("Place order"))+`</button></form>`)
}

func (s *Site) order(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	for p, q := range s.cart {
		s.orders = append(s.orders, Order{Product: p, Quantity: q})
	}
	s.cart = map[string]int{}
	n := len(s.orders)
	s.mu.Unlock()
	http.Redirect(w, r, fmt.Sprintf("/orders/%d", n), http.StatusSeeOther)
}

func orderNumber(path string) (int, bool) {
	var n int
	if _, err := fmt.Sscanf(path, "/orders/%d", &n); err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

func (s *Site) orderPage(w http.ResponseWriter, r *http.Request, n int, page func(title, body string)) {
	_ = r
	s.mu.Lock()
	if n > len(s.orders) {
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	o := s.orders[n-1]
	s.mu.Unlock()
	checked := ""
	if o.Receipt {
		checked = " checked"
	}
	page("Order placed", fmt.Sprintf(`<h1>Order #%d placed</h1><p>%d × %s</p>
<label><input type="checkbox" onchange="fetch('/receipt?order=%d&on=' + this.checked, {method: 'POST'})"%s> Email me the receipt</label>`, n, o.Quantity, html.EscapeString(o.Product), n, checked))
}
