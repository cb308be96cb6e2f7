package liveview_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/liveview"
)

// socket is a viewer's WebSocket as a Go client: it reads the server's
// text messages and skips frames.
type socket struct {
	t    *testing.T
	conn *websocket.Conn
}

// dial opens the view's socket with the token of pageURL.
func dial(t *testing.T, pageURL string, origin string) (*socket, *http.Response, error) {
	t.Helper()
	ws := strings.Replace(strings.Replace(pageURL, "http://", "ws://", 1), "?t=", "/ws?t=", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	c, resp, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, resp, err
	}
	s := &socket{t: t, conn: c}
	t.Cleanup(func() { c.CloseNow() })
	return s, resp, nil
}

type msg struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// next reads messages until one of typ satisfies ok, within d.
func (s *socket) next(typ string, d time.Duration, ok func(json.RawMessage) bool) json.RawMessage {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for {
		kind, b, err := s.conn.Read(ctx)
		if err != nil {
			s.t.Fatalf("waiting for a %q message: %v", typ, err)
		}
		if kind != websocket.MessageText {
			continue
		}
		var m msg
		if json.Unmarshal(b, &m) == nil && m.Type == typ && (ok == nil || ok(m.Data)) {
			return m.Data
		}
	}
}

func (s *socket) send(v any) {
	s.t.Helper()
	b, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.conn.Write(ctx, websocket.MessageText, b); err != nil {
		s.t.Fatal(err)
	}
}

func state(want string, mine bool) func(json.RawMessage) bool {
	return func(d json.RawMessage) bool {
		var c struct {
			State string
			Mine  bool
		}
		_ = json.Unmarshal(d, &c)
		return c.State == want && c.Mine == mine
	}
}

func errorAbout(req string) func(json.RawMessage) bool {
	return func(d json.RawMessage) bool { return strings.Contains(string(d), `"request":"`+req+`"`) }
}

// TestTokens: a request without a token gets 401, one with a wrong,
// revoked or expired token 403, a socket from another origin is refused,
// and none of them changes anything: no question answered, no control
// taken. The watch link cannot answer or take over.
func TestTokens(t *testing.T) {
	t.Parallel()
	srv := serve(t, liveview.Config{})
	v := srv.Open(liveview.Options{Title: "t", TokenTTL: time.Hour})
	defer v.Close()
	viewURL, controlURL := v.URLs()
	base := strings.SplitN(controlURL, "?", 2)[0]
	get := func(u string) int {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	asked := make(chan bool, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		ok, _ := v.Confirm(ctx, agent.Confirmation{Question: "place the order?"})
		asked <- ok
	}()
	for _, c := range []struct {
		url  string
		want int
	}{
		{base, http.StatusUnauthorized},
		{base + "/ws", http.StatusUnauthorized},
		{base + "?t=wrong", http.StatusForbidden},
		{base + "/ws?t=" + strings.Repeat("A", 22), http.StatusForbidden},
		{strings.Replace(controlURL, v.ID(), "nosuchview", 1), http.StatusForbidden},
		{viewURL, http.StatusOK},
		{controlURL, http.StatusOK},
	} {
		if got := get(c.url); got != c.want {
			t.Errorf("GET %s: %d, want %d", strings.Replace(c.url, v.ID(), "ID", 1), got, c.want)
		}
	}
	if _, resp, err := dial(t, controlURL, "http://evil.example"); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a socket from another origin was not refused with 403: %v", err)
	}
	// The watch link sees the question and cannot answer it or take over.
	w, _, err := dial(t, viewURL, "")
	if err != nil {
		t.Fatal(err)
	}
	q := w.next("question", 10*time.Second, nil)
	var qid struct{ ID int }
	_ = json.Unmarshal(q, &qid)
	w.send(map[string]any{"type": "answer", "id": qid.ID, "yes": true})
	w.next("error", 5*time.Second, errorAbout("answer"))
	w.send(map[string]any{"type": "take"})
	w.next("error", 5*time.Second, errorAbout("take"))
	if v.Lease().Wanted() {
		t.Error("the watch link took control")
	}
	// Revoked: the old links fail, the new ones work, the viewers were
	// disconnected.
	newView, newControl := v.Revoke()
	for _, u := range []string{viewURL, controlURL} {
		if got := get(u); got != http.StatusForbidden {
			t.Errorf("a revoked link: %d, want 403", got)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		if _, _, err := w.conn.Read(ctx); err != nil {
			break
		}
	}
	if get(newView) != http.StatusOK || get(newControl) != http.StatusOK {
		t.Error("the new links do not work")
	}
	select {
	case <-asked:
		t.Error("the question was answered without the control link")
	default:
	}
	// The control link answers.
	c, _, err := dial(t, newControl, "")
	if err != nil {
		t.Fatal(err)
	}
	c.next("question", 10*time.Second, nil)
	c.send(map[string]any{"type": "answer", "id": qid.ID, "yes": true})
	if ok := <-asked; !ok {
		t.Error("the control link's yes did not reach the question")
	}
}

// TestTokensExpire: past its TTL a link gets 403; a closed view's too.
func TestTokensExpire(t *testing.T) {
	t.Parallel()
	srv := serve(t, liveview.Config{})
	v := srv.Open(liveview.Options{TokenTTL: 300 * time.Millisecond})
	_, control := v.URLs()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		resp, err := http.Get(control)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusForbidden {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the link did not expire")
		}
		<-tick.C // the expiry is the clock's: look again
	}
	v2 := srv.Open(liveview.Options{})
	_, c2 := v2.URLs()
	v2.Close()
	resp, err := http.Get(c2)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a closed view's link: %d, want 403", resp.StatusCode)
	}
}

