package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"

	"github.com/webagent/webagent/contract"
)

// A read-only browser (Options.ReadOnly): the interceptor pauses every
// request, and one that would write (writes) is stopped before it leaves
// Chromium, recorded with its payload for the trace (TakeBlocked) and
// told to the model: the action that caused it fails with what would have
// been sent (Browser.Do), a request a page made by itself is in the next
// snapshot's notices.

// Bounds of what is kept of a blocked request.
const (
	maxBlockedPayload = 16 << 10 // the payload kept for the trace
	maxToldPayload    = 600      // the payload told to the model
	maxBlockedKept    = 200      // requests kept between two TakeBlocked
)

// writes reports whether a request with this method changes something on
// its site.
func writes(method string) bool {
	switch strings.ToUpper(method) {
	case "POST", "PUT", "PATCH", "DELETE":
		return true
	}
	return false
}

// writeLog holds the requests the browser stopped: those not yet taken
// for a trace, and how many were stopped in all (for Do).
type writeLog struct {
	mu      sync.Mutex
	pending []contract.BlockedRequest
	dropped int
	total   int
	loads   int // page loads among them
}

func (w *writeLog) add(r contract.BlockedRequest, load bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.total++
	if load {
		w.loads++
	}
	if len(w.pending) >= maxBlockedKept {
		w.dropped++
		return
	}
	w.pending = append(w.pending, r)
}

// count is how many requests, and page loads among them, were stopped
// so far.
func (w *writeLog) count() (requests, loads int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.total, w.loads
}

// TakeBlocked returns the requests stopped since the previous call and
// forgets them (contract.BlockedLog). It returns nothing unless
// Options.ReadOnly is set.
func (b *Browser) TakeBlocked() []contract.BlockedRequest {
	w := &b.writes
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.pending
	if w.dropped > 0 {
		out = append(out, contract.BlockedRequest{Method: "-", URL: "-", Payload: fmt.Sprintf("(%d more blocked requests were not kept)", w.dropped), Time: time.Now().UnixMilli()})
	}
	w.pending, w.dropped = nil, 0
	return out
}

var _ contract.BlockedLog = (*Browser)(nil)

// blockWrite stops a request that would write: a page load is answered
// with 204 No Content, which leaves the page as it was; any other request
// fails as one the browser refused. Nothing reaches the site.
func (in *interceptor) blockWrite(ctx context.Context, e *fetch.EventRequestPaused, document bool) {
	r := contract.BlockedRequest{
		Method: strings.ToUpper(e.Request.Method), URL: e.Request.URL, Type: string(e.ResourceType),
		Payload: payload(e.Request), Time: time.Now().UnixMilli(),
	}
	in.b.writes.add(r, document)
	in.b.notices.add(blockedNotice(r))
	in.b.log.Info("a request that writes was stopped (read-only)", "method", r.Method, "url", shortURL(r.URL))
	var err error
	if document {
		_, err = cdp.Call(ctx, in.s.browser, fetch.FulfillRequest, fetch.FulfillRequestParams{
			RequestID: e.RequestID, ResponseCode: 204,
			ResponseHeaders: []*fetch.HeaderEntry{{Name: "X-Webagent", Value: "blocked by --read-only"}},
		})
	} else {
		_, err = cdp.Call(ctx, in.s.browser, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	}
	if err != nil && ctx.Err() == nil {
		in.b.log.Debug("stopping a request that writes", "error", err)
	}
}

// blockedNotice is what the model is told of a stopped request.
func blockedNotice(r contract.BlockedRequest) string {
	what := r.Method + " " + shortURL(r.URL)
	if r.Payload != "" {
		p := r.Payload
		if len(p) > maxToldPayload {
			p = clipUTF8(p, maxToldPayload) + "…"
		}
		what += " would have sent: " + p
	}
	return "blocked by --read-only: " + what + " (nothing was sent: this run may not write to sites)"
}

// payload is a request's body as text: binary data and bodies Chromium
// did not hand over are described, long ones cut.
func payload(req *network.Request) string {
	var body []byte
	for _, e := range req.PostDataEntries {
		if e != nil {
			body = append(body, e.Bytes...)
		}
	}
	switch {
	case len(body) == 0 && req.HasPostData:
		return "(a body Chromium did not hand over: too long, or a file)"
	case len(body) == 0:
		return ""
	case !utf8.Valid(body):
		return fmt.Sprintf("(%d bytes of binary data)", len(body))
	case len(body) > maxBlockedPayload:
		return clipUTF8(string(body), maxBlockedPayload) + fmt.Sprintf("… (%d bytes in all)", len(body))
	}
	return string(body)
}

// clipUTF8 cuts s to at most n bytes at a rune boundary.
func clipUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// blockedError is the error of an action that made the page write: the
// blocked requests first, then what the action did. When a page load was
// stopped, the page stayed: the navigation the action saw start is left
// out.
func blockedError(outcome string, loadStopped bool) *contract.ActionError {
	var blocked, rest []string
	for _, part := range strings.Split(outcome, "; ") {
		switch {
		case strings.HasPrefix(part, "blocked by --read-only: "):
			blocked = append(blocked, part)
		case loadStopped && strings.HasPrefix(part, "navigated to "):
			rest = append(rest, "the page stayed as it was")
		default:
			rest = append(rest, part)
		}
	}
	msg := strings.Join(blocked, "; ")
	if len(rest) > 0 {
		msg += ". The action itself: " + strings.Join(rest, "; ")
	}
	return &contract.ActionError{Msg: msg}
}
