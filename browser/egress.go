package browser

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/webagent/webagent/contract"
)

// The egress: every byte a page sends leaves Chromium through the Browser's
// own forward proxy on loopback, which holds each request to the user's
// limits (the domain lists and the private network guard of Confine).
// Documents are also checked earlier, by the interceptor, which can say
// why to goto; the egress covers what the interceptor does not see:
// subresources, fetch and XHR, WebSocket and EventSource handshakes,
// beacons, workers of every kind, prefetch and preconnect. Chromium sends
// it every host name unresolved (no DNS of its own), and WebRTC may use no
// UDP the proxy does not carry (--webrtc-ip-handling-policy), so a
// page reaches no host outside the limits by any path.
//
// The private network guard is checked where the connection is made: on
// the address dialled, so that a name that resolves to a public address
// when checked and to a private one when used (DNS rebinding) is refused.

// Bounds of the egress's own waits.
const (
	egressDialBudget   = 30 * time.Second // a connection to a site, or to the user's proxy
	egressHeaderBudget = 30 * time.Second // a request's head from Chromium
	maxRefusalHosts    = 5                // hosts named in one summary
)

// discardLog keeps the proxy's own complaints (a page that hung up
// mid-answer) out of the program's output.
var discardLog = log.New(io.Discard, "", 0)

// errPrivate is the dialler's refusal of a private address.
var errPrivate = errors.New("a private network address")

// egress is the Browser's forward proxy.
type egress struct {
	b        *Browser
	ln       net.Listener
	srv      *http.Server
	rp       *httputil.ReverseProxy
	upstream *Proxy // the user's proxy (Options.Proxy), nil: direct

	mu      sync.Mutex
	tunnels map[net.Conn]bool // open CONNECT tunnels, closed with the egress
	wg      sync.WaitGroup    // tunnels' copiers
	closed  bool
	// failed is the latest failure to connect to each host:port, as
	// Chromium would name it, for goto's error (explain).
	failed map[string]string
	// refused counts the refusals since the last summary, by host.
	refused map[string]int
	order   []string // hosts in the order of their first refusal
}

// startEgress listens on a loopback port and serves until close.
func startEgress(b *Browser) (*egress, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("browser: starting the egress proxy: %w", err)
	}
	e := &egress{b: b, ln: ln, tunnels: map[net.Conn]bool{}, refused: map[string]int{}, failed: map[string]string{}}
	if b.opts.proxy.Server != "" {
		p := b.opts.proxy
		e.upstream = &p
	}
	tr := &http.Transport{
		DialContext:           e.dialDirect,
		ForceAttemptHTTP2:     false,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   egressDialBudget,
		ResponseHeaderTimeout: 0, // a page may wait long for an answer; the loop bounds the page
		DisableCompression:    true,
	}
	if e.upstream != nil {
		u, err := e.upstreamURL()
		if err != nil {
			ln.Close()
			return nil, err
		}
		tr.Proxy = http.ProxyURL(u)
		tr.DialContext = (&net.Dialer{Timeout: egressDialBudget}).DialContext
		if strings.HasPrefix(u.Scheme, "socks") {
			tr.Proxy = nil
			tr.DialContext = e.dialUpstream
		}
	}
	e.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = pr.In.URL
			pr.Out.Host = pr.In.Host
			pr.Out.Header.Del("Proxy-Authorization")
		},
		Transport:     tr,
		FlushInterval: -1, // event streams arrive as they are sent
		ErrorLog:      discardLog,
		ErrorHandler:  e.forwardFailed,
	}
	e.srv = &http.Server{Handler: e, ReadHeaderTimeout: egressHeaderBudget, ErrorLog: discardLog}
	b.wg.Go(func() { _ = e.srv.Serve(ln) })
	return e, nil
}

// url is the proxy's address for Chromium.
func (e *egress) url() string { return "http://" + e.ln.Addr().String() }

// close stops serving, ends the tunnels and waits for them.
func (e *egress) close() {
	e.mu.Lock()
	e.closed = true
	for c := range e.tunnels {
		c.Close()
	}
	e.mu.Unlock()
	_ = e.srv.Close()
	e.rp.Transport.(*http.Transport).CloseIdleConnections()
	e.wg.Wait()
}