// TestNonLoopbackNeedsTLS: another address than loopback without TLS
// files is refused before anything listens.
func TestNonLoopbackNeedsTLS(t *testing.T) {
	t.Parallel()
	if _, err := liveview.Start(liveview.Config{Addr: "0.0.0.0:0"}); err != liveview.ErrTLSRequired {
		t.Errorf("got %v, want ErrTLSRequired", err)
	}
}

// TestTLS: with a certificate the view is served over HTTPS only, on any
// address; its URLs say https.
func TestTLS(t *testing.T) {
	t.Parallel()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	srv := serve(t, liveview.Config{Addr: "0.0.0.0:0", CertFile: certFile, KeyFile: keyFile})
	v := srv.Open(liveview.Options{})
	defer v.Close()
	_, control := v.URLs()
	if !strings.HasPrefix(control, "https://127.0.0.1:") {
		t.Fatalf("the URL is %s, want https on the loopback address", strings.SplitN(control, "?", 2)[0])
	}
	pool := x509.NewCertPool()
	cert, _ := x509.ParseCertificate(der)
	pool.AddCert(cert)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
	resp, err := client.Get(control)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("over TLS: %d", resp.StatusCode)
	}
	if resp, err := http.Get(strings.Replace(control, "https://", "http://", 1)); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("the view answered over plain HTTP")
		}
	}
}

// TestReloadKeepsTheView: the page takes its token out of the address
// bar; a reload of the tab still opens the view (the token from the tab's
// session storage), while the bare URL elsewhere gets 401.
func TestReloadKeepsTheView(t *testing.T) {
	t.Parallel()
	srv := serve(t, liveview.Config{})
	v := srv.Open(liveview.Options{Title: "reload me"})
	defer v.Close()
	_, control := v.URLs()
	vctx := viewer(t, control)
	waitJS(t, vctx, `document.getElementById('status').textContent === 'live' && !location.search`, 20*time.Second)
	if _, err := chromedp.Run(vctx, chromedp.Evaluate[bool](`location.reload(), true`)); err != nil {
		t.Fatal(err)
	}
	// The reload navigates twice (the 401 page puts the token back): a
	// wait cut by a navigation is tried again, within the deadline.
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(vctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.getElementById('title') && document.getElementById('title').textContent === 'reload me' && document.getElementById('status').textContent === 'live'`))
		cancel()
		if err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reloaded view did not come back: %v", err)
		}
		<-time.After(20 * time.Millisecond) // the next look at a page that is loading
	}
	resp, err := http.Get(strings.SplitN(control, "?", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the bare URL: %d, want 401", resp.StatusCode)
	}
}

// TestCloseWithAStalledViewer: a viewer that stopped reading never
// answers the closing handshake; Close cuts it off after its wait, so a
// command's exit after its result stays bounded.
func TestCloseWithAStalledViewer(t *testing.T) {
	t.Parallel()
	srv := serve(t, liveview.Config{})
	v := srv.Open(liveview.Options{})
	_, control := v.URLs()
	if _, _, err := dial(t, control, ""); err != nil { // connected, never read
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); v.Viewers() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the viewer never joined")
		}
		runtime.Gosched()
	}
	t0 := time.Now()
	v.Close()
	if took := time.Since(t0); took > 4*time.Second {
		t.Errorf("Close took %s with a stalled viewer, want its flush and last message (2 s) and little more", took)
	}
}
