package browser

import (
	"context"
	"time"

	"github.com/chromedp/cdproto"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp/remote"
)

// gracefulCloseTimeout bounds a persistent profile's graceful close, after
// which the browser is killed.
const gracefulCloseTimeout = 5 * time.Second

// closeGracefully asks a browser with a persistent profile to close
// (Browser.close), so that it writes its cookies and storage to the
// profile, and waits for it to exit, at most gracefulCloseTimeout;
// closeSession kills what is left. The command goes over a connection of
// its own: chromedp sends it only for a browser it started itself.
func (b *Browser) closeGracefully(s *session) {
	if s.proc == nil || !s.proc.Alive() {
		return
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), gracefulCloseTimeout)
	defer cancel()
	conn, err := remote.DialContext(ctx, s.proc.URL)
	if err == nil {
		err = conn.Write(ctx, &cdproto.Message{ID: 1, Method: cdpbrowser.CommandClose})
		defer conn.Close()
	}
	if err != nil {
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