func (e *egress) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if quiet(r.Host) {
		// Chromium's own account calls (launcher.QuietHost): no page's.
		http.Error(w, "", http.StatusForbidden)
		return
	}
	if r.Method == http.MethodConnect {
		e.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() || r.URL.Host == "" {
		http.Error(w, "webagent: this is the browser's proxy; it serves proxy requests only", http.StatusBadRequest)
		return
	}
	if why := e.allow(r.Context(), r.URL); why != "" {
		e.refuse(r.Method, r.URL.String(), why)
		http.Error(w, "refused by webagent: "+why, http.StatusForbidden)
		return
	}
	e.rp.ServeHTTP(w, r)
}

// forwardFailed answers a request the egress could not forward.
func (e *egress) forwardFailed(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errPrivate) {
		why := privateWhy(r.URL.Hostname())
		e.refuse(r.Method, r.URL.String(), why)
		http.Error(w, "refused by webagent: "+why, http.StatusForbidden)
		return
	}
	w.WriteHeader(http.StatusBadGateway)
}

// tunnel carries a CONNECT (https, wss, and ws through a proxy): checked,
// dialled, then bytes both ways until either side ends.
func (e *egress) tunnel(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	u := &url.URL{Scheme: "https", Host: host}
	if _, port, _ := net.SplitHostPort(host); port == "80" {
		u.Scheme = "http"
	}
	shown := u.Scheme + "://" + host
	if why := e.allow(r.Context(), u); why != "" {
		e.refuse(r.Method, shown, why)
		http.Error(w, "refused by webagent: "+why, http.StatusForbidden)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), egressDialBudget)
	defer cancel()
	var up net.Conn
	var err error
	if e.upstream != nil {
		up, err = e.dialUpstream(ctx, "tcp", host)
	} else {
		up, err = e.dialDirect(ctx, "tcp", host)
	}
	if errors.Is(err, errPrivate) {
		why := privateWhy(u.Hostname())
		e.refuse(r.Method, shown, why)
		http.Error(w, "refused by webagent: "+why, http.StatusForbidden)
		return
	}
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	down, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !e.track(up, down) {
		return
	}
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		e.untrack(up, down)
		return
	}
	e.wg.Go(func() {
		defer e.untrack(up, down)
		done := make(chan struct{}, 2)
		go func() { _, _ = io.Copy(up, buf); closeWrite(up); done <- struct{}{} }()
		go func() { _, _ = io.Copy(down, up); closeWrite(down); done <- struct{}{} }()
		<-done
		<-done
	})
}

// quiet reports whether host:port is under .invalid (RFC 6761), where
// nothing is and where Chromium's own calls are sent.
func quiet(hostport string) bool {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	return h == "invalid" || strings.HasSuffix(h, ".invalid")
}

// closeWrite half-closes a connection when it can, else closes it.
func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		return
	}
	c.Close()
}

func (e *egress) track(cs ...net.Conn) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		e.tunnels[c] = true
	}
	return true
}

func (e *egress) untrack(cs ...net.Conn) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(e.tunnels, c)
	}
}

// allow says why the Browser's limits refuse a request to u, "" when they
// let it through. The private network guard is left to the dialler, which
// sees the address; through the user's proxy, which resolves names itself,
// it is checked here by resolving the name.
func (e *egress) allow(ctx context.Context, u *url.URL) string {
	g := &e.b.guard
	g.mu.Lock()
	p := g.policy
	g.mu.Unlock()
	if p == nil {
		return ""
	}
	if why := p.CheckDomains(u); why != "" {
		return why
	}
	if e.upstream == nil || p.AllowPrivateNetwork || p.Named(u) {
		return ""
	}
	private, err := g.private(ctx, u.Hostname())
	switch {
	case err != nil:
		return fmt.Sprintf("the address of %s could not be resolved (%v)", u.Hostname(), err)
	case private:
		return privateWhy(u.Hostname())
	}
	return ""
}

// guarded reports whether the private network guard applies to host.
func (e *egress) guarded(host string) bool {
	g := &e.b.guard
	g.mu.Lock()
	p := g.policy
	g.mu.Unlock()
	if p == nil || p.AllowPrivateNetwork {
		return false
	}
	return !p.Named(&url.URL{Scheme: "http", Host: host})
}

func privateWhy(host string) string {
	return fmt.Sprintf("%s is on a private network (loopback, LAN, link-local or metadata address) and was not named by the user", host)
}

