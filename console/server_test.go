package console_test

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent/webagent/console"
)

// get fetches path of the console with the token tok ("" for none) and
// returns the status and body.
func get(t *testing.T, srv *console.Server, method, path, tok string, header http.Header) (int, string, http.Header) {
	t.Helper()
	u := srv.Base() + path
	if tok != "" {
		u += "?t=" + url.QueryEscape(tok)
	}
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// token is the console's token, from its URL.
func token(t *testing.T, srv *console.Server) string {
	t.Helper()
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	tok := u.Query().Get("t")
	if len(tok) < 22 { // 128 bits, base64url
		t.Fatalf("the console's token %q is shorter than 128 bits", tok)
	}
	return tok
}

// TestConsoleToken: every request for the console's data needs its token:
// none is 401, a wrong one 403, and neither shows a run; the page's own
// script and style hold no data and are served to anyone; a POST from
// another site's page is refused; the token is in no log line; the
// answers carry the live view's security headers.
func TestConsoleToken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	recordTakeover(t, filepath.Join(dir, "bank"))
	var logs bytes.Buffer
	srv := serve(t, console.Config{Dirs: []string{dir}, Replay: func(d string) []string { return []string{"true"} },
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	tok := token(t, srv)
	code, body, _ := get(t, srv, "GET", "/api/runs", tok, nil)
	if code != 200 || !strings.Contains(body, "Sign in to the bank") {
		t.Fatalf("with the token: %d %s", code, body)
	}
	var id string
	if i := strings.Index(body, `"id":"`); i >= 0 {
		id = body[i+6 : i+22]
	}
	wrong := strings.Repeat("A", len(tok))
	for _, p := range []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/api/live"}, {"GET", "/api/runs"}, {"GET", "/api/runs/" + id},
		{"GET", "/api/runs/" + id + "/shots/0"}, {"POST", "/api/runs/" + id + "/replay"}, {"GET", "/api/replays"},
	} {
		if code, body, _ := get(t, srv, p.method, p.path, "", nil); code != http.StatusUnauthorized || strings.Contains(body, "bank") {
			t.Errorf("%s %s without a token: %d %q", p.method, p.path, code, body)
		}
		if code, body, _ := get(t, srv, p.method, p.path, wrong, nil); code != http.StatusForbidden || strings.Contains(body, "bank") {
			t.Errorf("%s %s with a wrong token: %d %q", p.method, p.path, code, body)
		}
	}
	for _, f := range []string{"/static/console.js", "/static/run.js", "/static/console.css"} {
		if code, _, _ := get(t, srv, "GET", f, "", nil); code != 200 {
			t.Errorf("%s: %d", f, code)
		}
	}
	code, _, hd := get(t, srv, "GET", "/", tok, nil)
	if code != 200 {
		t.Errorf("the page with its token: %d", code)
	}
	for k, want := range map[string]string{"X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
		"X-Content-Type-Options": "nosniff"} {
		if hd.Get(k) != want {
			t.Errorf("%s is %q, not %q", k, hd.Get(k), want)
		}
	}
	if csp := hd.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	if code, _, _ := get(t, srv, "POST", "/api/runs/"+id+"/replay", tok, http.Header{"Origin": {"https://evil.example"}}); code != http.StatusForbidden {
		t.Errorf("a replay asked from another site's page: %d", code)
	}
	if strings.Contains(logs.String(), tok) {
		t.Errorf("the token is in the console's log:\n%s", logs.String())
	}
}

// TestConsoleAddress: an address other than loopback without TLS files is
// refused, as a live view's is.
func TestConsoleAddress(t *testing.T) {
	t.Parallel()
	if _, err := console.Start(console.Config{Addr: "0.0.0.0:0"}); !errors.Is(err, console.ErrTLSRequired) {
		t.Errorf("0.0.0.0 without TLS: %v", err)
	}
	if _, err := console.Start(console.Config{Addr: "127.0.0.1:0", CertFile: "c.pem"}); err == nil {
		t.Error("a certificate without its key is accepted")
	}
	srv := serve(t, console.Config{Addr: "localhost:0"})
	if !strings.HasPrefix(srv.URL(), "http://localhost:") {
		t.Errorf("URL %s", srv.URL())
	}
}
