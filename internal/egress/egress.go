// Package egress decides where the browser may go, and holds every request
// of Chromium to it. Its Guard is the one decision: the schemes a document
// may have, the allowed and blocked domains and the private network guard
// of contract.NavigationPolicy, the DNS look-up and the refusal's words;
// package browser's goto and request interceptor ask it about documents,
// and the Proxy, the browser's forward proxy on loopback that every
// request leaves through, asks it about each request, going out directly
// or through the user's own proxy. The proxy counts what it refuses, for
// the notices the model reads, and keeps Chromium's own background calls
// out of that count: they are refused like any other request, but they are
// no page's doing.
//
// Chromium sends the proxy every host name unresolved (no DNS of its own),
// so the private network guard is checked where the connection is made, on
// the address dialled: a name that resolves to a public address when
// checked and to a private one when used (DNS rebinding) is refused.
// Through the user's proxy, which resolves names itself, the guard resolves
// the name first.
//
// The package is internal: how webagent keeps a page within its limits is
// package browser's business, not an API of its own. It needs no browser
// to run, so its tests use net/http clients and httptest servers alone.
package egress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Bounds of the egress's own waits.
const (
	dialBudget   = 30 * time.Second // a connection to a site, or to the user's proxy
	headerBudget = 30 * time.Second // a request's head from Chromium
)

// Upstream is the user's proxy, which the egress goes out through.
type Upstream struct {
	// Server is scheme://host:port (http, https, socks4 or socks5),
	// without credentials.
	Server             string
	Username, Password string
}

// Config is what an egress is started with.
type Config struct {
	// Guard holds the user's limits, read at each request; the browser's
	// goto and interceptor ask the same Guard. Nil lets every request
	// through.
	Guard *Guard
	// Upstream is the user's proxy; nil: the egress connects directly.
	Upstream *Upstream
	// Logger receives a debug line for each refusal; nil: none.
	Logger *slog.Logger
	// OnRefuse, if set, is told of each refusal of a page's request (for
	// the trace), on the goroutine serving that request. Chromium's own
	// calls (Own) are not told.
	OnRefuse func(Refusal)
}

// discardLog keeps the proxy's own complaints (a page that hung up
// mid-answer) out of the program's output.
var discardLog = log.New(io.Discard, "", 0)

// errPrivate is the dialler's refusal of a private address.
var errPrivate = errors.New("a private network address")

// Proxy is a running egress. Its methods are safe for concurrent use.
type Proxy struct {
	cfg Config
	log *slog.Logger
	up  *url.URL // cfg.Upstream with its credentials; nil: direct
	ln  net.Listener
	srv *http.Server
	rp  *httputil.ReverseProxy
	wg  sync.WaitGroup // the server and the tunnels' copiers

	mu      sync.Mutex
	tunnels map[net.Conn]bool // open CONNECT tunnels, closed with the egress
	closed  bool
	// failed is the latest failure to connect to each host:port, as
	// Chromium would name it, for Explain.
	failed map[string]string
	// refused counts the refusals since the last Summary, by host.
	refused map[string]int
	order   []string // hosts in the order of their first refusal
	// claimed are Chromium's service hosts a page asked for (Claim).
	claimed map[string]bool
}

// Start listens on a loopback port and serves until Close.
func Start(cfg Config) (*Proxy, error) {
	e := &Proxy{
		cfg: cfg, log: cfg.Logger,
		tunnels: map[net.Conn]bool{}, failed: map[string]string{},
		refused: map[string]int{}, claimed: map[string]bool{},
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	tr := &http.Transport{
		DialContext:           e.dialDirect,
		ForceAttemptHTTP2:     false,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   dialBudget,
		ResponseHeaderTimeout: 0, // a page may wait long for an answer; the loop bounds the page
		DisableCompression:    true,
	}
	if cfg.Upstream != nil {
		u, err := upstreamURL(cfg.Upstream)
		if err != nil {
			return nil, err
		}
		e.up = u
		tr.Proxy = http.ProxyURL(u)
		tr.DialContext = (&net.Dialer{Timeout: dialBudget}).DialContext
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("egress: listening: %w", err)
	}
	e.ln = ln
	e.srv = &http.Server{Handler: e, ReadHeaderTimeout: headerBudget, ErrorLog: discardLog}
	e.wg.Go(func() { _ = e.srv.Serve(ln) })
	return e, nil
}

// URL is the proxy's address, for Chromium's --proxy-server.
func (e *Proxy) URL() string { return "http://" + e.ln.Addr().String() }

// Close stops serving, ends the tunnels and waits for them.
func (e *Proxy) Close() {
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

// ServeHTTP answers one request of Chromium's: a CONNECT or a plain
// request in proxy form.
func (e *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if quiet(r.Host) {
		// Chromium's own account calls (launcher.QuietHost): no page's,
		// and nothing is there.
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
		e.refuse(w, r.Method, r.URL.String(), why)
		return
	}
	e.rp.ServeHTTP(w, r)
}

// forwardFailed answers a request the egress could not forward.
func (e *Proxy) forwardFailed(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errPrivate) {
		e.refuse(w, r.Method, r.URL.String(), privateWhy(r.URL.Hostname()))
		return
	}
	w.WriteHeader(http.StatusBadGateway)
}

// tunnel carries a CONNECT (https, wss, and ws through a proxy): checked,
// dialled, then bytes both ways until either side ends.
func (e *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	u := &url.URL{Scheme: "https", Host: host}
	if _, port, _ := net.SplitHostPort(host); port == "80" {
		u.Scheme = "http"
	}
	shown := u.Scheme + "://" + host
	if why := e.allow(r.Context(), u); why != "" {
		e.refuse(w, r.Method, shown, why)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), dialBudget)
	defer cancel()
	var up net.Conn
	var err error
	if e.up != nil {
		up, err = e.dialUpstream(ctx, "tcp", host)
	} else {
		up, err = e.dialDirect(ctx, "tcp", host)
	}
	if errors.Is(err, errPrivate) {
		e.refuse(w, r.Method, shown, privateWhy(u.Hostname()))
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

// closeWrite half-closes a connection when it can, else closes it.
func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		return
	}
	c.Close()
}

// track notes a tunnel's connections, or closes them when the egress is
// closed already.
func (e *Proxy) track(cs ...net.Conn) bool {
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

func (e *Proxy) untrack(cs ...net.Conn) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(e.tunnels, c)
	}
}
