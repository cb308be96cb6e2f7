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
	"time"

	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/imaptest"
	"github.com/webagent/webagent/testfixture/tier"
)

// webagent run --inbox signs in with a magic link from a real Dovecot;
// the link's token is in no model request, trace file, step line or log.
func TestRunInboxMagicLink(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	mail := imaptest.Start(t)
	const token = "tok9f3a71c2e8d4b6a05"
	var site *httptest.Server
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case r.Method == http.MethodPost:
			if err := mail.DeliverRaw(imaptest.MessageText("Shop <login@shop.test>", "Sign in to Shop", "Sign in: "+site.URL+"/magic?token="+token)); err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			fmt.Fprint(w, "<title>Shop</title><p>Check your email.</p>")
		case r.URL.Path == "/magic" && r.FormValue("token") == token:
			fmt.Fprint(w, "<title>Shop</title><h1>Welcome back</h1>")
		default:
			fmt.Fprint(w, `<title>Shop</title><form method="post"><button>Email me a link</button></form>`)
		}
	}))
	t.Cleanup(site.Close)
	var mu sync.Mutex
	step := 0
	llm, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		mu.Lock()
		defer mu.Unlock()
		step++
		switch step {
		case 1:
			ref, _ := modelserver.FindRef(req.LastUser(), "button", "Email me a link")
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("click", map[string]any{"ref": ref})}}
		case 2:
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("read_email", map[string]any{"subject": "sign in"})}}
		case 3:
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("goto", map[string]any{"url": "<secret>email_link</secret>"})}}
		default:
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "signed in"})}}
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = llm.Close() })
	dir := filepath.Join(t.TempDir(), "trace")
	p := startEnv(t, []string{"WEBAGENT_TEST_INBOX=" + mail.Password}, "run", "--url", site.URL, "--base-url", llm.BaseURL(), "--model", "m",
		"--inbox", "imaps://"+mail.User+"@"+mail.Addr+"/INBOX", "--inbox-ca", mail.CAFile, "--secret", "inbox=env:WEBAGENT_TEST_INBOX",
		"--trace", dir, "--trace-har", "--log-level", "debug", "sign in with the emailed link")
	if code := p.wait(t, 2*time.Minute); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	if !strings.Contains(p.stderr.String(), "email_link") {
		t.Errorf("the step lines do not show the link's placeholder:\n%s", p.stderr.String())
	}
	leaks := map[string]string{"stdout and stderr": p.stdout.String() + p.stderr.String()}
	for _, rec := range llm.Requests() {
		leaks[fmt.Sprintf("model request %d", rec.Index)] = string(rec.Req.Raw)
	}
	_ = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(path)
			leaks[path] = string(b)
		}
		return nil
	})
	if len(leaks) < 4 {
		t.Fatalf("the trace holds nothing: %v", leaks)
	}
	for where, text := range leaks {
		if strings.Contains(text, token) || strings.Contains(text, mail.Password) {
			t.Errorf("%s holds the token or the inbox's password", where)
		}
	}
}
