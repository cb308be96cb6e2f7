package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/webagent/webagent/liveview"
)

// Config configures a console.
type Config struct {
	// Addr is where to listen: host:port; "127.0.0.1:0" (a free loopback
	// port) if empty. An address that is not loopback needs CertFile and
	// KeyFile: the token then travels over TLS only.
	Addr string
	// CertFile and KeyFile serve HTTPS (PEM files).
	CertFile, KeyFile string
	// Dirs are the trace and cache folders whose runs the console lists.
	Dirs []string
	// Replay, when set, makes the command line (the program first) that
	// replays the trace in dir with a live view that registers itself:
	// `webagent replay --live DIR`. Nil: the page only shows the command.
	Replay func(dir string) []string
	// ReplayTimeout bounds one replay the console starts
	// (DefaultReplayTimeout if 0).
	ReplayTimeout time.Duration
	// Logger receives the console's diagnostics, never its token; nil
	// logs nothing.
	Logger *slog.Logger
}

// ErrTLSRequired: Config.Addr is not a loopback address and no TLS files
// were given.
var ErrTLSRequired = errors.New("console: a console on an address other than loopback needs TLS: give a certificate and its key (PEM files)")

// Server is a running console.
type Server struct {
	cfg   Config
	log   *slog.Logger
	token string
	ln    net.Listener
	http  *http.Server
	base  string
	done  chan struct{}
	runs  *catalog
	jobs  *replays
}

//go:embed page
var pageFiles embed.FS

// Start listens on cfg.Addr and serves the console until Close.
func Start(cfg Config) (*Server, error) {
	addr := cfg.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("console: the address %q is not host:port: %w", addr, err)
	}
	tls := cfg.CertFile != "" || cfg.KeyFile != ""
	if tls && (cfg.CertFile == "" || cfg.KeyFile == "") {
		return nil, errors.New("console: TLS needs both a certificate and its key")
	}
	if !loopback(host) && !tls {
		return nil, ErrTLSRequired
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.ReplayTimeout <= 0 {
		cfg.ReplayTimeout = DefaultReplayTimeout
	}
	s := &Server{cfg: cfg, log: log, token: newToken(), ln: ln, done: make(chan struct{}),
		runs: newCatalog(cfg.Dirs), jobs: newReplays(cfg.Replay, cfg.ReplayTimeout, log)}
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
			log.Warn("the console's server stopped", "error", err)
		}
	}()
	return s, nil
}

// loopback reports whether host names this machine's loopback.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// newToken returns 128 random bits, base64url.
func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// URL is the console's page with its token: for the person alone, never
// for a log.
func (s *Server) URL() string { return s.base + "/?t=" + url.QueryEscape(s.token) }

// Base is the server's scheme://host:port.
func (s *Server) Base() string { return s.base }

// Close ends the replays the console started (each within its grace) and
// the server, within ctx.
func (s *Server) Close(ctx context.Context) error {
	s.jobs.close(ctx)
	err := s.http.Shutdown(ctx)
	if err != nil {
		err = errors.Join(err, s.http.Close())
	}
	<-s.done
	return err
}

// routes: the page (/?t=TOKEN), its data (/api/...?t=TOKEN), and the
// page's own files, which hold no data.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(pageFiles, "page")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", s.auth(s.servePage))
	mux.HandleFunc("GET /api/live", s.auth(s.serveLive))
	mux.HandleFunc("GET /api/runs", s.auth(s.serveRuns))
	mux.HandleFunc("GET /api/runs/{id}", s.auth(s.serveRun))
	mux.HandleFunc("GET /api/runs/{id}/shots/{step}", s.auth(s.serveShot))
	mux.HandleFunc("POST /api/runs/{id}/replay", s.auth(s.startReplay))
	mux.HandleFunc("GET /api/replays", s.auth(s.serveReplays))
	return headers(mux)
}

// headers, as a live view's: no caching, no framing, no referrer (the URL
// holds the token), and only the page's own files.
func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'none'")
		h.ServeHTTP(w, r)
	})
}

// auth lets a request with the console's token through; one without gets
// 401, one with a wrong token 403. A POST must also come from the
// console's own page (its Origin, when the browser sends one).
func (s *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := r.URL.Query().Get("t")
		if tok == "" {
			http.Error(w, "a token is needed: open the URL webagent console printed", http.StatusUnauthorized)
			return
		}
		if subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
			http.Error(w, "this link does not work: open the URL webagent console printed (a console's token ends with it)", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost {
			if o := r.Header.Get("Origin"); o != "" && o != s.base {
				http.Error(w, "a request from another site", http.StatusForbidden)
				return
			}
		}
		h(w, r)
	}
}

func (s *Server) servePage(w http.ResponseWriter, _ *http.Request) {
	page, err := pageFiles.ReadFile("page/console.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(page)
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// liveEntry is a live view as the page lists it: the registry's entry,
// and the replay of this console it belongs to, if any.
type liveEntry struct {
	liveview.Entry
	Replay int `json:"replay,omitempty"`
}

func (s *Server) serveLive(w http.ResponseWriter, _ *http.Request) {
	es, err := liveview.List()
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"live": []liveEntry{}, "error": "the live views of this machine cannot be read: " + err.Error()})
		return
	}
	out := make([]liveEntry, 0, len(es))
	for _, e := range es {
		out = append(out, liveEntry{Entry: e, Replay: s.jobs.byPID(e.PID)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"live": out})
}

func (s *Server) serveRuns(w http.ResponseWriter, _ *http.Request) {
	runs, notes := s.runs.list()
	writeJSON(w, http.StatusOK, map[string]any{"dirs": s.runs.dirs, "runs": runs, "notes": notes,
		"replay": s.cfg.Replay != nil, "replay_timeout_s": int(s.cfg.ReplayTimeout.Seconds()), "max_replays": MaxReplays})
}

func (s *Server) serveReplays(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"replays": s.jobs.list()})
}
