package browser

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// TestProxyWithCredentials: the pages come through a proxy that asks for
// credentials, which the browser answers; the password is in no log line.
func TestProxyWithCredentials(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>p</title><p id=o>through the proxy</p>`)
	}))
	defer site.Close()
	proxy := &authProxy{user: "ann", pass: "s3cret-proxy-pw"}
	ps := httptest.NewServer(proxy)
	defer ps.Close()
	var logs bytes.Buffer
	var logMu sync.Mutex
	log := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logs.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	proxyURL := strings.Replace(ps.URL, "http://", "http://ann:s3cret-proxy-pw@", 1)
	b, err := Launch(ctx, Options{Logger: log, Proxy: proxyURL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Do(ctx, contract.Action{Name: contract.ActGoto, URL: site.URL + "/"}); err != nil {
		b.Close()
		t.Fatal(err)
	}
	v, err := b.Eval(ctx, `document.getElementById('o') && document.getElementById('o').textContent`)
	b.Close()
	if err != nil || v != "through the proxy" {
		t.Fatalf("page: %v %v", v, err)
	}
	proxy.mu.Lock()
	passed, denied := proxy.passed, proxy.denied
	proxy.mu.Unlock()
	if !slices.ContainsFunc(passed, func(u string) bool { return strings.HasPrefix(u, site.URL) }) {
		t.Errorf("the proxy forwarded %v (denied %d)", passed, denied)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if strings.Contains(logs.String(), "s3cret-proxy-pw") {
		t.Error("the proxy's password is in the logs")
	}
}

// authProxy is a forward HTTP proxy that wants Basic credentials.
type authProxy struct {
	user, pass string
	mu         sync.Mutex
	denied     int
	passed     []string // URLs forwarded
}

type writerFunc func([]byte) (int, error)

func (p *authProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(p.user+":"+p.pass))
	if r.Header.Get("Proxy-Authorization") != want {
		p.mu.Lock()
		p.denied++
		p.mu.Unlock()
		w.Header().Set("Proxy-Authenticate", `Basic realm="test"`)
		w.WriteHeader(http.StatusProxyAuthRequired)
		return
	}
	p.mu.Lock()
	p.passed = append(p.passed, r.URL.String())
	p.mu.Unlock()
	r.RequestURI = ""
	r.Header.Del("Proxy-Authorization")
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
