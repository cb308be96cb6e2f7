package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/tier"
)

// runEnv runs the binary like run, with extra environment variables and
// the given stdin, and returns its exit code, stdout and stderr.
func runEnv(t *testing.T, env []string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &stdout, &stderr, strings.NewReader(stdin)
	base := []string{"TMPDIR=" + t.TempDir()}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "OPENAI_API_KEY", "OPENAI_BASE_URL", "WEBAGENT_MODEL", "TMPDIR", "CHROME_PATH":
			continue
		}
		base = append(base, kv)
	}
	cmd.Env = append(base, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("webagent %v did not exit within 2m; stderr:\n%s", args, stderr.String())
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// checkStderr fails unless code is want and stderr has every fragment and
// none of the jargon.
func checkStderr(t *testing.T, code, want int, stderr string, has []string, hasNot ...string) {
	t.Helper()
	if code != want {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, want, stderr)
	}
	for _, w := range has {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	for _, w := range hasNot {
		if strings.Contains(stderr, w) {
			t.Errorf("stderr has %q:\n%s", w, stderr)
		}
	}
}

var chromedpJargon = []string{"websocket", "chromedp", "chrome failed to start", "invalid character"}

func TestBrowserConfigErrors(t *testing.T) {
	t.Parallel()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("<!DOCTYPE html><title>Not here</title>"))
	}))
	defer html.Close()
	cases := []struct {
		name string
		env  []string
		args []string
		want []string
	}{
		{"cdp-url closed port", nil, []string{"demo", "--cdp-url", "http://" + closedAddr(t)}, []string{"nothing answers at http://127.0.0.1:", "--remote-debugging-port"}},
		{"cdp-url not a browser", nil, []string{"demo", "--cdp-url", html.URL}, []string{html.URL + " answers, but it is not a Chromium DevTools endpoint", "--remote-debugging-port"}},
		{"chrome is /bin/true", []string{"CHROME_PATH=/bin/true"}, []string{"demo"}, []string{"/bin/true did not start as a Chromium browser", "CHROME_PATH"}},
		{"eval with no browser at its cdp-url", nil, []string{"eval", "--task", "bank-balance", "--cdp-url", "http://" + closedAddr(t)}, []string{"nothing answers at http://127.0.0.1:"}},
		{"eval with a chrome that is not Chromium", []string{"CHROME_PATH=/bin/true"}, []string{"eval", "--task", "bank-balance"}, []string{"/bin/true is not a Chromium browser", "CHROME_PATH"}},
		{"chrome missing", []string{"CHROME_PATH=/nonexistent/chromium"}, []string{"demo"}, []string{"Chromium not found", "CHROME_PATH"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runEnv(t, c.env, "", c.args...)
			checkStderr(t, code, exitUsage, stderr, c.want, chromedpJargon...)
		})
	}
}

// The model preflight tells apart a missing key, a refused key and a base
// URL without /v1, and gives one hint fitting the server meant.
func TestModelPreflightErrors(t *testing.T) {
	t.Parallel()
	keyed, err := modelserver.Start(modelserver.Script(), modelserver.WithAPIKey("good-key"))
	if err != nil {
		t.Fatal(err)
	}
	defer keyed.Close()
	// A web server that is not an API: /models is a 404 page and a POST
	// is a 501 page, as python3 -m http.server answers.
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html;charset=utf-8")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusNotImplemented)
			_, _ = w.Write([]byte("<!DOCTYPE HTML><html><body><h1>Error response</h1><p>Error code: 501</p></body></html>"))
			return
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("<!DOCTYPE HTML><html><body><h1>Error response</h1><p>Error code: 404</p></body></html>"))
	}))
	defer web.Close()
	task := []string{"--url", "https://example.org", "--model", "m", "task"}
	cases := []struct {
		name    string
		args    []string
		want    []string
		wantNot []string
	}{
		{"no key sent", append([]string{"run", "--base-url", keyed.BaseURL()}, task...),
			[]string{"wants an API key and none was sent", "--api-key"}, []string{"refused"}},
		{"key refused", append([]string{"run", "--base-url", keyed.BaseURL(), "--api-key", "sk-wrong-123"}, task...),
			[]string{"refused the API key that was sent", "401"}, []string{"none was sent", "sk-wrong-123"}},
		{"base url without /v1", append([]string{"run", "--base-url", web.URL}, task...),
			[]string{"did you mean " + web.URL + "/v1?", "501"}, []string{"<html", "<!DOCTYPE"}},
		{"closed local port", append([]string{"run", "--base-url", "http://127.0.0.1:" + portOf(t, closedAddr(t)) + "/v1"}, task...),
			[]string{"cannot reach the model server", "connection refused"}, []string{"ollama"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runEnv(t, nil, "", c.args...)
			checkStderr(t, code, exitUsage, stderr, c.want, c.wantNot...)
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 || stdout != "" {
				t.Errorf("want one line on stderr and nothing on stdout, got stdout %q stderr:\n%s", stdout, stderr)
			}
		})
	}
	if n := len(keyed.Requests()); n != 0 {
		t.Errorf("%d chat requests reached the keyed server", n)
	}
}

func portOf(t *testing.T, addr string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	return port
}

func TestEndpointHint(t *testing.T) {
	t.Parallel()
	for base, want := range map[string]string{
		"http://localhost:11434/v1":   "`ollama serve`",
		"http://127.0.0.1:11434/v1":   "`ollama serve`",
		"https://api.openai.com/v1":   "network and proxy",
		"http://127.0.0.1:8080/v1":    "running on port 8080",
		"https://llm.example.com/api": "check the address in --base-url",
	} {
		got := endpointHint(base)
		if !strings.Contains(got, want) {
			t.Errorf("endpointHint(%s) = %q, want %q in it", base, got, want)
		}
		if strings.Count(got, "ollama") > 1 || (!strings.Contains(base, "11434") && strings.Contains(got, "ollama")) {
			t.Errorf("endpointHint(%s) = %q sends the user to Ollama", base, got)
		}
	}
}

// With one browser of the --cdp-url pool down, eval warns and runs on the
// other.
func TestEvalPoolWithOneBrowserDown(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := browser.StartServer(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	down := "http://" + closedAddr(t)
	code, _, stderr := runEnv(t, nil, "", "eval", "--workers", "1", "--out", t.TempDir(), "--task", "bank-balance", "--cdp-url", srv.URL, "--cdp-url", down)
	checkStderr(t, code, exitOK, stderr, []string{"warning: browser: nothing answers at " + down, "1 of 1 passed"})
}
