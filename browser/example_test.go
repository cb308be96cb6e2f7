package browser_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
)

func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Shop</title><h1>Cart</h1><button>Check out</button>`)
	}))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: srv.URL}); err != nil {
		log.Fatal(err)
	}
	snap, err := b.Snapshot(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(snap.Title)
	fmt.Println(snap.Text)
	// Output:
	// Shop
	// heading "Cart" [level=1]
	// button "Check out" [ref=e1]
}