// dialDirect connects to a site, refusing a private address the guard
// keeps the agent from (errPrivate).
func (e *egress) dialDirect(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, _ := net.SplitHostPort(addr)
	d := &net.Dialer{Timeout: egressDialBudget}
	if e.guarded(host) {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || privateAddr(ap.Addr()) {
				return errPrivate
			}
			return nil
		}
	}
	c, err := d.DialContext(ctx, network, addr)
	if err != nil && !errors.Is(err, errPrivate) {
		e.fail(addr, err)
	}
	return c, err
}

// maxFailures bounds the failures kept for explain.
const maxFailures = 64

// fail notes why a connection to addr failed.
func (e *egress) fail(addr string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.failed) >= maxFailures {
		clear(e.failed)
	}
	e.failed[addr] = netErrorName(err)
}

// explain turns Chromium's account of a document that came through the
// egress unloaded (the tunnel failed, the proxy's answer was an error) into
// the network error behind it, as Chromium would name it without a proxy;
// "" when the egress knows of none.
func (e *egress) explain(rawURL, errText string) string {
	if e == nil || !(strings.Contains(errText, "ERR_TUNNEL_CONNECTION_FAILED") || strings.Contains(errText, "ERR_HTTP_RESPONSE_CODE_FAILURE")) {
		return ""
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	addr := net.JoinHostPort(u.Hostname(), effectivePort(u))
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.failed[addr]
}

// netErrorName names a dial error the way Chromium names its own.
func netErrorName(err error) string {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return "net::ERR_NAME_NOT_RESOLVED"
	case errors.As(err, &dns):
		return "net::ERR_NAME_RESOLUTION_FAILED"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "net::ERR_CONNECTION_REFUSED"
	case errors.Is(err, syscall.ECONNRESET):
		return "net::ERR_CONNECTION_RESET"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "net::ERR_ADDRESS_UNREACHABLE"
	case errors.As(err, &ne) && ne.Timeout():
		return "net::ERR_CONNECTION_TIMED_OUT"
	}
	return "net::ERR_CONNECTION_FAILED"
}

// effectivePort is u's port, or its scheme's.
func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "ws") {
		return "80"
	}
	return "443"
}

// upstreamURL is the user's proxy with its credentials.
func (e *egress) upstreamURL() (*url.URL, error) {
	u, err := url.Parse(e.upstream.Server)
	if err != nil {
		return nil, fmt.Errorf("browser: the proxy %s: %w", redactProxy(e.upstream.Server), err)
	}
	if e.upstream.Username != "" {
		u.User = url.UserPassword(e.upstream.Username, e.upstream.Password)
	}
	return u, nil
}

// dialUpstream opens a tunnel to addr through the user's proxy: CONNECT
// for an http or https proxy, the SOCKS handshake for a SOCKS one.
func (e *egress) dialUpstream(ctx context.Context, _, addr string) (net.Conn, error) {
	u, err := e.upstreamURL()
	if err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: egressDialBudget}
	c, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, fmt.Errorf("reaching the proxy %s: %w", u.Host, err)
	}
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	switch u.Scheme {
	case "https":
		tc := tls.Client(c, &tls.Config{ServerName: u.Hostname()})
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return nil, fmt.Errorf("the proxy %s: %w", u.Host, err)
		}
		c = tc
		fallthrough
	case "http":
		err = connectThrough(c, addr, e.upstream)
	case "socks5":
		err = socks5Connect(c, addr)
	case "socks4":
		err = socks4Connect(ctx, c, addr)
	default:
		err = fmt.Errorf("the proxy scheme %q is not supported", u.Scheme)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("through the proxy %s: %w", u.Host, err)
	}
	_ = c.SetDeadline(time.Time{})
	return c, nil
}

// connectThrough asks an http proxy for a tunnel to addr.
func connectThrough(c net.Conn, addr string, p *Proxy) error {
	req := "CONNECT " + addr + " HTTP/1.1\r\nHost: " + addr + "\r\n"
	if p.Username != "" {
		req += "Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(p.Username+":"+p.Password)) + "\r\n"
	}
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		return err
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(&oneByte{c}, 1), nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("CONNECT %s: %s", addr, resp.Status)
	}
	return nil
}

