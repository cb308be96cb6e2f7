package eval

import (
	"context"
	"sync"
	"time"

	"github.com/webagent/webagent/browser"
)

// worker is one worker's browsers: its local Chromium, started on first
// use; the tab for its next run, opened while the current run goes on;
// and the tabs being closed in the background.
type worker struct {
	id     int
	chrome *browser.Server
	spare  chan spareTab
	bg     sync.WaitGroup
}

type spareTab struct {
	b   *browser.Browser
	err error
	cdp string
}

// prefetch opens the tab for the next run in the background.
func (w *worker) prefetch(ctx context.Context, opts browser.Options) {
	ch := make(chan spareTab, 1)
	w.spare = ch
	go func() {
		lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		b, err := browser.Launch(lctx, opts)
		ch <- spareTab{b, err, opts.CDPURL}
	}()
}

// take returns the prefetched tab if it is in the browser at cdp.
func (w *worker) take(cdp string) *browser.Browser {
	if w.spare == nil {
		return nil
	}
	s := <-w.spare
	w.spare = nil
	if s.err == nil && s.cdp == cdp {
		return s.b
	}
	if s.b != nil {
		w.closeLater(s.b)
	}
	return nil
}

func (w *worker) closeLater(b *browser.Browser) { w.bg.Go(func() { _ = b.Close() }) }

// close closes every tab and the worker's Chromium, and waits for them.
// After ctx ended (a signal), the Chromium is killed first: closing its
// tabs one by one would only delay the exit, and they go with it.
func (w *worker) close(ctx context.Context) {
	if ctx.Err() != nil && w.chrome != nil {
		w.chrome.Close()
	}
	if b := w.take(""); b != nil {
		_ = b.Close()
	}
	w.bg.Wait()
	if w.chrome != nil {
		w.chrome.Close()
		w.chrome = nil
	}
}
