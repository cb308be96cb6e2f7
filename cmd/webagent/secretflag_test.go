package main

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/secret"
	"github.com/webagent/webagent/testfixture/tier"
)

// otpSite is a sign-in page whose server accepts the TOTP code of key
// for the period of the request or either side of it, as sites do, and
// echoes the code it accepted.
type otpSite struct {
	*httptest.Server
	mu       sync.Mutex
	accepted []string
	refused  int
}

func newOTPSite(t *testing.T, o *secret.OTP) *otpSite {
	t.Helper()
	s := &otpSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path != "/verify" {
			fmt.Fprint(w, `<title>Sign in</title><form action="/verify"><label>Sign-in code <input name="code" inputmode="numeric"></label><button>Verify</button></form>`)
			return
		}
		code, now := r.FormValue("code"), time.Now()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, t := range []time.Time{now.Add(-o.Period()), now, now.Add(o.Period())} {
			if code != "" && code == o.Code(t) {
				s.accepted = append(s.accepted, code)
				fmt.Fprintf(w, `<title>Welcome</title><p>Signed in with code %s.</p>`, html.EscapeString(code))
				return
			}
		}
		s.refused++
		fmt.Fprint(w, `<title>Sign in</title><p>Wrong code.</p>`)
	}))
	t.Cleanup(s.Close)
	return s
}

// A TOTP-protected sign-in through the CLI: the model types
// <secret>otp</secret>, the browser types the code valid then, and the
// site's server accepts it. The code and the key never reach the model
// server, the result, the log or the trace (HAR included), though the
// code rides in the URL and the page echoes it; the model is told what
// the secret types. Replay signs in again with a fresh code.
func TestOTPSignIn(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	raw := make([]byte, 20)
	if _, err := rand.Read(raw); err != nil {
		t.Fatal(err)
	}
	key := base32.StdEncoding.EncodeToString(raw)
	o, err := secret.ParseOTP("totp:" + key)
	if err != nil {
		t.Fatal(err)
	}
	site := newOTPSite(t, o)
	model, err := modelserver.Start(modelserver.ResponderFunc(func(req *modelserver.ChatRequest) modelserver.Turn {
		obs := req.LastUser()
		if strings.Contains(obs, "Signed in with code <secret>otp</secret>") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("done", map[string]any{"answer": "signed in"})}}
		}
		ref, ok := modelserver.FindRef(obs, "textbox", "Sign-in code")
		if !ok || strings.Contains(obs, "Wrong code") {
			return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("fail", map[string]any{"reason": "not signed in"})}}
		}
		return modelserver.Turn{ToolCalls: []modelserver.Call{modelserver.ToolCall("type", map[string]any{"ref": ref, "text": "<secret>otp</secret>", "submit": true})}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	dir := filepath.Join(t.TempDir(), "trace")

	code, p := run(t, "run", "--url", site.URL+"/", "--base-url", model.BaseURL(), "--model", "m", "--log-level", "debug", "--json",
		"--secret", "otp=totp:"+strings.ToLower(key), "--trace", dir, "--trace-har", "Sign in with the code <secret>otp</secret>")
	if code != exitOK || !strings.Contains(p.stdout.String(), `"signed in"`) {
		t.Fatalf("exit %d, stdout %s\nstderr:\n%s", code, p.stdout.String(), p.stderr.String())
	}
	site.mu.Lock()
	accepted, refused := site.accepted, site.refused
	site.mu.Unlock()
	if len(accepted) != 1 || refused != 0 {
		t.Fatalf("the site accepted %d codes and refused %d, want one accepted", len(accepted), refused)
	}
	leaked := regexp.MustCompile(`(^|[^0-9])` + accepted[0] + `($|[^0-9])|(?i)` + key[:16])
	seen := map[string]string{"stdout": p.stdout.String(), "stderr": p.stderr.String()}
	for _, rec := range model.Requests() {
		seen[fmt.Sprintf("model request %d", rec.Index)] = string(rec.Req.Raw)
	}
	if err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && !strings.HasSuffix(path, ".jpg") {
			b, err := os.ReadFile(path)
			seen[path] = string(b)
			return err
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for where, text := range seen {
		if m := leaked.FindString(text); m != "" {
			t.Errorf("%s holds the code or the key: %q", where, m)
		}
	}
	first := string(model.Requests()[0].Req.Raw)
	if !strings.Contains(first, "otp (types the current sign-in code") || !strings.Contains(first, "a code sent by mail or SMS is not this secret") {
		t.Errorf("the system prompt does not say what otp types:\n%.2000s", first)
	}
	if !strings.Contains(seen[filepath.Join(dir, "trace.har")], "code=\\u003csecret\\u003eotp\\u003c/secret\\u003e") &&
		!strings.Contains(seen[filepath.Join(dir, "trace.har")], "code=<secret>otp</secret>") {
		t.Error("the HAR does not show the masked code in the URL")
	}
	p.noChromeLeft(t)

	// Replay types the code valid when it replays, as hidden as the run's.
	model.Close()
	code, p = run(t, "replay", "--secret", "otp=totp:"+key, dir)
	site.mu.Lock()
	accepted, refused = site.accepted, site.refused
	site.mu.Unlock()
	if code != exitOK || len(accepted) != 2 || refused != 0 {
		t.Fatalf("replay: exit %d, %d codes accepted, %d refused\n%s%s", code, len(accepted), refused, p.stdout.String(), p.stderr.String())
	}
	replayLeak := regexp.MustCompile(`(^|[^0-9])` + accepted[1] + `($|[^0-9])|(?i)` + key[:16])
	if m := replayLeak.FindString(p.stdout.String() + p.stderr.String()); m != "" {
		t.Errorf("replay's output holds the code or the key: %q", m)
	}
	p.noChromeLeft(t)
}

// A malformed generator is exit 2, with one line saying what is wrong and
// how to write it, before anything starts.
func TestOTPSecretMalformed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ value, want string }{
		{"totp:!!!", "--secret otp: the key is not base32: character 1 is not a letter A-Z or a digit 2-7; give the base32 key"},
		{"otpauth://hotp/x?secret=GEZDGNBV&counter=0", "otpauth://hotp (counter-based codes) is not supported"},
		{"otpauth://totp/x?secret=GEZDGNBV&digits=7", "digits=7: a code has 6 or 8 digits; write digits=6 or digits=8"},
	} {
		code, p := run(t, "run", "--url", "https://example.org", "--base-url", "http://127.0.0.1:1/v1", "--model", "m",
			"--secret", "otp="+c.value, "type <secret>otp</secret>")
		msg := p.stderr.String()
		if code != exitUsage || !strings.Contains(msg, c.want) || strings.Count(strings.TrimSpace(msg), "\n") > 0 || p.stdout.Len() > 0 {
			t.Errorf("%s: exit %d, stderr %q, stdout %q", c.value, code, msg, p.stdout.String())
		}
		if strings.Contains(msg, "GEZDGNBV") {
			t.Errorf("%s: the message repeats the key: %s", c.value, msg)
		}
		p.noChromeLeft(t)
	}
}
