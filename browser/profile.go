package browser

import (
	"context"
	"time"

	"github.com/chromedp/chromedp"
)

// gracefulCloseTimeout bounds a persistent profile's graceful close, after
// which the browser is killed.
const gracefulCloseTimeout = 5 * time.Second

// closeGracefully asks a browser with a persistent profile to close, so
// that it writes its cookies and storage to the profile, and waits for it
// to exit, at most gracefulCloseTimeout; closeSession kills what is left.
func (b *Browser) closeGracefully(s *session) {
	if s.ctx == nil || s.proc == nil || !s.alive() {
		return
	}
	start := time.Now()
	deadline := time.NewTimer(gracefulCloseTimeout)
	defer deadline.Stop()
	// chromedp.Cancel sends Browser.close (chromedp refuses it as a plain
	// command) and waits for the process, bounded by cctx; its wait may
	// outlast the process while helpers hold its output open, until
	// closeSession kills them.
	cctx, ccancel := context.WithTimeout(s.ctx, gracefulCloseTimeout)
	b.wg.Go(func() {
		defer ccancel()
		if err := chromedp.Cancel(cctx); err != nil {
			b.log.Debug("closing the browser gracefully", "error", err)
		}
	})
	select {
	case <-s.lost.Done(): // the process exited, or its connection closed
	case <-deadline.C:
		b.log.Warn("the browser did not close within 5s; killing it (the profile may miss the last changes)", "dir", s.proc.Profile)
		return
	}
	select { // the connection may close first
	case <-s.proc.Done():
		b.log.Debug("browser closed gracefully", "took", time.Since(start))
	case <-deadline.C:
	}
}
