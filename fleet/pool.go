package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/webagent/webagent/browser"
)

// pool is a worker's browsers: one Chromium per concurrent run, each run
// in a fresh browser context of its own (a tab attached with Isolated). A
// Chromium is started when first needed and again when it died.
type pool struct {
	opts  browser.Options
	log   *slog.Logger
	slots chan *slot
}

type slot struct {
	srv *browser.Server
}

// startTimeout bounds the start of one Chromium.
const startTimeout = 60 * time.Second

func newPool(opts browser.Options, n int, log *slog.Logger) *pool {
	opts.CDPURL = ""
	p := &pool{opts: opts, log: log, slots: make(chan *slot, n)}
	for range n {
		p.slots <- &slot{}
	}
	return p
}

// take waits for a free slot and returns the DevTools address of its
// Chromium, started if need be, and the release of the slot.
func (p *pool) take(ctx context.Context) (string, func(), error) {
	var s *slot
	select {
	case s = <-p.slots:
	case <-ctx.Done():
		return "", nil, context.Cause(ctx)
	}
	release := func() { p.slots <- s }
	if s.srv != nil && !s.srv.Alive() {
		p.log.Warn("a worker's Chromium died; starting a new one")
		_ = s.srv.Close()
		s.srv = nil
	}
	if s.srv == nil {
		sctx, cancel := context.WithTimeout(ctx, startTimeout)
		srv, err := browser.StartServer(sctx, p.opts)
		cancel()
		if err != nil {
			release()
			return "", nil, fmt.Errorf("starting Chromium: %w", err)
		}
		s.srv = srv
	}
	return s.srv.URL, release, nil
}

// close stops every Chromium; runs must have ended.
func (p *pool) close() {
	for range cap(p.slots) {
		s := <-p.slots
		if s.srv != nil {
			_ = s.srv.Close()
		}
	}
}
