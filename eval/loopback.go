package eval

import (
	"fmt"
	"net"
	"net/http"
	"time"
)

// loopback is an HTTP server on a free port, of 127.0.0.1 by default.
type loopback struct {
	URL string
	srv *http.Server
	ln  net.Listener
}

// serveOn serves h on a free port of host ("" is 127.0.0.1).
func serveOn(host string, h http.Handler) (*loopback, error) {
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", host, err)
	}
	l := &loopback{URL: "http://" + ln.Addr().String(), srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}, ln: ln}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// Close stops the server and every connection, hanging handlers included
// (their request contexts end).
func (l *loopback) Close() { _ = l.srv.Close() }
