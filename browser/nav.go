package browser

import (
	"context"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// navTracker follows the navigations of the tab's main frame from the page
// events, so that actions can tell whether they caused a navigation and wait
// for the new document. Its handle method runs on the tab's event loop and
// only records; waiting happens in wait.
type navTracker struct {
	frame     cdp.FrameID
	tab       target.ID
	broken    func(error)
	loadGrace time.Duration // see navState.ready

	mu        sync.Mutex
	wake      chan struct{} // closed and replaced on every change
	started   int           // navigations started in the main frame
	committed int           // documents committed, or same-document navigations
	pending   cdp.LoaderID  // a cross-document navigation started and not committed
	loader    cdp.LoaderID  // the committed document
	url       string
	lifecycle map[cdp.LoaderID]lifecycle
	popups    int       // new tabs the tab opened
	popup     popupInfo // the latest of them
	seen      map[target.ID]bool

	// A navigation of the main frame that the page asked for (a link, a
	// form, location.href) and the browser has not started yet. Under load
	// the start can come long after the request; until requestGrace has
	// passed, the document is not taken as ready.
	requested int       // navigations requested in the main frame
	reqAt     time.Time // when the latest request came; zero when none waits
	reqURL    string
	// Child frames (in the tab's own process) whose navigation was
	// requested or started and whose new document is not ready yet.
	frames    map[cdp.FrameID]frameLoad
	frameNavs int // child frame navigations asked for or started

	// The page's fetch and XHR requests (fetches.go): how many were sent,
	// and the number of each one still under way.
	fetches   int
	fetchOpen map[network.RequestID]int
}

func newNavTracker(tab target.ID, frame cdp.FrameID, loader cdp.LoaderID, url string, loadGrace time.Duration, broken func(error)) *navTracker {
	n := &navTracker{
		loadGrace: loadGrace,
		tab:       tab,
		frame:     frame,
		broken:    broken,
		wake:      make(chan struct{}),
		loader:    loader,
		url:       url,
		lifecycle: map[cdp.LoaderID]lifecycle{},
		seen:      map[target.ID]bool{},
		frames:    map[cdp.FrameID]frameLoad{},
	}
	// The document present at start-up has loaded (a new tab's about:blank).
	n.lifecycle[loader] = lifecycle{dcl: true, load: true}
	return n
}

// handle records one event of the tab. It runs on the tab's event loop, so
// it must not block. The waiters wake when an event changed the state.
func (n *navTracker) handle(ev any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	changed := true
	switch e := ev.(type) {
	case *page.EventFrameRequestedNavigation:
		changed = n.requestedNavigation(e)
	case *page.EventFrameStartedNavigating:
		changed = n.startedNavigating(e)
	case *page.EventFrameDetached:
		changed = n.childDone(e.FrameID)
	case *page.EventFrameNavigated:
		changed = n.frameNavigated(e)
	case *page.EventNavigatedWithinDocument:
		changed = n.navigatedWithinDocument(e)
	case *page.EventLifecycleEvent:
		changed = n.lifecycleEvent(e)
	case *page.EventFrameStoppedLoading:
		changed = n.stoppedLoading(e)
	case *network.EventRequestWillBeSent:
		changed = n.fetchSent(e)
	case *network.EventLoadingFinished:
		changed = n.fetchEnded(e.RequestID)
	case *network.EventLoadingFailed:
		changed = n.fetchEnded(e.RequestID)
	case *inspector.EventTargetCrashed:
		n.broken(ErrCrashed)
	case *inspector.EventDetached:
		n.broken(ErrDisconnected)
	default:
		changed = false
	}
	if changed {
		n.wakeAll()
	}
}

// wakeAll wakes the waiters; the caller holds mu.
func (n *navTracker) wakeAll() {
	close(n.wake)
	n.wake = make(chan struct{})
}

// The recorders of handle: each records one event, the caller holding mu,
// and reports whether it changed the state.

// requestedNavigation records a navigation the page asked for in the tab.
func (n *navTracker) requestedNavigation(e *page.EventFrameRequestedNavigation) bool {
	if e.Disposition != page.ClientNavigationDispositionCurrentTab {
		return false
	}
	if e.FrameID != n.frame {
		n.frameLoading(e.FrameID, e.URL)
		return true
	}
	n.requested++
	n.reqAt, n.reqURL = time.Now(), e.URL
	return true
}

// startedNavigating records a navigation that started: of the main frame
// (pending until it commits, unless it stays in the document), or of a
// child frame.
func (n *navTracker) startedNavigating(e *page.EventFrameStartedNavigating) bool {
	sameDoc := e.NavigationType == page.FrameStartedNavigatingNavigationTypeSameDocument ||
		e.NavigationType == page.FrameStartedNavigatingNavigationTypeHistorySameDocument
	if e.FrameID != n.frame {
		if sameDoc {
			return false
		}
		n.frameLoading(e.FrameID, e.URL)
		return true
	}
	n.started++
	n.reqAt = time.Time{}
	if !sameDoc {
		n.pending = e.LoaderID
	}
	return true
}

// childDone forgets a child frame's navigation in flight: its document is
// ready, or the frame went away.
func (n *navTracker) childDone(id cdp.FrameID) bool {
	if _, ok := n.frames[id]; !ok {
		return false
	}
	delete(n.frames, id)
	return true
}

// frameNavigated records a document committed in the main frame.
func (n *navTracker) frameNavigated(e *page.EventFrameNavigated) bool {
	if e.Frame.ID != n.frame {
		return false
	}
	n.committed++
	n.reqAt = time.Time{}
	n.loader = e.Frame.LoaderID
	n.url = e.Frame.URL + e.Frame.URLFragment
	n.pending = ""
	if lc := n.lifecycle[n.loader]; lc.committedAt.IsZero() {
		lc.committedAt = time.Now()
		n.lifecycle[n.loader] = lc
	}
	if e.Type == page.NavigationTypeBackForwardCacheRestore {
		// A page restored from the back/forward cache fires no
		// lifecycle events: it is already loaded.
		n.lifecycle[n.loader] = lifecycle{dcl: true, load: true, dclAt: time.Now()}
	}
	n.prune()
	return true
}

// navigatedWithinDocument records a same-document navigation (a fragment,
// the history API).
func (n *navTracker) navigatedWithinDocument(e *page.EventNavigatedWithinDocument) bool {
	if e.FrameID != n.frame {
		return n.childDone(e.FrameID)
	}
	n.committed++
	n.reqAt = time.Time{}
	n.url = e.URL
	return true
}

// lifecycleEvent records DOMContentLoaded and load of the main frame's
// documents; a child frame's DOMContentLoaded ends its navigation in
// flight, which is then ready for a snapshot.
func (n *navTracker) lifecycleEvent(e *page.EventLifecycleEvent) bool {
	if e.FrameID != n.frame {
		if e.Name != "DOMContentLoaded" {
			return false
		}
		return n.childDone(e.FrameID)
	}
	lc := n.lifecycle[e.LoaderID]
	switch e.Name {
	case "DOMContentLoaded":
		lc.dcl, lc.dclAt = true, time.Now()
	case "load":
		lc.load = true
	default:
		return false
	}
	n.lifecycle[e.LoaderID] = lc
	return true
}

// stoppedLoading records a frame that stopped loading. A navigation of the
// main frame that ends without a commit (a download, a 204, a stop) leaves
// the old document in place; a frame that stopped loading has loaded,
// whatever lifecycle events were seen.
func (n *navTracker) stoppedLoading(e *page.EventFrameStoppedLoading) bool {
	if e.FrameID != n.frame {
		return n.childDone(e.FrameID)
	}
	n.pending = ""
	n.reqAt = time.Time{}
	lc := n.lifecycle[n.loader]
	if !lc.dcl {
		lc.dcl, lc.dclAt = true, time.Now()
	}
	lc.load = true
	n.lifecycle[n.loader] = lc
	return true
}

// handleBrowser records the browser events about new tabs opened by the
// tab. Like handle, it runs on an event loop and must not block.
func (n *navTracker) handleBrowser(ev any) {
	var info *target.Info
	switch e := ev.(type) {
	case *target.EventTargetCrashed:
		// The browser's word for it: the tab's own Inspector event may not
		// come while a command to the crashed renderer is in flight.
		if e.TargetID == n.tab {
			n.broken(ErrCrashed)
		}
		return
	case *target.EventTargetCreated:
		info = e.TargetInfo
	case *target.EventTargetInfoChanged:
		info = e.TargetInfo
	default:
		return
	}
	if info == nil || info.Type != "page" || info.OpenerID != n.tab {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.seen[info.TargetID] {
		n.seen[info.TargetID] = true
		n.popups++
	}
	n.popup = popupInfo{id: info.TargetID, url: info.URL}
	n.wakeAll()
}

// frameLoading records that a child frame navigates; the caller holds mu.
func (n *navTracker) frameLoading(id cdp.FrameID, url string) {
	f, ok := n.frames[id]
	if !ok {
		f.since = time.Now()
		n.frameNavs++
	}
	if url != "" {
		f.url = url
	}
	n.frames[id] = f
}

// prune forgets the lifecycle of old documents.
func (n *navTracker) prune() {
	if len(n.lifecycle) <= 8 {
		return
	}
	for id := range n.lifecycle {
		if id != n.loader && id != n.pending {
			delete(n.lifecycle, id)
		}
	}
}

func (n *navTracker) state() navState {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.stateLocked()
}

func (n *navTracker) stateLocked() navState {
	s := navState{
		started:   n.started,
		committed: n.committed,
		pending:   n.pending,
		loader:    n.loader,
		url:       n.url,
		lifecycle: n.lifecycle[n.loader],
		popups:    n.popups,
		popup:     n.popup,
		requested: n.requested,
		reqAt:     n.reqAt,
		reqURL:    n.reqURL,
		frameNavs: n.frameNavs,
		now:       time.Now(),
		loadGrace: n.loadGrace,
		fetches:   n.fetches,
	}
	for _, seq := range n.fetchOpen {
		s.fetchOpen = append(s.fetchOpen, seq)
	}
	for _, f := range n.frames {
		s.frames = append(s.frames, f)
	}
	return s
}

// wait blocks until cond holds, ctx ends (its error is returned), or limit
// passes (a limit of zero means no limit). It reports whether cond held.
// Conditions that depend on time are re-checked when limit passes and at
// the load settle deadline.
func (n *navTracker) wait(ctx context.Context, limit time.Duration, cond func(navState) bool) (bool, error) {
	var timeout <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	for {
		n.mu.Lock()
		s, wake := n.stateLocked(), n.wake
		n.mu.Unlock()
		if cond(s) {
			return true, nil
		}
		var tick *time.Timer
		var tickC <-chan time.Time
		if at := s.nextChange(); !at.IsZero() {
			// A condition that depends on time (the load wait, a grace)
			// may turn true by itself then.
			tick = time.NewTimer(time.Until(at) + time.Millisecond)
			tickC = tick.C
		}
		select {
		case <-wake:
		case <-tickC:
		case <-ctx.Done():
			stopTimer(tick)
			return false, ctx.Err()
		case <-timeout:
			stopTimer(tick)
			return cond(n.state()), nil
		}
		stopTimer(tick)
	}
}

// settle waits, after a navigation was seen, until the new document is
// ready and then briefly for its load event. The brief wait never fails.
func (n *navTracker) settle(ctx context.Context) error {
	if _, err := n.wait(ctx, 0, navState.ready); err != nil {
		return err
	}
	_, err := n.wait(ctx, 0, func(s navState) bool { return s.loadSettled(s.now) })
	return err
}

// settleFrames waits until the main document is ready (as settle) and the
// child frames that navigate have their new documents, each for at most
// frameGrace. It returns the URLs of the frames still loading then.
func (n *navTracker) settleFrames(ctx context.Context) ([]string, error) {
	if err := n.settle(ctx); err != nil {
		return nil, err
	}
	if _, err := n.wait(ctx, 0, func(s navState) bool { return s.ready() && s.framesSettled() }); err != nil {
		return nil, err
	}
	var loading []string
	for _, f := range n.state().frames {
		loading = append(loading, f.url)
	}
	return loading, nil
}

func stopTimer(t *time.Timer) {
	if t != nil {
		t.Stop()
	}
}
