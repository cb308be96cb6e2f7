package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/webagent/webagent/botauth"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/testfixture/sigcheck"
	"github.com/webagent/webagent/testfixture/tier"
)

// TestBotKeyCommands: bot-key new writes a private 0600 key and prints
// its thumbprint, never over a file; directory prints the JWKS, and with
// --listen serves it signed until SIGTERM.
func TestBotKeyCommands(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "bot.pem")
	code, p := run(t, "bot-key", "new", file)
	thumb := strings.TrimSpace(p.stdout.String())
	if code != exitOK || len(thumb) != 43 {
		t.Fatalf("bot-key new: exit %d, stdout %q; stderr:\n%s", code, thumb, p.stderr.String())
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v", st, err)
	}
	before, _ := os.ReadFile(file)
	code, p = run(t, "bot-key", "new", file)
	checkStderr(t, code, exitUsage, p.stderr.String(), []string{"exists already"})
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("bot-key new changed an existing key")
	}
	code, p = run(t, "bot-key", "directory", file)
	var dir struct{ Keys []map[string]string }
	if err := json.Unmarshal(p.stdout.Bytes(), &dir); code != exitOK || err != nil || len(dir.Keys) != 1 || dir.Keys[0]["kid"] != thumb || dir.Keys[0]["d"] != "" {
		t.Fatalf("bot-key directory: exit %d, %q, %v", code, p.stdout.String(), err)
	}

	srv := exec.Command(bin, "bot-key", "directory", "--listen", "127.0.0.1:0", file)
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if srv.ProcessState == nil {
			_ = srv.Process.Kill()
			_ = srv.Wait()
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	addr := strings.TrimSpace(line)
	if err != nil || !strings.HasSuffix(addr, botauth.DirectoryPath) {
		t.Fatalf("the directory's address: %q, %v", line, err)
	}
	res, err := http.Get(addr)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != botauth.DirectoryMediaType || !strings.Contains(string(body), thumb) ||
		!strings.Contains(res.Header.Get("Signature-Input"), `tag="http-message-signatures-directory"`) {
		t.Errorf("served: %d %v %s", res.StatusCode, res.Header, body)
	}
	_ = srv.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	select {
	case <-exited:
		if code := srv.ProcessState.ExitCode(); code != exitInterrupted {
			t.Errorf("after SIGTERM: exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Error("the directory server still runs 10 s after SIGTERM")
	}
}

// TestBotKeyUsageErrors: a key that is missing, of another type, readable
// by others, or a Signature-Agent that is not https is exit 2 with one
// line that says which and what to do, and nothing is launched.
func TestBotKeyUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, data []byte, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := filepath.Join(dir, "good.pem")
	if _, err := botauth.NewKeyFile(good); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(good)
	open := write("open.pem", raw, 0o644)
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(ec)
	ecFile := write("ec.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
	model := []string{"--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--url", "https://example.org"}
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want []string
	}{
		{"missing", nil, []string{"--bot-key", filepath.Join(dir, "nope.pem")}, []string{"--bot-key", "nope.pem: no such file", "webagent bot-key new"}},
		{"missing from the environment", []string{botKeyEnv + "=" + filepath.Join(dir, "gone.pem")}, nil, []string{"gone.pem: no such file"}},
		{"world-readable", nil, []string{"--bot-key", open}, []string{"other users may read it (mode 0644)", "chmod 600 " + open}},
		{"ecdsa", nil, []string{"--bot-key", ecFile}, []string{"is a ECDSA key", "Ed25519"}},
		{"http agent", nil, []string{"--bot-key", good, "--signature-agent", "http://bot.example.com"}, []string{"--signature-agent", "must be an https URL"}},
		{"agent without key", nil, []string{"--signature-agent", "https://bot.example.com"}, []string{"--signature-agent needs --bot-key"}},
		{"bad sign domain", nil, []string{"--bot-key", good, "--sign-domains", "ex*.org"}, []string{"--sign-domains", "wildcard"}},
		{"eval", nil, []string{"eval", "--bot-key", open}, []string{"other users may read it"}},
		{"mcp", nil, []string{"mcp", "--bot-key", ecFile}, []string{"is a ECDSA key"}},
		{"worker", nil, []string{"worker", "--temporal", "127.0.0.1:9", "--bot-key", filepath.Join(dir, "nope.pem")}, []string{"no such file"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"run"}, append(c.args, model...)...), "task")
			if len(c.args) > 0 && (c.args[0] == "eval" || c.args[0] == "mcp" || c.args[0] == "worker") {
				args = c.args
			}
			p := startEnv(t, c.env, args...)
			code := p.wait(t, time.Minute)
			checkStderr(t, code, exitUsage, p.stderr.String(), c.want)
			if n := strings.Count(strings.TrimSpace(p.stderr.String()), "\n"); n > 0 || p.stdout.Len() > 0 {
				t.Errorf("want one line on stderr and nothing on stdout; stdout %q stderr:\n%s", p.stdout.String(), p.stderr.String())
			}
			p.noChromeLeft(t)
		})
	}
}

// TestRunSigned: run --bot-key signs what the browser sends (the page and
// its subresources, as the site's own verifier finds), with the
// Signature-Agent given; the private key is in no output, log or trace.
func TestRunSigned(t *testing.T) {
	tier.Slow(t)
	t.Parallel()
	file := filepath.Join(t.TempDir(), "bot.pem")
	key, err := botauth.NewKeyFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ver := &sigcheck.Verifier{Keys: map[string]ed25519.PublicKey{key.Thumbprint(): key.Public()}}
	var mu sync.Mutex
	got := map[string]string{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		verdict := "signed"
		if s, err := ver.Request(r); err != nil {
			verdict = err.Error()
		} else if s.Agent != "https://bot.example.com" {
			verdict = "agent " + s.Agent
		}
		mu.Lock()
		got[r.URL.Path] = verdict
		mu.Unlock()
		if r.URL.Path == "/s.js" {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `document.getElementById('p').textContent = 'ready'`)
			return
		}
		fmt.Fprint(w, `<!doctype html><title>T</title><p id="p">-</p><script src="/s.js"></script>`)
	}))
	defer site.Close()
	srv, err := modelserver.Start(modelserver.Script(modelserver.Turn{Text: `<tool_call>{"name": "done", "arguments": {"answer": "ready"}}</tool_call>`}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	traceDir := filepath.Join(t.TempDir(), "trace")
	code, p := run(t, "run", "--json", "--tool-mode", "prompt", "--log-level", "debug", "--trace", traceDir,
		"--bot-key", file, "--signature-agent", "https://bot.example.com",
		"--url", site.URL+"/", "--base-url", srv.BaseURL(), "--model", "m", "say what the page says")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	mu.Lock()
	for _, path := range []string{"/", "/s.js"} {
		if got[path] != "signed" {
			t.Errorf("%s: %q", path, got[path])
		}
	}
	mu.Unlock()
	// The key's private part in every form it could leak in.
	pemBody := strings.Join(strings.Split(strings.TrimSpace(string(must(os.ReadFile(file)))), "\n")[1:2], "")
	outputs := p.stdout.String() + p.stderr.String() + traceText(t, traceDir)
	for _, r := range srv.Requests() {
		outputs += string(r.Req.Raw)
	}
	if pemBody == "" || strings.Contains(outputs, pemBody) {
		t.Errorf("the private key appears in the output, logs, trace or model requests")
	}
	p.noChromeLeft(t)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// traceText is every file of a trace folder, as text.
func traceText(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			b.WriteString(sc.Text())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