// oneByte reads one byte at a time, so that reading the proxy's answer
// takes nothing of the tunnel's first bytes.
type oneByte struct{ c net.Conn }

func (o *oneByte) Read(p []byte) (int, error) { return o.c.Read(p[:min(1, len(p))]) }

// socks5Connect asks a SOCKS5 proxy (no authentication) for addr.
func socks5Connect(c net.Conn, addr string) error {
	host, port, err := splitPort(addr)
	if err != nil {
		return err
	}
	if _, err := c.Write([]byte{5, 1, 0}); err != nil {
		return err
	}
	var hello [2]byte
	if _, err := io.ReadFull(c, hello[:]); err != nil {
		return err
	}
	if hello[0] != 5 || hello[1] != 0 {
		return errors.New("the SOCKS5 proxy wants an authentication webagent does not offer")
	}
	if len(host) > 255 {
		return errors.New("the host name is too long for SOCKS5")
	}
	req := append([]byte{5, 1, 0, 3, byte(len(host))}, host...)
	req = append(req, byte(port>>8), byte(port))
	if _, err := c.Write(req); err != nil {
		return err
	}
	var head [4]byte
	if _, err := io.ReadFull(c, head[:]); err != nil {
		return err
	}
	if head[1] != 0 {
		return fmt.Errorf("the SOCKS5 proxy refused %s (code %d)", addr, head[1])
	}
	var skip int
	switch head[3] {
	case 1:
		skip = 4 + 2
	case 4:
		skip = 16 + 2
	case 3:
		var n [1]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return err
		}
		skip = int(n[0]) + 2
	default:
		return errors.New("the SOCKS5 proxy answered in a form webagent does not read")
	}
	_, err = io.ReadFull(c, make([]byte, skip))
	return err
}

// socks4Connect asks a SOCKS4 proxy for addr, by name (SOCKS4a).
func socks4Connect(_ context.Context, c net.Conn, addr string) error {
	host, port, err := splitPort(addr)
	if err != nil {
		return err
	}
	req := []byte{4, 1, byte(port >> 8), byte(port), 0, 0, 0, 1, 0}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() {
		ip := a.As4()
		copy(req[4:8], ip[:])
	} else {
		req = append(append(req, host...), 0)
	}
	if _, err := c.Write(req); err != nil {
		return err
	}
	var resp [8]byte
	if _, err := io.ReadFull(c, resp[:]); err != nil {
		return err
	}
	if resp[1] != 0x5a {
		return fmt.Errorf("the SOCKS4 proxy refused %s (code %d)", addr, resp[1])
	}
	return nil
}

func splitPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	var port int
	if _, err := fmt.Sscanf(p, "%d", &port); err != nil || port <= 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port in %q", addr)
	}
	return host, port, nil
}

// refuse counts a refused request and records it for the trace.
func (e *egress) refuse(method, u, why string) {
	host := u
	if pu, err := url.Parse(u); err == nil && pu.Host != "" {
		host = pu.Host
	}
	e.mu.Lock()
	if e.refused[host] == 0 {
		e.order = append(e.order, host)
	}
	e.refused[host]++
	e.mu.Unlock()
	e.b.log.Debug("request refused", "method", method, "url", shortURL(u), "why", why)
	if e.b.opts.RecordActivity {
		e.b.activity.addRefused(contract.NetEntry{
			Method: method, URL: u, Start: time.Now().UnixMilli(),
			Error: "refused by webagent: " + why,
		})
	}
}

// summary says, in one line, how many requests were refused since the last
// summary and to which hosts; "" when none.
func (e *egress) summary() string {
	if e == nil {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.order) == 0 {
		return ""
	}
	total := 0
	for _, n := range e.refused {
		total += n
	}
	hosts := slices.Clone(e.order)
	parts := make([]string, 0, maxRefusalHosts+1)
	for i, h := range hosts {
		if i == maxRefusalHosts {
			parts = append(parts, fmt.Sprintf("%d more hosts", len(hosts)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", h, e.refused[h]))
	}
	clear(e.refused)
	e.order = e.order[:0]
	what := fmt.Sprintf("%d requests to hosts outside your limits were", total)
	if total == 1 {
		what = "1 request to a host outside your limits was"
	}
	return fmt.Sprintf("%s refused: %s", what, strings.Join(parts, ", "))
}
