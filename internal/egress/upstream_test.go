package egress

import (
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/webagent/webagent/contract"
)

// upstream is the user's proxy: it wants Basic credentials, forwards plain
// requests and opens tunnels, and notes each request with whether its
// credentials were right.
type upstream struct {
	*httptest.Server
	user, pass string
	mu         sync.Mutex
	got        []string // "ok METHOD target" or "denied METHOD target"
	wg         sync.WaitGroup
}

func newUpstream(t *testing.T, user, pass string) *upstream {
	t.Helper()
	u := &upstream{user: user, pass: pass}
	u.Server = httptest.NewServer(u)
	t.Cleanup(func() { u.Close(); u.wg.Wait() })
	return u
}

func (u *upstream) seen() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.got)
}

func (u *upstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	target := r.URL.String()
	if r.Method == http.MethodConnect {
		target = r.Host
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(u.user+":"+u.pass))
	ok := r.Header.Get("Proxy-Authorization") == want
	u.mu.Lock()
	u.got = append(u.got, map[bool]string{true: "ok ", false: "denied "}[ok]+r.Method+" "+target)
	u.mu.Unlock()
	if !ok {
		w.Header().Set("Proxy-Authenticate", `Basic realm="test"`)
		w.WriteHeader(http.StatusProxyAuthRequired)
		return
	}
	if r.Method == http.MethodConnect {
		u.connect(w, r)
		return
	}
	if r.URL.Hostname() == "public.example" {
		// A name of the tests', which resolves nowhere.
		io.WriteString(w, "answered by the user's proxy")
		return
	}
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
	_, _ = io.Copy(w, resp.Body)
}

func (u *upstream) connect(w http.ResponseWriter, r *http.Request) {
	to, err := net.Dial("tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	from, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		to.Close()
		return
	}
	if _, err := io.WriteString(from, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		from.Close()
		to.Close()
		return
	}
	pipe(&u.wg, from, buf, to)
}

// pipe copies between a client (whose first bytes may be buffered in r)
// and a server until both are done.
func pipe(wg *sync.WaitGroup, client net.Conn, r io.Reader, server net.Conn) {
	wg.Go(func() {
		defer client.Close()
		defer server.Close()
		done := make(chan struct{}, 2)
		go func() { _, _ = io.Copy(server, r); closeWrite(server); done <- struct{}{} }()
		go func() { _, _ = io.Copy(client, server); closeWrite(client); done <- struct{}{} }()
		<-done
		<-done
	})
}

// TestUpstreamWithCredentials: through the user's proxy, plain requests
// and tunnels carry the user's credentials and reach their sites; with the
// wrong password nothing reaches the site, and that is a failure, not a
// refusal.
func TestUpstreamWithCredentials(t *testing.T) {
	ups := newUpstream(t, "ann", "pw")
	plain, secure := newSite(t, false), newSite(t, true)
	p, refused := start(t, Config{Guard: open(), Upstream: &Upstream{Server: ups.URL, Username: "ann", Password: "pw"}})
	c := via(t, p)
	if code, body, err := get(c, http.MethodGet, plain.URL+"/p"); err != nil || code != http.StatusOK || body != "hello from /p" {
		t.Errorf("plain: %d %q %v", code, body, err)
	}
	if code, body, err := get(c, http.MethodGet, secure.URL+"/s"); err != nil || code != http.StatusOK || body != "hello from /s" {
		t.Errorf("tunnel: %d %q %v", code, body, err)
	}
	sh := strings.TrimPrefix(secure.URL, "https://")
	want := []string{"ok GET " + plain.URL + "/p", "ok CONNECT " + sh}
	if got := ups.seen(); !slices.Equal(got, want) {
		t.Errorf("the user's proxy saw\n %v\nwant %v", got, want)
	}
	if got := append(plain.seen(), secure.seen()...); !slices.Equal(got, []string{"GET /p", "GET /s"}) {
		t.Errorf("the sites received %v", got)
	}

	wrong, wrongRefused := start(t, Config{Guard: open(), Upstream: &Upstream{Server: ups.URL, Username: "ann", Password: "nope"}})
	if _, _, err := get(via(t, wrong), http.MethodGet, secure.URL+"/wrong"); err == nil || !strings.Contains(err.Error(), "Bad Gateway") {
		t.Errorf("a tunnel with the wrong password: %v", err)
	}
	if got := secure.seen(); len(got) != 1 {
		t.Errorf("the site received %v", got)
	}
	if s := wrong.Summary(); s != "" || len(refused.list())+len(wrongRefused.list()) != 0 {
		t.Errorf("a failure was told as a refusal: %q %v", s, wrongRefused.list())
	}
}

