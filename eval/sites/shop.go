package sites

import (
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Product is one article of the shop's catalogue.
type Product struct {
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Category    string `json:"category"`
	Colour      string `json:"colour"`
	PriceCents  int    `json:"price_cents"`
	Description string `json:"description"`
}

// Price is the product's price as shown, "$12.00".
func (p Product) Price() string { return money(p.PriceCents) }

// CartLine is one product in the cart or in an order.
type CartLine struct {
	Slug       string `json:"slug"`
	Name       string `json:"name"`
	Quantity   int    `json:"quantity"`
	UnitCents  int    `json:"unit_cents"`
	TotalCents int    `json:"total_cents"`
}

// Order is an order placed at checkout.
type Order struct {
	Number        string     `json:"number"`
	Name          string     `json:"name"`
	Email         string     `json:"email"`
	Address       string     `json:"address"`
	City          string     `json:"city"`
	Postcode      string     `json:"postcode"`
	Shipping      string     `json:"shipping"` // standard, express or pickup
	GiftWrap      bool       `json:"gift_wrap"`
	Promo         string     `json:"promo,omitempty"`
	Items         []CartLine `json:"items"`
	SubtotalCents int        `json:"subtotal_cents"`
	DiscountCents int        `json:"discount_cents"`
	ShippingCents int        `json:"shipping_cents"`
	GiftWrapCents int        `json:"gift_wrap_cents"`
	TotalCents    int        `json:"total_cents"`
}

var shopCatalogue = []Product{
	{"blue-mug", "Blue mug", "Kitchen", "Blue", 1200, "A 350 ml stoneware mug glazed in deep blue. Dishwasher safe."},
	{"red-mug", "Red mug", "Kitchen", "Red", 1150, "A 350 ml stoneware mug in brick red. Dishwasher safe."},
	{"green-teapot", "Green teapot", "Kitchen", "Green", 3400, "A one-litre cast-iron teapot with a steel infuser."},
	{"steel-kettle", "Steel kettle", "Kitchen", "Silver", 4900, "A 1.7 litre stovetop kettle that whistles when the water boils."},
	{"black-notebook", "Black notebook", "Office", "Black", 899, "A5, 120 dotted pages, lies flat."},
	{"blue-notebook", "Blue notebook", "Office", "Blue", 899, "A5, 120 ruled pages, lies flat."},
	{"desk-lamp", "Desk lamp", "Office", "White", 4500, "An LED lamp with three brightness levels and a USB port."},
	{"fountain-pen", "Fountain pen", "Office", "Black", 2750, "A steel-nib pen that takes standard ink cartridges."},
	{"wool-blanket", "Wool blanket", "Home", "Grey", 7900, "A 150 x 200 cm throw woven from undyed wool."},
	{"linen-cushion", "Linen cushion", "Home", "Beige", 2400, "A 45 cm square cushion with a washable linen cover."},
	{"scented-candle", "Scented candle", "Home", "White", 1600, "Burns for about 40 hours; smells of cedar and orange."},
	{"camping-lantern", "Camping lantern", "Outdoor", "Green", 3900, "A rechargeable lantern that runs 30 hours on its low setting."},
	{"water-bottle", "Water bottle", "Outdoor", "Blue", 1900, "A 750 ml insulated bottle that keeps drinks cold for a day."},
	{"picnic-blanket", "Picnic blanket", "Outdoor", "Red", 2900, "A 2 x 2 m blanket with a waterproof backing and a strap."},
}

// Shop promotions and fees, in cents.
const (
	ShopPromoCode     = "WELCOME10" // 10% off the subtotal
	shopExpressCents  = 999
	shopGiftWrapCents = 400
)

// Shop is a small online store: a catalogue with search, filters and sort,
// product pages, a cart, a checkout form validated on the server, and order
// confirmations. It has one shopper: the cart is the site's.
type Shop struct {
	mux *http.ServeMux

	mu     sync.Mutex
	cart   []CartLine
	promo  string
	orders []Order
	flash  string
	next   int
}

// NewShop returns a shop with the fixed catalogue and no orders.
func NewShop() *Shop {
	s := &Shop{}
	s.Reset()
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/products", http.StatusSeeOther)
	})
	m.HandleFunc("GET /products", s.list)
	m.HandleFunc("GET /products/{slug}", s.product)
	m.HandleFunc("GET /cart", s.showCart)
	m.HandleFunc("POST /cart/add", s.add)
	m.HandleFunc("POST /cart/update", s.update)
	m.HandleFunc("POST /cart/remove", s.remove)
	m.HandleFunc("POST /cart/promo", s.applyPromo)
	m.HandleFunc("GET /checkout", s.checkoutForm)
	m.HandleFunc("POST /checkout", s.checkout)
	m.HandleFunc("GET /orders", s.listOrders)
	m.HandleFunc("GET /orders/{number}", s.order)
	s.mux = m
	return s
}

