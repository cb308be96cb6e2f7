package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/webagent/webagent/testfixture/imaptest"
	"github.com/webagent/webagent/testfixture/signin"
	"github.com/webagent/webagent/testfixture/tier"
)

// webagent browser script FILE signs in with one command: the program's
// calls run in the session, the secret filled on its site; a program with
// a syntax error is exit 1 with its line, a missing file exit 2.
func TestBrowserScript(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	members := signin.New()
	site := httptest.NewServer(members)
	t.Cleanup(site.Close)
	s := newBrowserSession(t)
	s.must(t, "open", site.URL+"/", "--allowed-domains", strings.TrimPrefix(site.URL, "http://"), "--secret", "pw@"+site.URL+"="+signin.Password)
	prog := filepath.Join(t.TempDir(), "signin.js")
	if err := os.WriteFile(prog, []byte(`var s = snapshot();
type(s.find({role: "textbox", name: "Username"}).ref, "alice");
type(s.find({role: "textbox", name: "Password"}).ref, "<secret>pw</secret>");
click(s.find({role: "button", name: "Sign in"}).ref);
return snapshot().find({role: "heading"}).name;`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := s.must(t, "script", prog)
	if !strings.Contains(out, `"result":"Welcome, alice"`) || strings.Contains(out, signin.Password) {
		t.Errorf("script said %s", out)
	}
	if logins, _ := members.State(); len(logins) != 1 || logins[0] != "alice" {
		t.Errorf("the site saw the sign-ins %q", logins)
	}
	bad := filepath.Join(t.TempDir(), "bad.js")
	_ = os.WriteFile(bad, []byte("var x = 1;\nvar y = ;"), 0o600)
	if code, _, errOut, _ := s.cmd(t, "script", bad); code != exitFailed || !strings.Contains(errOut, "SCRIPT_SYNTAX_ERROR at line 2") {
		t.Errorf("a syntax error: exit %d: %s", code, errOut)
	}
	if code, _, errOut, _ := s.cmd(t, "script", filepath.Join(t.TempDir(), "none.js")); code != exitUsage || !strings.Contains(errOut, "no such file") {
		t.Errorf("a missing file: exit %d: %s", code, errOut)
	}
	// The sign-in lasts: close saves the session's state when asked.
	state := filepath.Join(t.TempDir(), "state.json")
	s.must(t, "close", "--save-storage-state", state)
	b, err := os.ReadFile(state)
	if err != nil || !strings.Contains(string(b), `"user"`) || !strings.Contains(string(b), "alice") {
		t.Errorf("the saved state (%v): %s", err, b)
	}
}

// webagent browser read-email reads a code a site mailed to a real
// Dovecot: the code is shown as its placeholder, typed by it on the site's
// page, and appears in no output.
func TestBrowserReadEmail(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	mail := imaptest.Start(t)
	const code = "482916"
	var mu sync.Mutex
	signedIn := false
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case r.URL.Path == "/send":
			if err := mail.DeliverRaw(imaptest.MessageText("Shop <login@shop.test>", "Your code", "Your sign-in code is "+code+".")); err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			fmt.Fprint(w, `<title>Code</title><form action="/check"><label>Code <input name="code"></label><button>Check</button></form>`)
		case r.URL.Path == "/check":
			mu.Lock()
			signedIn = r.FormValue("code") == code
			mu.Unlock()
			fmt.Fprintf(w, `<title>Checked</title><h1>%v</h1>`, r.FormValue("code") == code)
		default:
			fmt.Fprint(w, `<title>Shop</title><a href="/send">Email me a code</a>`)
		}
	}))
	t.Cleanup(site.Close)
	s := newBrowserSession(t)
	s.env = append(s.env, "WEBAGENT_TEST_INBOX="+mail.Password)
	s.must(t, "open", site.URL+"/send", "--allowed-domains", strings.TrimPrefix(site.URL, "http://"),
		"--inbox", "imaps://"+mail.User+"@"+mail.Addr+"/INBOX", "--inbox-ca", mail.CAFile, "--secret", "inbox=env:WEBAGENT_TEST_INBOX")
	out := s.must(t, "read-email", "--subject", "code")
	if !strings.Contains(out, "<secret>email_code</secret>") || strings.Contains(out, code) {
		t.Fatalf("read-email said %s", out)
	}
	snap := s.must(t, "snapshot")
	s.must(t, "type", refIn(t, snap, `textbox "Code"`), "<secret>email_code</secret>", "--submit")
	mu.Lock()
	ok := signedIn
	mu.Unlock()
	if !ok {
		t.Error("the site did not get the mailed code")
	}
	if after := s.must(t, "snapshot"); strings.Contains(after, code) {
		t.Errorf("the code shows in a snapshot: %s", after)
	}
}
