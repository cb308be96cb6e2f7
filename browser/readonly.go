package browser

import (
	"context"
	"fmt"
	"net"
	"net/url"
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
// told to the model in the outcome of the action during which it was made
// (or the next snapshot's notices). The action fails, with what would
// have been sent, when it plainly caused the write (causedWrite): input
// that submitted a form, or saved with a fetch to the page's own site.

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
// for a trace, and the latest ones with their number (for Do).
type writeLog struct {
	mu      sync.Mutex
	pending []contract.BlockedRequest
	dropped int
	total   int
	recent  []contract.BlockedRequest // the last maxRecentWrites, the last one numbered total
}

// maxRecentWrites bounds what Do looks back at.
const maxRecentWrites = 50

func (w *writeLog) add(r contract.BlockedRequest) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.total++
	w.recent = append(w.recent, r)
	if len(w.recent) > maxRecentWrites {
		w.recent = w.recent[1:]
	}
	if len(w.pending) >= maxBlockedKept {
		w.dropped++
		return
	}
	w.pending = append(w.pending, r)
}

// mark is the number of requests stopped so far, for since.
func (w *writeLog) mark() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.total
}

// since returns the requests stopped after mark (the latest
// maxRecentWrites at most).
func (w *writeLog) since(mark int) []contract.BlockedRequest {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := min(w.total-mark, len(w.recent))
	return append([]contract.BlockedRequest(nil), w.recent[len(w.recent)-n:]...)
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
	in.b.writes.add(r)
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

// inputActions are the actions whose writes are the model's doing: a
// form it submits, a button that saves. A write during a goto, a scroll
// or a wait is the page's own (analytics, mostly).
var inputActions = map[string]bool{
	contract.ActClick: true, contract.ActType: true, contract.ActPress: true, contract.ActSelect: true,
	contract.ActMultiSelect: true, contract.ActCheck: true, contract.ActUncheck: true, contract.ActDrag: true,
	contract.ActMouse: true, contract.ActMousePath: true, contract.ActSetSlider: true, contract.ActUpload: true,
}

// causedWrite reports whether the action plainly caused one of the
// stopped requests: it gave the page input, and the request was a page
// load (a form's submission) or a fetch or XHR to the page's own site
// (pageURL's host, or a host of its domain). Beacons and requests to other
// sites are mostly analytics: they are told, not an error.
func causedWrite(action, pageURL string, blocked []contract.BlockedRequest) bool {
	if !inputActions[action] {
		return false
	}
	for _, r := range blocked {
		switch network.ResourceType(r.Type) {
		case network.ResourceTypeDocument:
			return true
		case network.ResourceTypeFetch, network.ResourceTypeXHR:
			if sameSite(pageURL, r.URL) {
				return true
			}
		}
	}
	return false
}

// sameSite reports whether two URLs' hosts are one, or share their last
// two labels (shop.example.com and api.example.com).
func sameSite(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ha, hb := strings.ToLower(ua.Hostname()), strings.ToLower(ub.Hostname())
	if ha == hb {
		return true
	}
	if net.ParseIP(ha) != nil || net.ParseIP(hb) != nil {
		return false
	}
	domain := func(h string) string {
		parts := strings.Split(h, ".")
		if len(parts) <= 2 {
			return h
		}
		return strings.Join(parts[len(parts)-2:], ".")
	}
	return domain(ha) == domain(hb)
}

// blockedError is the error of an action that made the page write: the
// blocked requests first, then what the action did. When a page load was
// stopped, the page stayed: the navigation the action saw start is left
// out.
func blockedError(outcome string, blocked []contract.BlockedRequest) *contract.ActionError {
	loadStopped := false
	for _, r := range blocked {
		loadStopped = loadStopped || r.Type == string(network.ResourceTypeDocument)
	}
	var told, rest []string
	for _, part := range strings.Split(outcome, "; ") {
		switch {
		case strings.HasPrefix(part, "blocked by --read-only: "):
			told = append(told, part)
		case loadStopped && strings.HasPrefix(part, "navigated to "):
			rest = append(rest, "the page stayed as it was")
		default:
			rest = append(rest, part)
		}
	}
	msg := strings.Join(told, "; ")
	if len(rest) > 0 {
		msg += ". The action itself: " + strings.Join(rest, "; ")
	}
	return &contract.ActionError{Msg: msg}
}
