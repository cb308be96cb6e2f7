package modelserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Server is an OpenAI-compatible chat-completions server on 127.0.0.1. It
// serves POST /v1/chat/completions (streaming and not), GET /v1/models
// and, streamed, the Anthropic Messages API's POST /v1/messages.
type Server struct {
	responder Responder
	opts      options
	baseURL   string
	srv       *http.Server
	serveDone chan struct{}
	closing   chan struct{} // closed by Close: unblocks every handler
	closeOnce sync.Once
	closeErr  error
	handlers  sync.WaitGroup
	callSeq   atomic.Int64 // tool-call and completion IDs

	mu      sync.Mutex
	closed  bool
	reqs    []*Recorded
	arrived chan struct{} // closed and replaced whenever a request is recorded
}

// previous returns the request recorded before rec, or nil.
func (s *Server) previous(rec *Recorded) *ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec.Index == 0 || rec.Index > len(s.reqs) {
		return nil
	}
	return s.reqs[rec.Index-1].Req
}

// Option configures a Server.
type Option func(*options)

type options struct {
	apiKey   string
	noModels bool
}

// WithAPIKey makes the server require "Authorization: Bearer key" on every
// endpoint and answer 401 "invalid api key" otherwise.
func WithAPIKey(key string) Option { return func(o *options) { o.apiKey = key } }

// WithoutModels makes GET /v1/models answer 404, like servers that do not
// list their models.
func WithoutModels() Option { return func(o *options) { o.noModels = true } }

// Start listens on 127.0.0.1 on a free port and serves r's replies until
// Close.
func Start(r Responder, opts ...Option) (*Server, error) {
	if r == nil {
		return nil, errors.New("modelserver: Start needs a Responder")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("modelserver: listen on loopback: %w", err)
	}
	s := &Server{
		responder: r,
		baseURL:   "http://" + ln.Addr().String() + "/v1",
		serveDone: make(chan struct{}),
		closing:   make(chan struct{}),
		arrived:   make(chan struct{}),
	}
	for _, o := range opts {
		o(&s.opts)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("POST /v1/messages", s.handleMessages)
	mux.HandleFunc("POST /v1/responses", s.handleResponses)
	mux.HandleFunc("POST /v1beta/models/{call}", s.handleGemini)
	s.srv = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() {
		defer close(s.serveDone)
		_ = s.srv.Serve(ln) // returns http.ErrServerClosed after Close
	}()
	return s, nil
}

// BaseURL returns the API root, "http://127.0.0.1:PORT/v1".
func (s *Server) BaseURL() string { return s.baseURL }

// Close stops the server: it closes the listener and every connection,
// unblocks every handler (stalls and drips included) and waits for them to
// return. It is safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.closing)
		s.closeErr = s.srv.Close()
		s.handlers.Wait()
		<-s.serveDone
	})
	return s.closeErr
}

// Requests returns the chat requests received so far, in order of arrival.
// The slice is a copy; it is safe to call concurrently with requests.
func (s *Server) Requests() []*Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Recorded(nil), s.reqs...)
}

// WaitRequest waits until chat request number n (counting from 0) has
// arrived and returns it. It fails when ctx ends or the server is closed
// first.
func (s *Server) WaitRequest(ctx context.Context, n int) (*Recorded, error) {
	for {
		s.mu.Lock()
		if n >= 0 && n < len(s.reqs) {
			r := s.reqs[n]
			s.mu.Unlock()
			return r, nil
		}
		got, closed, arrived := len(s.reqs), s.closed, s.arrived
		s.mu.Unlock()
		if closed {
			return nil, fmt.Errorf("modelserver: server closed after %d requests; request %d never arrived", got, n)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("modelserver: waiting for request %d (%d arrived): %w", n, got, ctx.Err())
		case <-arrived:
		case <-s.closing:
		}
	}
}

// enter registers a handler unless the server is closing.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.handlers.Add(1)
	return true
}

func (s *Server) isClosing() bool {
	select {
	case <-s.closing:
		return true
	default:
		return false
	}
}

func (s *Server) record(req *ChatRequest, h http.Header) *Recorded {
	gone := make(chan struct{})
	rec := &Recorded{Req: req, Header: h, Start: time.Now(), Gone: gone, gone: gone}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec.Index = len(s.reqs)
	s.reqs = append(s.reqs, rec)
	close(s.arrived)
	s.arrived = make(chan struct{})
	return rec
}

func (s *Server) authorized(r *http.Request) bool {
	return s.opts.apiKey == "" || r.Header.Get("Authorization") == "Bearer "+s.opts.apiKey
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeError(w, http.StatusServiceUnavailable, "server_error", "", "modelserver: server is closing", 0)
		return
	}
	defer s.handlers.Done()

	body, err := io.ReadAll(r.Body) // read it all: the server then notices a client that goes away
	req, derr := decodeChatRequest(body)
	if err != nil {
		derr = fmt.Errorf("reading request body: %w", err)
	}
	rec := s.record(req, r.Header.Clone())
	x := &exchange{s: s, w: w, r: r, rec: rec}
	defer rec.finish(false)

	switch {
	case !s.authorized(r):
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key", "invalid api key", 0)
	case derr != nil:
		writeError(w, http.StatusBadRequest, "invalid_request_error", "", "modelserver: "+derr.Error(), 0)
	default:
		t := s.responder.Respond(req)
		if t.Fault == None && t.Raw == nil {
			if ui, ok := uitarsText(t, req); ok {
				t = ui
			}
		}
		x.serve(t)
	}
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	switch {
	case !s.authorized(r):
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key", "invalid api key", 0)
	case s.opts.noModels:
		writeError(w, http.StatusNotFound, "invalid_request_error", "", "modelserver: no model list here", 0)
	default:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"modelserver","object":"model","created":0,"owned_by":"webagent"}]}`)
	}
}

// Recorded is one chat request as the server saw it.
type Recorded struct {
	// Index is the request's position in arrival order, from 0.
	Index int
	// Req is the decoded body (only Raw is set when it did not decode).
	Req *ChatRequest
	// Header is a copy of the request's headers.
	Header http.Header
	// Start is when the request was recorded.
	Start time.Time
	// Gone is closed when the handler finished or saw the client go away.
	Gone <-chan struct{}

	gone       chan struct{}
	once       sync.Once
	clientGone atomic.Bool
	goneAt     atomic.Int64 // unix nanoseconds
}

// ClientGone reports whether the handler saw the client go away (its
// request context ended) before it had written the whole response.
func (r *Recorded) ClientGone() bool { return r.clientGone.Load() }

// GoneAt returns when Gone was closed, or the zero time while it is open.
func (r *Recorded) GoneAt() time.Time {
	ns := r.goneAt.Load()
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

// finish closes Gone once; clientGone says whether the client went away.
func (r *Recorded) finish(clientGone bool) {
	r.once.Do(func() {
		r.clientGone.Store(clientGone)
		r.goneAt.Store(time.Now().UnixNano())
		close(r.gone)
	})
}
