package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
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
		{"chrome missing", []string{"CHROME_PATH=/nonexistent/chromium"}, []string{"demo"}, []string{"Chromium not found", "CHROME_PATH"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runEnv(t, c.env, "", c.args...)
			checkStderr(t, code, exitUsage, stderr, c.want, chromedpJargon...)
		})
	}
}
