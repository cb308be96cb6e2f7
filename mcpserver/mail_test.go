package mcpserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/inbox"
	"github.com/webagent/webagent/mcpserver"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/imaptest"
	"github.com/webagent/webagent/testfixture/tier"
)

// browser_read_email reads a code a site mailed to a real Dovecot: the
// client sees its placeholder only, and browser_type fills it on the
// site's page.
func TestReadEmail(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	mail := imaptest.Start(t)
	const code = "731904"
	var mu sync.Mutex
	got := ""
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/send":
			if err := mail.DeliverRaw(imaptest.MessageText("Shop <login@shop.test>", "Your code", "Your code is "+code+".")); err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			fmt.Fprint(w, `<title>Code</title><form action="/check"><label>Code <input name="code"></label></form>`)
		case "/check":
			mu.Lock()
			got = r.FormValue("code")
			mu.Unlock()
			fmt.Fprint(w, `<title>Checked</title><h1>checked</h1>`)
		}
	}))
	t.Cleanup(site.Close)
	host, port, _ := strings.Cut(mail.Addr, ":")
	allowed, err := contract.ParseDomainPatterns("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(mcpserver.Config{Policy: contract.NavigationPolicy{Allowed: allowed},
		Inbox: inbox.Config{User: mail.User, Password: mail.Password, Host: host, Port: port, Mailbox: "INBOX", RootCAs: mail.CA.Pool()}})
	t.Cleanup(func() { _ = s.Close() })
	cs, _ := stdio(t, s, nil)
	call(t, cs, "browser_navigate", map[string]any{"url": site.URL + "/send"})
	_, out := call(t, cs, "browser_read_email", map[string]any{"subject": "code"})
	if !strings.Contains(out, "<secret>email_code</secret>") || strings.Contains(out, code) {
		t.Fatalf("browser_read_email said %s", out)
	}
	_, snap := call(t, cs, "browser_snapshot", map[string]any{})
	ref, ok := modelserver.FindRef(snap, "textbox", "Code")
	if !ok {
		t.Fatalf("no Code field in %s", snap)
	}
	_, out = call(t, cs, "browser_type", map[string]any{"ref": ref, "text": "<secret>email_code</secret>", "submit": true})
	if strings.Contains(out, code) {
		t.Errorf("the code shows in %s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	if got != code {
		t.Errorf("the site got %q", got)
	}
}