// Reset empties the cart and forgets every order.
func (s *Shop) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cart, s.orders, s.promo, s.flash, s.next = nil, nil, "", "", 1001
}

func (s *Shop) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Orders returns a copy of the orders placed, oldest first.
func (s *Shop) Orders() []Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Order, len(s.orders))
	for i, o := range s.orders {
		o.Items = append([]CartLine(nil), o.Items...)
		out[i] = o
	}
	return out
}

// Cart returns a copy of the cart's lines.
func (s *Shop) Cart() []CartLine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]CartLine(nil), s.cart...)
}

// State is {"orders": [Order...], "cart": [CartLine...], "promo": code}.
func (s *Shop) State() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	orders, cart := s.orders, s.cart
	if orders == nil {
		orders = []Order{}
	}
	if cart == nil {
		cart = []CartLine{}
	}
	return stateOf(map[string]any{"orders": orders, "cart": cart, "promo": s.promo})
}

func shopProduct(slug string) (Product, bool) {
	for _, p := range shopCatalogue {
		if p.Slug == slug {
			return p, true
		}
	}
	return Product{}, false
}

func optionsOf(field func(Product) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range shopCatalogue {
		if v := field(p); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

var shopTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("shop").Funcs(template.FuncMap{"money": money}).Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} - Northwind Store</title>
<style>` + baseCSS + `
.products{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(14em,1fr));gap:1em}
.product{background:#fff;border:1px solid #ddd;padding:.8em}.product h2{font-size:1.05em;margin:.2em 0}
.price{font-weight:bold}.filters{display:flex;flex-wrap:wrap;gap:.6em;align-items:end}
.filters div{display:flex;flex-direction:column}.banner{background:#ffd;padding:.4em .8em;border:1px solid #dd9}</style></head>
<body><header><h1><a href="/products">Northwind Store</a></h1>
<nav aria-label="Main"><a href="/products">Products</a><a href="/cart">Cart</a><span id="cart-count">({{.CartCount}} {{if eq .CartCount 1}}item{{else}}items{{end}})</span><a href="/orders">Orders</a></nav></header>
<main>{{if .Flash}}<p class="notice" role="status">{{.Flash}}</p>{{end}}{{end}}

{{define "foot"}}</main><footer><p>Northwind Store, 1 Harbour Road. Prices include tax.</p></footer></body></html>{{end}}

{{define "list"}}{{template "head" .}}
<p class="banner">New here? Use the promo code <strong>WELCOME10</strong> in your cart for 10% off.</p>
<h1>Products</h1>
<form method="get" action="/products" class="filters" role="search">
<div><label for="q">Search products</label><input type="search" id="q" name="q" value="{{.Q}}"></div>
<div><label for="category">Category</label><select id="category" name="category"><option value="">All categories</option>
{{range .Categories}}<option{{if eq . $.Category}} selected{{end}}>{{.}}</option>{{end}}</select></div>
<div><label for="colour">Colour</label><select id="colour" name="colour"><option value="">Any colour</option>
{{range .Colours}}<option{{if eq . $.Colour}} selected{{end}}>{{.}}</option>{{end}}</select></div>
<div><label for="max_price">Max price ($)</label><input type="text" inputmode="decimal" id="max_price" name="max_price" value="{{.MaxPrice}}" size="6"></div>
<div><label for="sort">Sort by</label><select id="sort" name="sort">
<option value=""{{if eq .Sort ""}} selected{{end}}>Featured</option>
<option value="price_asc"{{if eq .Sort "price_asc"}} selected{{end}}>Price: low to high</option>
<option value="price_desc"{{if eq .Sort "price_desc"}} selected{{end}}>Price: high to low</option>
<option value="name"{{if eq .Sort "name"}} selected{{end}}>Name</option></select></div>
<div><button type="submit">Search</button></div>
</form>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
<p id="count">{{len .Products}} {{if eq (len .Products) 1}}product{{else}}products{{end}}</p>
{{if .Products}}<ul class="products">
{{range .Products}}<li class="product" data-slug="{{.Slug}}"><h2><a href="/products/{{.Slug}}">{{.Name}}</a></h2>
<p class="price">{{.Price}}</p><p>{{.Colour}} · {{.Category}}</p>
<form method="post" action="/cart/add"><input type="hidden" name="slug" value="{{.Slug}}"><input type="hidden" name="qty" value="1"><input type="hidden" name="return" value="{{$.Return}}">
<button type="submit">Add to cart</button></form></li>
{{end}}</ul>{{else}}<p>No products match your search.</p>{{end}}
{{template "foot" .}}{{end}}

{{define "product"}}{{template "head" .}}
<p><a href="/products">Back to all products</a></p>
<article><h1>{{.Product.Name}}</h1>
<p class="price" id="price">{{.Product.Price}}</p>
<p>Colour: {{.Product.Colour}}. Category: {{.Product.Category}}.</p>
<p>{{.Product.Description}}</p>
<form method="post" action="/cart/add"><input type="hidden" name="slug" value="{{.Product.Slug}}"><input type="hidden" name="return" value="{{.Return}}">
<div class="field"><label for="qty">Quantity</label><input type="number" id="qty" name="qty" value="1" min="1" max="99"></div>
<button type="submit">Add to cart</button></form></article>
{{template "foot" .}}{{end}}

{{define "cart"}}{{template "head" .}}
<h1>Your cart</h1>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
{{if .Lines}}<table><thead><tr><th>Product</th><th>Price</th><th>Quantity</th><th>Total</th><th>Actions</th></tr></thead><tbody>
{{range .Lines}}<tr data-slug="{{.Slug}}"><td><a href="/products/{{.Slug}}">{{.Name}}</a></td><td>{{money .UnitCents}}</td>
<td><form method="post" action="/cart/update"><input type="hidden" name="slug" value="{{.Slug}}">
<input type="number" id="qty-{{.Slug}}" aria-label="Quantity" name="qty" value="{{.Quantity}}" min="0" max="99" size="3">
<button type="submit">Update</button></form></td>
<td>{{money .TotalCents}}</td>
<td><form method="post" action="/cart/remove"><input type="hidden" name="slug" value="{{.Slug}}"><button type="submit">Remove</button></form></td></tr>
{{end}}</tbody></table>
<p>Subtotal: <strong id="subtotal">{{money .Subtotal}}</strong></p>
{{if .Promo}}<p id="promo">Promo code {{.Promo}} applied: 10% off ({{money .Discount}}).</p>{{else}}
<form method="post" action="/cart/promo"><label for="promo-code">Promo code</label><input type="text" id="promo-code" name="code"><button type="submit">Apply</button></form>{{end}}
<p><a href="/checkout">Proceed to checkout</a></p>
{{else}}<p>Your cart is empty.</p><p><a href="/products">Continue shopping</a></p>{{end}}
{{template "foot" .}}{{end}}

{{define "checkout"}}{{template "head" .}}
<h1>Checkout</h1>
{{if not .Lines}}<p>Your cart is empty, so there is nothing to check out.</p><p><a href="/products">Continue shopping</a></p>{{else}}
<table><thead><tr><th>Product</th><th>Quantity</th><th>Total</th></tr></thead><tbody>
{{range .Lines}}<tr><td>{{.Name}}</td><td>{{.Quantity}}</td><td>{{money .TotalCents}}</td></tr>{{end}}
</tbody></table>
<p>Subtotal: {{money .Subtotal}}{{if .Promo}}, less {{money .Discount}} with {{.Promo}}{{end}}.</p>
{{if .Errors}}<div class="error" role="alert"><p>Please correct {{len .Errors}} {{if eq (len .Errors) 1}}error{{else}}errors{{end}} below.</p></div>{{end}}
<form method="post" action="/checkout" novalidate>
<div class="field"><label for="name">Full name</label><input type="text" id="name" name="name" value="{{.F.name}}" autocomplete="name">
{{with .Errors.name}}<p class="error" id="name-error">{{.}}</p>{{end}}</div>
<div class="field"><label for="email">Email</label><input type="email" id="email" name="email" value="{{.F.email}}" autocomplete="email">
{{with .Errors.email}}<p class="error" id="email-error">{{.}}</p>{{end}}</div>
<div class="field"><label for="address">Street address</label><input type="text" id="address" name="address" value="{{.F.address}}">
{{with .Errors.address}}<p class="error" id="address-error">{{.}}</p>{{end}}</div>
<div class="field"><label for="city">City</label><input type="text" id="city" name="city" value="{{.F.city}}">
{{with .Errors.city}}<p class="error" id="city-error">{{.}}</p>{{end}}</div>
<div class="field"><label for="postcode">Postcode</label><input type="text" id="postcode" name="postcode" value="{{.F.postcode}}" size="6">
{{with .Errors.postcode}}<p class="error" id="postcode-error">{{.}}</p>{{end}}</div>
<div class="field"><label for="shipping">Shipping</label><select id="shipping" name="shipping">
<option value="standard"{{if eq .F.shipping "standard"}} selected{{end}}>Standard</option>
<option value="express"{{if eq .F.shipping "express"}} selected{{end}}>Express</option>
<option value="pickup"{{if eq .F.shipping "pickup"}} selected{{end}}>Store pickup</option></select>
<p>Standard delivery takes 3 to 5 days and is free. Express arrives the next day for $9.99. Store pickup needs no address.</p>
{{with .Errors.shipping}}<p class="error">{{.}}</p>{{end}}</div>
<div class="field"><input type="checkbox" id="gift" name="gift_wrap" value="yes"{{if .F.gift_wrap}} checked{{end}}><label for="gift">Gift wrap ($4.00)</label></div>
<button type="submit">Place order</button>
</form>{{end}}
{{template "foot" .}}{{end}}

{{define "order"}}{{template "head" .}}
<h1>Thank you for your order!</h1>
<p>Your order number is <strong id="order-number">{{.Order.Number}}</strong>.</p>
<table><thead><tr><th>Product</th><th>Quantity</th><th>Total</th></tr></thead><tbody>
{{range .Order.Items}}<tr><td>{{.Name}}</td><td>{{.Quantity}}</td><td>{{money .TotalCents}}</td></tr>{{end}}</tbody></table>
<p>Shipping: {{.Order.Shipping}} ({{money .Order.ShippingCents}}){{if .Order.GiftWrap}}; gift wrap ({{money .Order.GiftWrapCents}}){{end}}{{if .Order.Promo}}; promo {{.Order.Promo}} (-{{money .Order.DiscountCents}}){{end}}.</p>
<p>Order total: <strong id="order-total">{{money .Order.TotalCents}}</strong></p>
{{if ne .Order.Shipping "pickup"}}<p>Shipping to {{.Order.Name}}, {{.Order.Address}}, {{.Order.City}} {{.Order.Postcode}}.</p>{{else}}<p>Ready for pickup by {{.Order.Name}}.</p>{{end}}
<p><a href="/products">Continue shopping</a></p>
{{template "foot" .}}{{end}}

{{define "orders"}}{{template "head" .}}
<h1>Your orders</h1>
{{if .Orders}}<table><thead><tr><th>Order</th><th>Items</th><th>Total</th></tr></thead><tbody>
{{range .Orders}}<tr><td><a href="/orders/{{.Number}}">{{.Number}}</a></td><td>{{len .Items}}</td><td>{{money .TotalCents}}</td></tr>{{end}}
</tbody></table>{{else}}<p>You have not placed any orders yet.</p>{{end}}
{{template "foot" .}}{{end}}
`))
})

// page data shared by every shop page; the caller holds s.mu.
func (s *Shop) base(title string) map[string]any {
	n := 0
	for _, l := range s.cart {
		n += l.Quantity
	}
	flash := s.flash
	s.flash = ""
	return map[string]any{"Title": title, "CartCount": n, "Flash": flash}
}

func (s *Shop) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	query := strings.TrimSpace(q.Get("q"))
	cat, col, maxs, sortBy := q.Get("category"), q.Get("colour"), strings.TrimSpace(q.Get("max_price")), q.Get("sort")
	var errMsg string
	maxCents := -1
	if maxs != "" {
		f, err := strconv.ParseFloat(strings.TrimPrefix(maxs, "$"), 64)
		if err != nil || f < 0 {
			errMsg = fmt.Sprintf("Max price %q is not a price; write a number such as 25.", maxs)
		} else {
			maxCents = int(f*100 + 0.5)
		}
	}
	var out []Product
	for _, p := range shopCatalogue {
		if query != "" && !strings.Contains(strings.ToLower(p.Name+" "+p.Description+" "+p.Colour+" "+p.Category), strings.ToLower(query)) {
			continue
		}
		if cat != "" && p.Category != cat || col != "" && p.Colour != col || maxCents >= 0 && p.PriceCents > maxCents {
			continue
		}
		out = append(out, p)
	}
	switch sortBy {
	case "price_asc":
		sort.SliceStable(out, func(i, j int) bool { return out[i].PriceCents < out[j].PriceCents })
	case "price_desc":
		sort.SliceStable(out, func(i, j int) bool { return out[i].PriceCents > out[j].PriceCents })
	case "name":
		sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	}
	s.mu.Lock()
	d := s.base("Products")
	s.mu.Unlock()
	d["Q"], d["Category"], d["Colour"], d["MaxPrice"], d["Sort"] = query, cat, col, maxs, sortBy
	d["Categories"] = optionsOf(func(p Product) string { return p.Category })
	d["Colours"] = optionsOf(func(p Product) string { return p.Colour })
	d["Products"], d["Error"], d["Return"] = out, errMsg, r.URL.RequestURI()
	render(w, 0, shopTmpl(), "list", d)
}

func (s *Shop) product(w http.ResponseWriter, r *http.Request) {
	p, ok := shopProduct(r.PathValue("slug"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	d := s.base(p.Name)
	s.mu.Unlock()
	d["Product"], d["Return"] = p, r.URL.RequestURI()
	render(w, 0, shopTmpl(), "product", d)
}
