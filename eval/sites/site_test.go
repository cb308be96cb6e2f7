package sites

import (
	"net/url"
	"slices"
	"testing"
)

func TestRegistry(t *testing.T) {
	t.Parallel()
	want := []string{"admin", "apps", "bank", "booking", "shop", "webmail", "widgets", "wiki"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, n := range want {
		s, err := New(n)
		if err != nil {
			t.Fatalf("New(%q): %v", n, err)
		}
		if s.State() == nil {
			t.Errorf("%s: State() is nil", n)
		}
		c := serve(t, s)
		if code, _ := c.get("/"); code != 200 {
			t.Errorf("%s: GET / = %d", n, code)
		}
	}
	if _, err := New("nope"); err == nil {
		t.Fatal("New(nope) succeeded")
	}
}

func TestNewIsFresh(t *testing.T) {
	t.Parallel()
	a, _ := New("shop")
	b, _ := New("shop")
	serve(t, a).post("/cart/add", url.Values{"slug": {"blue-mug"}})
	if n := len(b.(*Shop).Cart()); n != 0 {
		t.Fatalf("a second shop shares the first's cart (%d lines)", n)
	}
}

func TestStateIsACopy(t *testing.T) {
	t.Parallel()
	s := NewAdmin()
	st := s.State()
	st["users"].([]any)[0].(map[string]any)["name"] = "Mallory"
	if got := s.Users()[0].Name; got != "Aisha Khan" {
		t.Fatalf("changing State() changed the site: %q", got)
	}
}

func TestBankState(t *testing.T) {
	t.Parallel()
	s, _ := New("bank")
	c := serve(t, s)
	// The test client has no cookie jar, so the redirect lands on sign-in;
	// the login itself is counted.
	c.post("/login", url.Values{"username": {BankUser}, "password": {BankPassword}})
	if got := s.State()["logins"]; got != 1.0 {
		t.Fatalf("logins = %v, want 1", got)
	}
}

func TestMoney(t *testing.T) {
	t.Parallel()
	for cents, want := range map[int]string{0: "$0.00", 5: "$0.05", 1200: "$12.00", 123456: "$1,234.56", 100000000: "$1,000,000.00", -250: "-$2.50"} {
		if got := money(cents); got != want {
			t.Errorf("money(%d) = %q, want %q", cents, got, want)
		}
	}
}
