package browser

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/contract"
)

// The screencast a live view shows (package liveview): Chromium's own
// Page.startScreencast on the current tab, every frame acknowledged so the
// next comes, following the current tab as it changes. It runs beside the
// Browser's calls without their sem: it reads the current tab from shown,
// and its commands (start, ack, stop) change nothing a call relies on.

var _ contract.Screencaster = (*Browser)(nil)

// shownTab is the current tab as a screencast reads it: set with the
// Browser's current tab (setCurrent), and a channel closed when it
// changes.
type shownTab struct {
	mu      sync.Mutex
	t       *tab
	changed chan struct{}
	popups  chan contract.ScreenEvent // what PersonInput tells the screencast (castNote)
}

// notes is the channel of what PersonInput tells the screencast.
func (s *shownTab) notes() chan contract.ScreenEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.popups == nil {
		s.popups = make(chan contract.ScreenEvent, 8)
	}
	return s.popups
}

func (s *shownTab) set(t *tab) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.t == t {
		return
	}
	s.t = t
	if s.changed != nil {
		close(s.changed)
	}
	s.changed = make(chan struct{})
}

// get returns the current tab and a channel closed when another becomes
// current.
func (s *shownTab) get() (*tab, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return s.t, s.changed
}

// Defaults of contract.ScreencastOptions.
const (
	castQuality = 60
	// castStopTimeout bounds Page.stopScreencast after the cast's ctx
	// ended.
	castStopTimeout = 2 * time.Second
)

// Screencast implements contract.Screencaster.
func (b *Browser) Screencast(ctx context.Context, o contract.ScreencastOptions, frame func(contract.ScreenFrame), event func(contract.ScreenEvent)) error {
	if o.Quality <= 0 || o.Quality > 100 {
		o.Quality = castQuality
	}
	if o.MaxWidth <= 0 {
		o.MaxWidth = b.width
	}
	if o.MaxHeight <= 0 {
		o.MaxHeight = b.height
	}
	for {
		t, changed := b.shown.get()
		if t != nil && t.dead.Err() == nil {
			event(contract.ScreenEvent{Kind: contract.ScreenTab, Tab: t.id, Text: t.nav.state().url})
			if err := b.castTab(ctx, t, o, changed, frame, event); err != nil && ctx.Err() == nil && b.broken.Err() == nil {
				b.log.Debug("screencast of a tab ended", "tab", t.id, "error", err)
			}
		}
		// Until another tab is current (a dead one is replaced), the
		// browser closes, or the viewers leave.
		var dead <-chan struct{}
		if t != nil {
			dead = t.dead.Done()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-b.broken.Done():
			return fmt.Errorf("%w", context.Cause(b.broken))
		case <-changed:
		case <-dead:
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-b.broken.Done():
				return fmt.Errorf("%w", context.Cause(b.broken))
			case <-changed:
			}
		}
	}
}

// castTab casts t until changed closes, t dies or ctx ends.
func (b *Browser) castTab(ctx context.Context, t *tab, o contract.ScreencastOptions, changed <-chan struct{},
	frame func(contract.ScreenFrame), event func(contract.ScreenEvent)) error {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(t.dead, cancel)
	defer stop()
	go func() {
		select {
		case <-changed:
			cancel()
		case <-cctx.Done():
		}
	}()
	// The events, read on the tab's loop and handed over: a callback of
	// Listen must not call the tab.
	evs := make(chan any, 64)
	lctx, unlisten := context.WithCancel(t.ctx)
	defer unlisten()
	if err := chromedp.Listen(lctx, func(ev any) {
		switch ev.(type) {
		case *page.EventScreencastFrame, *page.EventFrameNavigated, *page.EventJavascriptDialogOpening, *page.EventFileChooserOpened:
			select {
			case evs <- ev:
			default: // a frame not read in time is never acked: Chromium waits
			}
		}
	}); err != nil {
		return err
	}
	q := int64(o.Quality)
	if _, err := cdp.Call(cctx, t.target, page.StartScreencast, page.StartScreencastParams{
		Format: page.StartScreencastFormatJpeg, Quality: &q, MaxWidth: int64(o.MaxWidth), MaxHeight: int64(o.MaxHeight), EveryNthFrame: 1,
		// The frame painted while the last was on its way comes with the
		// ack, not at the next paint: a person's input shows sooner.
		SendLastFrame: new(true),
	}); err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), castStopTimeout)
		defer cancel()
		if _, err := cdp.Call(sctx, t.target, page.StopScreencast, cdp.Empty{}); err != nil && t.dead.Err() == nil && b.broken.Err() == nil {
			b.log.Debug("stopping a screencast", "error", err)
		}
	}()
	// The file chooser is told even when nothing intercepts it.
	if _, err := cdp.Call(cctx, t.target, page.Enable, page.EnableParams{EnableFileChooserOpenedEvent: new(true)}); err != nil {
		return err
	}
	notes := b.shown.notes()
	for {
		select {
		case <-cctx.Done():
			return nil
		case ev := <-notes:
			event(ev)
		case ev := <-evs:
			if err := b.castEvent(cctx, t, ev, frame, event); err != nil {
				if cctx.Err() != nil {
					return nil
				}
				return err
			}
		}
	}
}

// castEvent hands one event of the tab on; a frame is acknowledged first,
// so Chromium paints the next while this one travels.
func (b *Browser) castEvent(ctx context.Context, t *tab, ev any, frame func(contract.ScreenFrame), event func(contract.ScreenEvent)) error {
	switch e := ev.(type) {
	case *page.EventScreencastFrame:
		if _, err := cdp.Call(ctx, t.target, page.ScreencastFrameAck, page.ScreencastFrameAckParams{SessionID: e.SessionID}); err != nil {
			return err
		}
		f := contract.ScreenFrame{JPEG: e.Data, Tab: t.id, Width: float64(b.width), Height: float64(b.height), At: time.Now()}
		if m := e.Metadata; m != nil {
			if m.DeviceWidth > 0 {
				f.Width, f.Height = m.DeviceWidth, m.DeviceHeight
			}
			f.ScrollX, f.ScrollY = m.ScrollOffsetX, m.ScrollOffsetY
			if ts := m.Timestamp.Float64(); ts > 0 {
				f.At = time.UnixMicro(int64(ts * 1e6))
			}
		}
		frame(f)
	case *page.EventFrameNavigated:
		if e.Frame != nil && e.Frame.ParentID == "" {
			event(contract.ScreenEvent{Kind: contract.ScreenNavigated, Tab: t.id, Text: e.Frame.URL})
		}
	case *page.EventJavascriptDialogOpening:
		event(contract.ScreenEvent{Kind: contract.ScreenDialog, Tab: t.id, Text: dialogNotice(*e)})
	case *page.EventFileChooserOpened:
		event(contract.ScreenEvent{Kind: contract.ScreenFileChooser, Tab: t.id,
			Text: "the page opened a file chooser (" + string(e.Mode) + "); files reach a page only through the agent's upload tool"})
	}
	return nil
}

// errNoTab: the Browser has no current tab yet.
var errNoTab = errors.New("browser: no tab is open")
