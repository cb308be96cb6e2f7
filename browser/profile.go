package browser

import (
	"context"
	"time"

	"github.com/chromedp/cdproto"
	cdpbrowser "github.com/chromedp/cdproto/browser"
)

// gracefulCloseTimeout bounds a persistent profile's graceful close, after
// which the browser is killed.
const gracefulCloseTimeout = 5 * time.Second

// closeGracefully asks a browser with a persistent profile to close
// (Browser.close), so that it writes its cookies and storage to the
// profile, and waits for it to exit, at most gracefulCloseTimeout;
// closeSession kills what is left. chromedp sends Browser.close only to a
// browser it started itself, so the command is written on the pipe
// directly, with an id of its own that chromedp's reader ignores.
func (b *Browser) closeGracefully(s *session) {
	if s.proc == nil || s.pipe == nil || !s.proc.Alive() {
		return
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), gracefulCloseTimeout)
	defer cancel()
	if err := s.pipe.Write(ctx, &cdproto.Message{ID: closeID, Method: cdpbrowser.CommandClose}); err != nil {
		b.log.Warn("asking the browser to close; killing it (the profile may miss the last changes)", "dir", s.proc.Profile, "error", err)
		return
	}
	select {
	case <-s.proc.Done():
		b.log.Debug("browser closed gracefully", "took", time.Since(start))
	case <-ctx.Done():
		b.log.Warn("the browser did not close within 5s; killing it (the profile may miss the last changes)", "dir", s.proc.Profile)
	}
}

// closeID is the id of the Browser.close command closeGracefully writes,
// far above those chromedp numbers its commands with (an int32: Chromium
// refuses larger ids).
const closeID = 1 << 30
