package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// catchEvent listens on the tab of ctx for ev until stop is called, and
// delivers on got the first event for which match holds (got holds it
// until read). stop ends the listening and waits for it; it must be called
// once. An event that came before stop is still on got after it.
func catchEvent[E any](ctx context.Context, ev cdp.Event[E], match func(E) bool) (got <-chan E, stop func()) {
	sub, cancel := context.WithCancel(ctx)
	events := chromedp.Events(sub, ev)
	ch := make(chan E, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e, err := range events {
			if err != nil {
				return
			}
			if !match(e) {
				continue
			}
			select {
			case ch <- e:
			default:
			}
		}
	}()
	return ch, func() {
		cancel()
		<-done
	}
}
