package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// The navigation guard in the browser: every document request (a goto, a
// link, a form, a redirect, a popup, a frame) pauses in the browser until
// the guard allows it, so that no page can take the agent where goto would
// not. Only document requests are intercepted here, and a page's requests
// to the hosts of Chromium's own services, which the egress must tell
// from Chromium's (egress.go), unless the browser is read-only: then every
// request pauses, and those that write are stopped (readonly.go). Every
// request let go then leaves through the egress (egress.go), which holds
// the rest to the same limits; the egress sees HTTPS only as tunnels, so
// the method of a request can only be judged here, and a request can only
// be signed here: with a Signer, every request pauses and goes on with
// its signature (signing.go).

// interceptBudget bounds the answer to one paused request.
const interceptBudget = 10 * time.Second

// interceptor follows one session's paused requests and its targets.
type interceptor struct {
	b *Browser
	s *session

	wg sync.WaitGroup // answers in flight

	mu     sync.Mutex
	closed bool
	// ctxOf maps a target to whether it is in the Browser's own browser
	// context (only tracked for an isolated context on a shared browser).
	ctxOf map[target.ID]bool
	page  map[target.ID]bool // page targets (top-level frames)
	// frames are the frames attached in the Browser's own documents (a
	// frame that is not a target of its own has no browser context to
	// tell its owner by); arrived is closed, and replaced, when one is
	// added.
	frames  map[cdp.FrameID]bool
	arrived chan struct{}
	// loaders are the storage state's hidden tabs (withLoader): their
	// documents are answered with an empty page, never fetched.
	loaders map[target.ID]bool
}

// intercept makes the session's browser pause document requests for the
// guard.
func (b *Browser) intercept(ctx context.Context, s *session) error {
	in := &interceptor{b: b, s: s, ctxOf: map[target.ID]bool{}, page: map[target.ID]bool{},
		frames: map[cdp.FrameID]bool{}, arrived: make(chan struct{})}
	s.icpt = in
	if err := chromedp.ListenBrowser(s.ctx, in.handle); err != nil {
		return err
	}
	// The targets that existed before the listener: the events of their
	// discovery went by already.
	infos, err := cdp.Call(ctx, s.browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return err
	}
	for _, ti := range infos.TargetInfos {
		in.track(ti)
	}
	params := fetch.EnableParams{
		Patterns: []*fetch.RequestPattern{{URLPattern: "*", ResourceType: network.ResourceTypeDocument}},
	}
	if b.opts.ReadOnly || b.opts.Signer != nil {
		// Every request pauses, to stop those that write (readonly.go) or
		// to be signed (signing.go).
		params.Patterns = []*fetch.RequestPattern{{URLPattern: "*"}}
	} else if b.egress != nil {
		// A page's requests to Chromium's service hosts pause too, for the
		// egress to know them from Chromium's own (egress.go).
		for _, p := range claimPatterns() {
			params.Patterns = append(params.Patterns, &fetch.RequestPattern{URLPattern: p})
		}
	}
	_, err = cdp.Call(ctx, s.browser, fetch.Enable, params)
	return err
}

// handle runs on the browser's event loop: it records targets and answers
// each paused request in a goroutine of its own.
func (in *interceptor) handle(ev any) {
	switch e := ev.(type) {
	case *target.EventTargetCreated:
		in.track(e.TargetInfo)
	case *target.EventTargetInfoChanged:
		in.track(e.TargetInfo)
	case *fetch.EventRequestPaused:
		in.mu.Lock()
		defer in.mu.Unlock()
		if !in.closed {
			in.wg.Go(func() { in.answer(e) })
		}
	}
}

// close waits for the answers in flight; the session is lost by then, so
// they end at once.
func (in *interceptor) close() {
	in.mu.Lock()
	in.closed = true
	in.mu.Unlock()
	in.wg.Wait()
}

