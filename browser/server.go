package browser

import (
	"context"
	"log/slog"
	"maps"

	"github.com/webagent/webagent/browser/launcher"
)

// Server is a headless Chromium that listens for DevTools connections on a
// loopback port, so that many Browsers can share one process, each in a
// browser context of its own:
//
//	srv, err := browser.StartServer(ctx, browser.Options{})
//	b, err := browser.Launch(ctx, browser.Options{CDPURL: srv.URL, Isolated: true})
//
// Attaching a tab this way costs a fraction of launching a Chromium. The
// eval harness runs one Server per worker.
type Server struct {
	// URL is the browser's DevTools WebSocket address
	// (ws://127.0.0.1:PORT/devtools/browser/ID).
	URL string

	proc *launcher.Process
}

// StartServer starts Chromium with a fresh profile and waits, until ctx
// ends, for its DevTools address. Of opts it uses ChromePath, Headful, Width
// and Height, UserAgent and PageTools. It is an ordinary browser (ordinary.go), as a
// launched one is. The process dies with this one, even on SIGKILL.
func StartServer(ctx context.Context, opts Options) (*Server, error) {
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = defaultWidth, defaultHeight
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	flags := launcher.ServerFlags(!opts.Headful)
	ordinary, _ := ordinaryFlags(ctx, opts, log)
	maps.Copy(flags, ordinary)
	if opts.UserAgent != "" {
		flags["user-agent"] = opts.UserAgent
	}
	if opts.PageTools {
		flags["enable-features"] = launcher.PageToolsFeature
	}
	maps.Copy(flags, opts.launchFlags)
	p, err := launcher.Start(ctx, launcher.Config{Path: opts.ChromePath, Flags: flags, Logger: opts.Logger})
	if err != nil {
		return nil, err
	}
	return &Server{URL: p.URL, proc: p}, nil
}

// Alive reports whether the process still runs.
func (s *Server) Alive() bool { return s.proc.Alive() }

// PID is the browser process's id.
func (s *Server) PID() int { return s.proc.PID() }

// Close kills Chromium and its helpers, waits for it to exit and removes
// the profile. It is idempotent.
func (s *Server) Close() error { return s.proc.Close() }
