package inbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/inbox"
	"github.com/webagent/webagent/testfixture/imaptest"
	"github.com/webagent/webagent/testfixture/tier"
)

func config(srv *imaptest.Server) inbox.Config {
	host, port, _ := strings.Cut(srv.Addr, ":")
	return inbox.Config{User: srv.User, Password: srv.Password, Host: host, Port: port, Mailbox: "INBOX", RootCAs: srv.CA.Pool()}
}

func TestWaitNewestMatching(t *testing.T) {
	srv := imaptest.Start(t)
	c := config(srv)
	since := time.Now()
	srv.DeliverBefore(t, since.Add(-time.Hour), "Old <old@shop.test>", "Sign in to Shop", "123456 is an old code")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	m, err := c.Read(ctx, inbox.Query{Since: since})
	if err != nil || m != nil {
		t.Fatalf("Read before any new mail = %v, %v; want nothing", m, err)
	}
	delivered := make(chan error, 1)
	go func() {
		// Delivered while Wait starts or waits: it must see it.
		err := srv.DeliverRaw(imaptest.MessageText("News <news@other.test>", "Weekly news", "nothing to see"))
		if err == nil {
			err = srv.DeliverRaw(imaptest.MessageText("Shop <login@shop.test>", "Sign in to Shop", "Your code is 654321.\nIt expires soon."))
		}
		delivered <- err
	}()
	t0 := time.Now()
	m, err = c.Wait(ctx, inbox.Query{From: "shop.test", Subject: "sign in", Since: since}, 15*time.Second)
	if err != nil || m == nil {
		t.Fatalf("Wait = %v, %v", m, err)
	}
	if !strings.Contains(m.Text, "654321") || m.Subject != "Sign in to Shop" || !strings.Contains(m.From, "login@shop.test") {
		t.Fatalf("message = %+v", m)
	}
	if el := time.Since(t0); el > 10*time.Second {
		t.Fatalf("Wait took %s", el)
	}
	if err := <-delivered; err != nil {
		t.Fatal(err)
	}
	m, err = c.Wait(ctx, inbox.Query{From: "nobody.test", Since: since}, 600*time.Millisecond)
	if err != nil || m != nil {
		t.Fatalf("Wait for a sender who never wrote = %v, %v; want nothing after the wait", m, err)
	}
}

func TestFailuresAreClearAndBounded(t *testing.T) {
	tier.Slow(t)
	srv := imaptest.Start(t)
	ca := srv.CA
	stall := imaptest.Stalling(t)
	other := imaptest.TLSListener(t, ca, "mail.other.test")
	cases := []struct {
		name string
		c    func() inbox.Config
		want string
	}{
		{"wrong password", func() inbox.Config { c := config(srv); c.Password = "not-the-password"; return c }, "refused the sign-in of agent"},
		{"stalling server", func() inbox.Config {
			c := config(srv)
			c.Host, c.Port, _ = strings.Cut(stall, ":")
			return c
		}, "did not answer before the call's time ran out"},
		{"another name", func() inbox.Config {
			c := config(srv)
			c.Host, c.Port, _ = strings.Cut(other, ":")
			return c
		}, "certificate for another name (mail.other.test)"},
		{"unknown authority", func() inbox.Config { c := config(srv); c.RootCAs = nil; return c }, "--inbox-ca"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Dovecot answers a wrong password after its 2 s auth_failure_delay.
			const budget = 4 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			t0 := time.Now()
			c := tc.c()
			_, err := c.Wait(ctx, inbox.Query{}, 10*time.Second)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), c.Password) {
				t.Fatalf("the error shows the password: %v", err)
			}
			if el := time.Since(t0); el > budget+time.Second {
				t.Fatalf("took %s, past the budget %s", el, budget)
			}
		})
	}
}
