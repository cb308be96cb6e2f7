package liveview

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Config configures a Server.
type Config struct {
	// Addr is where to listen: host:port; "127.0.0.1:0" (a free loopback
	// port) if empty. An address that is not loopback needs CertFile and
	// KeyFile: the tokens then travel over TLS only.
	Addr string
	// CertFile and KeyFile serve HTTPS (PEM files).
	CertFile, KeyFile string
	// Logger receives the server's diagnostics, never a token; nil logs
	// nothing.
	Logger *slog.Logger
	// OnRevoke is told the new URLs of a View whose links a viewer
	// revoked from its page (the person who started the run needs them).
	OnRevoke func(v *View, view, control string)
	// Register lists the server's Views in this machine's registry
	// (List), for `webagent console`, while they are open.
	Register bool
	// PublicURL is the base of the Views' URLs (scheme://host[:port],
	// no path) when Addr is not how people reach the server: an
	// unspecified address (0.0.0.0, whose URLs would otherwise name
	// 127.0.0.1), a name its certificate carries, a port forwarded. ""
	// derives the base from Addr.
	PublicURL string
}

// ErrTLSRequired: Config.Addr is not a loopback address and no TLS files
// were given.
var ErrTLSRequired = errors.New("liveview: a live view on an address other than loopback needs TLS: give a certificate and its key (PEM files)")

// Server serves the live views of this process on one address.
type Server struct {
	cfg  Config
	log  *slog.Logger
	ln   net.Listener
	http *http.Server
	base string // scheme://host:port
	done chan struct{}

	mu    sync.Mutex
	views map[string]*View
	seq   int
}

//go:embed page
var pageFiles embed.FS

// Start listens on cfg.Addr and serves until Close.
func Start(cfg Config) (*Server, error) {
	addr := cfg.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("liveview: the address %q is not host:port: %w", addr, err)
	}
	tls := cfg.CertFile != "" || cfg.KeyFile != ""
	if tls && (cfg.CertFile == "" || cfg.KeyFile == "") {
		return nil, errors.New("liveview: TLS needs both a certificate and its key")
	}
	if !loopback(host) && !tls {
		return nil, ErrTLSRequired
	}
	public, err := publicBase(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("liveview: %w", err)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, ln: ln, views: map[string]*View{}, done: make(chan struct{})}
	scheme := "http"
	if tls {
		scheme = "https"
	}
	a := ln.Addr().(*net.TCPAddr)
	shown := host
	if a.IP.IsUnspecified() || host == "" {
		shown = "127.0.0.1"
	}
	s.base = fmt.Sprintf("%s://%s", scheme, net.JoinHostPort(shown, fmt.Sprint(a.Port)))
	if public != "" {
		s.base = public
	}
	s.http = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
	go func() {
		defer close(s.done)
		var err error
		if tls {
			err = s.http.ServeTLS(ln, cfg.CertFile, cfg.KeyFile)
		} else {
			err = s.http.Serve(ln)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("the live view server stopped", "error", err)
		}
	}()
	return s, nil
}

// publicBase checks Config.PublicURL and returns it without a trailing
// slash.
func publicBase(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("liveview: the public URL %q: %w", raw, err)
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return "", fmt.Errorf("liveview: the public URL %q is not scheme://host[:port] (http or https)", raw)
	case strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "", fmt.Errorf("liveview: the public URL %q has more than scheme://host[:port]: the view is served at the server's root", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// loopback reports whether host names this machine's loopback.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Base is the server's scheme://host:port.
func (s *Server) Base() string { return s.base }

// Open makes a new View; its URLs work until it is closed.
func (s *Server) Open(o Options) *View {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	v := &View{srv: s, id: newToken()[:10], opts: o, viewers: map[*viewer]struct{}{},
		questions: map[int]*pending{}, done: make(chan struct{})}
	v.tok.ttl = o.TokenTTL
	v.tok.rotate()
	v.lease = newLease(o.Idle, v.controlChanged)
	v.started = time.Now()
	s.views[v.id] = v
	v.register()
	return v
}

func (s *Server) remove(v *View) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.views, v.id)
}

func (s *Server) view(id string) *View {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.views[id]
}

// Close closes every View and the server, within ctx.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	vs := make([]*View, 0, len(s.views))
	for _, v := range s.views {
		vs = append(vs, v)
	}
	s.mu.Unlock()
	for _, v := range vs {
		v.Close()
	}
	// Every View is closed, its viewers told: no request left is worth
	// waiting for (a page's files, or a browser's speculative connection
	// that never sends one, which Shutdown would wait 5 s for).
	err := s.http.Close()
	select {
	case <-s.done:
	case <-ctx.Done():
		err = errors.Join(err, ctx.Err())
	}
	return err
}

// routes: the page of a view (/v/ID?t=TOKEN), its WebSocket
// (/v/ID/ws?t=TOKEN), and the page's own files, which hold no data.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(pageFiles, "page")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /v/{id}", s.serveView)
	mux.HandleFunc("GET /v/{id}/ws", s.serveSocket)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "webagent live view: open the URL the command printed, with its token", http.StatusNotFound)
	})
	return headers(mux)
}

// headers: no caching, no framing (a control page in a frame could be
// clicked through), no referrer (the URL holds the token), and only the
// page's own files.
func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; connect-src 'self'; frame-ancestors 'none'")
		h.ServeHTTP(w, r)
	})
}

// authorize returns the View and the role of the request's token, or
// writes 401 (no token) or 403 (a wrong, revoked or expired one, or no
// such view) and returns nil.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) (*View, role) {
	tok := r.URL.Query().Get("t")
	if tok == "" {
		http.Error(w, "a token is needed: open the URL the command printed", http.StatusUnauthorized)
		return nil, roleNone
	}
	v := s.view(r.PathValue("id"))
	if v == nil {
		http.Error(w, "this link does not work (wrong, revoked or expired, or the run ended)", http.StatusForbidden)
		return nil, roleNone
	}
	ro := v.tok.check(tok)
	if ro == roleNone {
		http.Error(w, "this link does not work (wrong, revoked or expired, or the run ended)", http.StatusForbidden)
		return nil, roleNone
	}
	return v, ro
}

func (s *Server) serveView(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("t") == "" {
		// A reload: the page moved its token out of the address bar into
		// the tab's session storage; this 401 page puts it back, and
		// says what to do where the tab has none.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(reloadPage))
		return
	}
	if v, _ := s.authorize(w, r); v == nil {
		return
	}
	page, err := pageFiles.ReadFile("page/view.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(page)
}

func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	v, ro := s.authorize(w, r)
	if v == nil {
		return
	}
	// Accept refuses a page of another origin (403): only this server's
	// own page opens the socket.
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	newViewer(v, conn, ro).serve()
}

// reloadPage answers a view's URL without its token.
const reloadPage = `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>webagent live view</title>
<p id="why">A token is needed: open the URL the command printed.</p><script src="/static/reload.js"></script>`

// revokeFromPage revokes the links from a viewer's request and tells
// Config.OnRevoke and the View's Options.OnRevoke the new ones.
func (v *View) revokeFromPage() {
	view, control := v.Revoke()
	if f := v.srv.cfg.OnRevoke; f != nil {
		f(v, view, control)
	}
	if f := v.opts.OnRevoke; f != nil {
		f(view, control)
	}
}
