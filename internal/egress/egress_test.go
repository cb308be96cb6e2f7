package egress

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent/webagent/contract"
)

// limits are a guard of a policy, with a resolver that knows a few names:
// host -> resolves to a private address.
func limits(policy *contract.NavigationPolicy, private map[string]bool) *Guard {
	g := &Guard{lookup: func(_ context.Context, host string) ([]netip.Addr, error) {
		p, ok := private[host]
		switch {
		case !ok:
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		case p:
			return []netip.Addr{netip.MustParseAddr("10.0.0.1")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("203.0.113.1")}, nil
	}}
	g.Confine(policy)
	return g
}

// only are limits that allow the hosts of the patterns alone.
func only(t *testing.T, patterns string) *Guard {
	t.Helper()
	allowed, err := contract.ParseDomainPatterns(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return limits(&contract.NavigationPolicy{Allowed: allowed, AllowPrivateNetwork: true}, nil)
}

// open are limits that let everything through.
func open() *Guard {
	return limits(&contract.NavigationPolicy{AllowPrivateNetwork: true}, nil)
}

// refusals collects what OnRefuse is told.
type refusals struct {
	mu  sync.Mutex
	got []Refusal
}

func (r *refusals) add(x Refusal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, x)
}

func (r *refusals) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, x := range r.got {
		out = append(out, x.Method+" "+x.URL)
	}
	return out
}

// start starts an egress with l and returns it with what it refuses.
func start(t *testing.T, cfg Config) (*Proxy, *refusals) {
	t.Helper()
	r := &refusals{}
	cfg.OnRefuse = r.add
	p, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, r
}

// site is a server that notes the path of each request it receives.
type site struct {
	*httptest.Server
	mu  sync.Mutex
	got []string // method path
	hdr []http.Header
}

func newSite(t *testing.T, tlsToo bool) *site {
	t.Helper()
	s := &site{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, r.Method+" "+r.URL.Path)
		s.hdr = append(s.hdr, r.Header.Clone())
		s.mu.Unlock()
		fmt.Fprint(w, "hello from "+r.URL.Path)
	})
	if tlsToo {
		s.Server = httptest.NewTLSServer(h)
	} else {
		s.Server = httptest.NewServer(h)
	}
	t.Cleanup(s.Close)
	return s
}

func (s *site) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.got)
}