func (in *interceptor) track(ti *target.Info) {
	if ti == nil {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.ctxOf[ti.TargetID] = in.s.bcID == "" || ti.BrowserContextID == in.s.bcID
	if ti.Type == "page" {
		in.page[ti.TargetID] = true
	}
}

// frameWait bounds the wait for the event that tells a new frame of the
// Browser's documents from another Browser's, on a shared browser.
const frameWait = 300 * time.Millisecond

// followFrames records the frames attached in the documents of the target
// of ctx (a tab, a cross-origin frame), for owner.
func (in *interceptor) followFrames(ctx context.Context) error {
	return chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*page.EventFrameAttached); ok {
			in.mu.Lock()
			if !in.frames[e.FrameID] {
				in.frames[e.FrameID] = true
				close(in.arrived)
				in.arrived = make(chan struct{})
			}
			in.mu.Unlock()
		}
	})
}

// owner says whether the frame is the Browser's and whether it is a
// top-level frame. A frame that is a target says by its browser context;
// one inside a document is the Browser's when it was attached in one of
// the Browser's documents. On a browser of its own every frame is. On a
// shared browser (an isolated context), another Browser's frames pause
// here too: a frame not seen yet is waited for, frameWait at most, as its
// attach event can come after its first request.
func (in *interceptor) owner(ctx context.Context, f cdp.FrameID) (ours, top bool) {
	id := target.ID(f)
	timer := time.NewTimer(frameWait)
	defer timer.Stop()
	for {
		in.mu.Lock()
		ours, known := in.ctxOf[id]
		top = in.page[id]
		if in.frames[f] || in.s.bcID == "" || f == "" {
			ours, known = true, true
		}
		arrived := in.arrived
		in.mu.Unlock()
		if known {
			return ours, top
		}
		select {
		case <-arrived:
		case <-timer.C:
			return false, top
		case <-ctx.Done():
			return false, top
		}
	}
}

// answer lets the request go on, or fails it and tells the model why.
func (in *interceptor) answer(e *fetch.EventRequestPaused) {
	ctx, cancel := context.WithTimeout(context.Background(), interceptBudget)
	defer cancel()
	stop := context.AfterFunc(in.s.lost, cancel)
	defer stop()
	if in.isLoader(target.ID(e.FrameID)) {
		in.fulfilEmpty(ctx, e)
		return
	}
	ours, top := in.owner(ctx, e.FrameID)
	document := e.ResourceType == network.ResourceTypeDocument
	why := ""
	if ours && document {
		why = in.b.guard.Check(ctx, e.Request.URL, top)
	}
	if why == "" && ours && in.b.opts.ReadOnly && writes(e.Request.Method) {
		in.blockWrite(ctx, e, document)
		return
	}
	if why == "" {
		if ours && top && document {
			in.b.origins.add(e.Request.URL)
		}
		if ours {
			in.b.claim(e.Request.URL)
		}
		p := fetch.ContinueRequestParams{RequestID: e.RequestID}
		if ours {
			p.Headers = in.b.signRequest(e.Request)
		}
		_, err := cdp.Call(ctx, in.s.browser, fetch.ContinueRequest, p)
		if err != nil && ctx.Err() == nil {
			in.b.log.Debug("letting a request go on", "error", err)
		}
		return
	}
	u := e.Request.URL
	in.b.refused.remember(u, why)
	what := "a navigation"
	if !top {
		what = "a frame"
	}
	in.b.notices.add(fmt.Sprintf("%s to %s was refused: %s", what, shortURL(u), why))
	in.b.log.Info("navigation refused", "url", shortURL(u), "why", why)
	_, err := cdp.Call(ctx, in.s.browser, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	if err != nil && ctx.Err() == nil {
		in.b.log.Debug("refusing a navigation", "error", err)
	}
}

// shortURL keeps a URL readable in a notice.
func shortURL(u string) string {
	const max = 200
	if len(u) <= max {
		return u
	}
	return u[:max] + "…"
}

// blockedByGuard reports whether a navigation error is the guard's.
func blockedByGuard(errText string) bool {
	return strings.Contains(errText, "ERR_BLOCKED_BY_CLIENT")
}