// TestUpstreamPrivateNetwork: through the user's proxy, which resolves
// names itself, a name that resolves to a private address is refused
// before the proxy is asked; a public one is passed on.
func TestUpstreamPrivateNetwork(t *testing.T) {
	ups := newUpstream(t, "ann", "pw")
	l := limits(&contract.NavigationPolicy{}, map[string]bool{"intranet.example": true, "public.example": false})
	p, refused := start(t, Config{Guard: l, Upstream: &Upstream{Server: ups.URL, Username: "ann", Password: "pw"}})
	c := via(t, p)
	if code, body, err := get(c, http.MethodGet, "http://intranet.example/x"); code != http.StatusForbidden || !strings.Contains(body, "intranet.example is on a private network") {
		t.Errorf("plain: %d %q %v", code, body, err)
	}
	if _, _, err := get(c, http.MethodGet, "https://intranet.example/y"); err == nil {
		t.Error("the tunnel to intranet.example was not refused")
	}
	if code, body, err := get(c, http.MethodGet, "http://nowhere.example/z"); code != http.StatusForbidden || !strings.Contains(body, "could not be resolved") {
		t.Errorf("an unknown name: %d %q %v", code, body, err)
	}
	if code, body, err := get(c, http.MethodGet, "http://public.example/w"); code != http.StatusOK || body != "answered by the user's proxy" {
		t.Errorf("public.example: %d %q %v", code, body, err)
	}
	if got, want := ups.seen(), []string{"ok GET http://public.example/w"}; !slices.Equal(got, want) {
		t.Errorf("the user's proxy saw %v, want %v", got, want)
	}
	want := "3 requests to hosts outside your limits were refused: intranet.example (1), intranet.example:443 (1), nowhere.example (1)"
	if s := p.Summary(); s != want {
		t.Errorf("summary\n got %q\nwant %q", s, want)
	}
	if n := len(refused.list()); n != 3 {
		t.Errorf("%d refusals told: %v", n, refused.list())
	}
}

// socks5 is a SOCKS5 proxy without authentication that notes the
// addresses asked for and connects to them.
type socks5 struct {
	ln  net.Listener
	mu  sync.Mutex
	got []string
	wg  sync.WaitGroup
}

func newSocks5(t *testing.T) *socks5 {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &socks5{ln: ln}
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	s.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Go(func() { s.serve(c) })
		}
	})
	return s
}

func (s *socks5) serve(c net.Conn) {
	var hello [3]byte
	var head [5]byte
	if _, err := io.ReadFull(c, hello[:]); err != nil || hello[0] != 5 {
		c.Close()
		return
	}
	_, _ = c.Write([]byte{5, 0})
	if _, err := io.ReadFull(c, head[:]); err != nil || head[3] != 3 {
		c.Close()
		return
	}
	rest := make([]byte, int(head[4])+2)
	if _, err := io.ReadFull(c, rest); err != nil {
		c.Close()
		return
	}
	host, port := string(rest[:head[4]]), int(rest[head[4]])<<8|int(rest[head[4]+1])
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	s.mu.Lock()
	s.got = append(s.got, addr)
	s.mu.Unlock()
	to, err := net.Dial("tcp", addr)
	if err != nil {
		_, _ = c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0})
		c.Close()
		return
	}
	_, _ = c.Write([]byte{5, 0, 0, 1, 127, 0, 0, 1, 0, 0})
	pipe(&s.wg, c, c, to)
}

// TestUpstreamSOCKS5: through a SOCKS5 proxy, plain requests and tunnels
// reach their sites, each asked of the proxy by address.
func TestUpstreamSOCKS5(t *testing.T) {
	s := newSocks5(t)
	plain, secure := newSite(t, false), newSite(t, true)
	p, _ := start(t, Config{Guard: open(), Upstream: &Upstream{Server: "socks5://" + s.ln.Addr().String()}})
	c := via(t, p)
	for _, u := range []string{plain.URL + "/p", secure.URL + "/s"} {
		if code, _, err := get(c, http.MethodGet, u); err != nil || code != http.StatusOK {
			t.Errorf("%s: %d %v", u, code, err)
		}
	}
	s.mu.Lock()
	got := slices.Clone(s.got)
	s.mu.Unlock()
	want := []string{strings.TrimPrefix(plain.URL, "http://"), strings.TrimPrefix(secure.URL, "https://")}
	if !slices.Equal(got, want) {
		t.Errorf("the SOCKS5 proxy was asked for %v, want %v", got, want)
	}
	if got := append(plain.seen(), secure.seen()...); !slices.Equal(got, []string{"GET /p", "GET /s"}) {
		t.Errorf("the sites received %v", got)
	}
}