// via is a client whose requests go through the egress, trusting the test
// servers' certificate.
func via(t *testing.T, p *Proxy) *http.Client {
	t.Helper()
	pu, err := url.Parse(p.URL())
	if err != nil {
		t.Fatal(err)
	}
	// Credentials for the egress are never passed on to the site.
	pu.User = url.UserPassword("page", "secret")
	// Every httptest TLS server has the same certificate.
	ts := httptest.NewTLSServer(http.NotFoundHandler())
	pool := x509.NewCertPool()
	pool.AddCert(ts.Certificate())
	ts.Close()
	tr := &http.Transport{Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{RootCAs: pool}, DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// get fetches u through c: the answer's status and body, or the error.
func get(c *http.Client, method, u string) (int, string, error) {
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// TestForwards: a plain request and an https one through a tunnel reach
// their servers, as they were sent, without the proxy's credentials.
func TestForwards(t *testing.T) {
	p, refused := start(t, Config{Guard: open()})
	c := via(t, p)
	plain, secure := newSite(t, false), newSite(t, true)
	for _, tc := range []struct {
		s    *site
		path string
	}{{plain, "/plain?q=1"}, {secure, "/secure"}} {
		code, body, err := get(c, http.MethodGet, tc.s.URL+tc.path)
		path, _, _ := strings.Cut(tc.path, "?")
		if err != nil || code != http.StatusOK || body != "hello from "+path {
			t.Errorf("%s: %d %q %v", tc.path, code, body, err)
		}
		if got := tc.s.seen(); !slices.Equal(got, []string{"GET " + path}) {
			t.Errorf("%s: the site received %v", tc.path, got)
		}
	}
	plain.mu.Lock()
	if h := plain.hdr[0].Get("Proxy-Authorization"); h != "" {
		t.Errorf("the site received the proxy's credentials: %q", h)
	}
	plain.mu.Unlock()
	if s := p.Summary(); s != "" || len(refused.list()) != 0 {
		t.Errorf("nothing was refused, yet: %q %v", s, refused.list())
	}
}

// TestRefusesOutsideLimits: under allowed domains, a CONNECT and plain
// requests to another host are refused and reach nothing; the summary
// counts them by host, in order, once.
func TestRefusesOutsideLimits(t *testing.T) {
	p, refused := start(t, Config{Guard: only(t, "example.com")})
	c := via(t, p)
	plain, secure := newSite(t, false), newSite(t, true)

	if _, _, err := get(c, http.MethodGet, secure.URL+"/s"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("the tunnel was not refused: %v", err)
	}
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		code, body, err := get(c, m, plain.URL+"/p")
		if err != nil || code != http.StatusForbidden || !strings.Contains(body, "refused by webagent: ") {
			t.Errorf("%s: %d %q %v", m, code, body, err)
		}
	}
	if got := append(plain.seen(), secure.seen()...); len(got) != 0 {
		t.Errorf("the servers received %v", got)
	}
	sh, ph := strings.TrimPrefix(secure.URL, "https://"), strings.TrimPrefix(plain.URL, "http://")
	want := fmt.Sprintf("3 requests to hosts outside your limits were refused: %s (1), %s (2)", sh, ph)
	if s := p.Summary(); s != want {
		t.Errorf("summary\n got %q\nwant %q", s, want)
	}
	if s := p.Summary(); s != "" {
		t.Errorf("the second summary told again: %q", s)
	}
	wantList := []string{"CONNECT https://" + sh, "GET " + plain.URL + "/p", "POST " + plain.URL + "/p"}
	if got := refused.list(); !slices.Equal(got, wantList) {
		t.Errorf("refusals told\n got %v\nwant %v", got, wantList)
	}
}

// TestSummaryWording: one refusal is told in the singular; past five
// hosts, the rest are counted.
func TestSummaryWording(t *testing.T) {
	p, _ := start(t, Config{Guard: only(t, "example.com")})
	c := via(t, p)
	_, _, _ = get(c, http.MethodGet, "http://a.test/")
	if s, want := p.Summary(), "1 request to a host outside your limits was refused: a.test (1)"; s != want {
		t.Errorf("got %q, want %q", s, want)
	}
	for _, h := range []string{"a", "b", "c", "d", "e", "f", "g", "a"} {
		if code, _, err := get(c, http.MethodGet, "http://"+h+".test/x"); code != http.StatusForbidden {
			t.Errorf("%s.test: %d %v", h, code, err)
		}
	}
	want := "8 requests to hosts outside your limits were refused: a.test (2), b.test (1), c.test (1), d.test (1), e.test (1), 2 more hosts"
	if s := p.Summary(); s != want {
		t.Errorf("got  %q\nwant %q", s, want)
	}
}

// TestPrivateNetwork: without the user naming them, loopback addresses are
// refused, also behind a name (localhost) and through a tunnel; nothing
// reaches the server. Named by the user, the name goes through.
func TestPrivateNetwork(t *testing.T) {
	l := limits(&contract.NavigationPolicy{}, nil)
	p, refused := start(t, Config{Guard: l})
	c := via(t, p)
	plain, secure := newSite(t, false), newSite(t, true)
	_, pport, _ := net.SplitHostPort(strings.TrimPrefix(plain.URL, "http://"))
	_, sport, _ := net.SplitHostPort(strings.TrimPrefix(secure.URL, "https://"))

	for _, u := range []string{plain.URL + "/ip", "http://localhost:" + pport + "/name"} {
		code, body, err := get(c, http.MethodGet, u)
		if err != nil || code != http.StatusForbidden || !strings.Contains(body, "is on a private network") {
			t.Errorf("%s: %d %q %v", u, code, body, err)
		}
	}
	if _, _, err := get(c, http.MethodGet, "https://localhost:"+sport+"/tunnel"); err == nil {
		t.Error("the tunnel to localhost was not refused")
	}
	if got := append(plain.seen(), secure.seen()...); len(got) != 0 {
		t.Errorf("the servers received %v", got)
	}
	want := fmt.Sprintf("3 requests to hosts outside your limits were refused: 127.0.0.1:%s (1), localhost:%s (1), localhost:%s (1)", pport, pport, sport)
	if s := p.Summary(); s != want {
		t.Errorf("summary\n got %q\nwant %q", s, want)
	}
	if n := len(refused.list()); n != 3 {
		t.Errorf("%d refusals told, want 3: %v", n, refused.list())
	}

	l.Confine(&contract.NavigationPolicy{Trusted: []string{"localhost"}})
	if code, body, err := get(c, http.MethodGet, "http://localhost:"+pport+"/named"); err != nil || code != http.StatusOK {
		t.Errorf("named by the user: %d %q %v", code, body, err)
	}
	if got := plain.seen(); !slices.Equal(got, []string{"GET /named"}) {
		t.Errorf("the server received %v", got)
	}
}

// TestExplain: a site that cannot be reached is not a refusal; goto is
// told the network error behind Chromium's proxy error.
func TestExplain(t *testing.T) {
	p, _ := start(t, Config{Guard: open()})
	c := via(t, p)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	if code, _, err := get(c, http.MethodGet, "http://"+addr+"/"); code != http.StatusBadGateway {
		t.Errorf("plain: %d %v", code, err)
	}
	if got := p.Explain("http://"+addr+"/", "net::ERR_HTTP_RESPONSE_CODE_FAILURE"); got != "net::ERR_CONNECTION_REFUSED" {
		t.Errorf("plain: Explain = %q", got)
	}
	if _, _, err := get(c, http.MethodGet, "https://"+addr+"/"); err == nil {
		t.Error("a tunnel to nothing succeeded")
	}
	if got := p.Explain("https://"+addr+"/x", "net::ERR_TUNNEL_CONNECTION_FAILED"); got != "net::ERR_CONNECTION_REFUSED" {
		t.Errorf("tunnel: Explain = %q", got)
	}
	if got := p.Explain("https://"+addr+"/x", "net::ERR_ABORTED"); got != "" {
		t.Errorf("another error explained: %q", got)
	}
	if s := p.Summary(); s != "" {
		t.Errorf("a failure was told as a refusal: %q", s)
	}
}

// TestCloseEndsTunnels: Close ends an open tunnel and returns.
func TestCloseEndsTunnels(t *testing.T) {
	held := make(chan net.Conn, 1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			held <- c
		}
	}()
	p, err := Start(Config{Guard: open()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %[1]s\r\n\r\n", ln.Addr())
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	defer (<-held).Close()
	p.Close()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("the tunnel is still open after Close: %v", err)
	}
}

func TestPrivateAddr(t *testing.T) {
	for a, want := range map[string]bool{
		"127.0.0.1": true, "10.1.2.3": true, "192.168.0.1": true, "172.16.0.1": true,
		"169.254.169.254": true, "100.64.0.1": true, "0.0.0.0": true, "0.1.2.3": true,
		"::1": true, "fe80::1": true, "fc00::1": true, "::ffff:127.0.0.1": true, "::": true,
		"93.184.215.14": false, "8.8.8.8": false, "2606:4700::1111": false, "100.128.0.1": false,
	} {
		if got := PrivateAddr(netip.MustParseAddr(a)); got != want {
			t.Errorf("PrivateAddr(%s) = %v, want %v", a, got, want)
		}
	}
}
