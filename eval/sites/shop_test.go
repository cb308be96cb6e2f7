package sites

import (
	"net/url"
	"strings"
	"testing"
)

func TestShopCatalogue(t *testing.T) {
	t.Parallel()
	c := serve(t, NewShop())
	_, body := c.get("/products")
	mustContain(t, "all products", body, "14 products", "Blue mug", "Picnic blanket", "WELCOME10", `<label for="q">Search products</label>`)

	_, body = c.get("/products?q=mug")
	mustContain(t, "search mug", body, "2 products", "Blue mug", "Red mug")
	mustNotContain(t, "search mug", body, "Green teapot")

	_, body = c.get("/products?category=Outdoor&colour=Blue")
	mustContain(t, "outdoor blue", body, "1 product<", "Water bottle")

	_, body = c.get("/products?category=Kitchen&max_price=20")
	mustContain(t, "kitchen under 20", body, "2 products")
	mustNotContain(t, "kitchen under 20", body, "Green teapot", "Steel kettle")

	_, body = c.get("/products?category=Office&sort=price_desc")
	if i, j := strings.Index(body, "Desk lamp"), strings.Index(body, "Black notebook"); i < 0 || j < 0 || i > j {
		t.Errorf("price_desc: Desk lamp should come before Black notebook")
	}
	_, body = c.get("/products?max_price=abc")
	mustContain(t, "bad max price", body, "is not a price")

	code, body := c.get("/products/green-teapot")
	if code != 200 {
		t.Fatalf("product page: %d", code)
	}
	mustContain(t, "product page", body, "<h1>Green teapot</h1>", "$34.00", `<label for="qty">Quantity</label>`)
	if code, _ := c.get("/products/nope"); code != 404 {
		t.Errorf("unknown product: %d", code)
	}
}

func TestShopCartAndCheckout(t *testing.T) {
	t.Parallel()
	s := NewShop()
	c := serve(t, s)
	_, final, body := c.post("/cart/add", url.Values{"slug": {"blue-mug"}, "return": {"/products?q=mug"}})
	if final != "/products?q=mug" {
		t.Errorf("add redirected to %s", final)
	}
	mustContain(t, "after add", body, "Added Blue mug to your cart.", "(1 item)")
	c.post("/cart/add", url.Values{"slug": {"blue-mug"}, "qty": {"2"}, "return": {"https://evil.example/"}})
	c.post("/cart/add", url.Values{"slug": {"black-notebook"}})
	c.post("/cart/add", url.Values{"slug": {"red-mug"}})
	if cart := s.Cart(); len(cart) != 3 || cart[0].Quantity != 3 || cart[0].TotalCents != 3600 {
		t.Fatalf("cart = %+v", cart)
	}
	_, _, body = c.post("/cart/update", url.Values{"slug": {"blue-mug"}, "qty": {"2"}})
	mustContain(t, "update", body, "Updated the quantity of Blue mug to 2.", `aria-label="Quantity"`)
	_, _, body = c.post("/cart/update", url.Values{"slug": {"blue-mug"}, "qty": {"-1"}})
	mustContain(t, "bad update", body, "Quantity must be a whole number")
	c.post("/cart/remove", url.Values{"slug": {"red-mug"}})
	_, _, body = c.post("/cart/promo", url.Values{"code": {"nope"}})
	mustContain(t, "bad promo", body, "is not valid")
	_, _, body = c.post("/cart/promo", url.Values{"code": {"welcome10"}})
	mustContain(t, "promo", body, "Promo code WELCOME10 applied")
	if cart := s.Cart(); len(cart) != 2 || cart[0].Quantity != 2 || cart[1].Slug != "black-notebook" {
		t.Fatalf("cart = %+v", cart)
	}

	// Validation: every error is shown next to its field, values are kept.
	code, _, body := c.post("/checkout", url.Values{"name": {"Ann Lee"}, "email": {"ann"}, "shipping": {"express"}, "postcode": {"12"}})
	if code != 422 {
		t.Errorf("invalid checkout: %d", code)
	}
	mustContain(t, "invalid checkout", body, "Please correct 4 errors below.", "Enter a valid email address", "Enter your street address.",
		"Enter your city.", "Postcode must be 5 digits.", `value="Ann Lee"`, `<option value="express" selected>`)
	if len(s.Orders()) != 0 {
		t.Fatal("an invalid checkout placed an order")
	}

	_, final, body = c.post("/checkout", url.Values{"name": {"Ann Lee"}, "email": {"ann@example.com"}, "address": {"12 Elm Street"},
		"city": {"Springfield"}, "postcode": {"01234"}, "shipping": {"express"}, "gift_wrap": {"yes"}})
	if final != "/orders/SO-1001" {
		t.Fatalf("checkout went to %s", final)
	}
	mustContain(t, "confirmation", body, "Your order number is <strong id=\"order-number\">SO-1001</strong>")
	orders := s.Orders()
	if len(orders) != 1 {
		t.Fatalf("orders = %+v", orders)
	}
	o := orders[0]
	// 2 × 12.00 + 8.99 = 32.99; less 10% (3.30) = 29.69; + 9.99 express + 4.00 wrap = 43.68.
	if o.SubtotalCents != 3299 || o.DiscountCents != 330 || o.TotalCents != 4368 || !o.GiftWrap || o.Shipping != "express" || len(o.Items) != 2 {
		t.Fatalf("order = %+v", o)
	}
	st := s.State()
	if st["orders"].([]any)[0].(map[string]any)["items"].([]any)[0].(map[string]any)["name"] != "Blue mug" {
		t.Errorf("state = %v", st)
	}
	if len(s.Cart()) != 0 {
		t.Error("the cart was not emptied")
	}
	_, _, body = c.post("/checkout", url.Values{"name": {"Ann"}})
	mustContain(t, "empty checkout", body, "Your cart is empty.")
	_, body = c.get("/orders")
	mustContain(t, "orders", body, "SO-1001", "$43.68")

	// Pickup needs no address.
	c.post("/cart/add", url.Values{"slug": {"desk-lamp"}})
	_, final, _ = c.post("/checkout", url.Values{"name": {"Bo"}, "email": {"bo@example.com"}, "shipping": {"pickup"}})
	if final != "/orders/SO-1002" {
		t.Fatalf("pickup checkout went to %s", final)
	}
	s.Reset()
	if len(s.Orders()) != 0 {
		t.Fatal("Reset kept the orders")
	}
}
