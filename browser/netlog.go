package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webagent/webagent/contract"
)

// Bounds of the activity kept between two TakeActivity calls; past them
// further entries are counted, not kept.
const (
	maxConsoleEntries = 300
	maxNetEntries     = 1000
	maxConsoleText    = 2000
)

// activityLog records the console messages and network requests of the
// Browser's tabs while Options.RecordActivity is set, for traces. Its
// handler runs on the tabs' read loops: it only appends under a mutex.
type activityLog struct {
	mu      sync.Mutex
	console []contract.ConsoleEntry
	pending map[network.RequestID]*contract.NetEntry
	done    []contract.NetEntry
	dropped int
	started map[network.RequestID]time.Time
}

// recordActivity follows the network events of t when recording is on,
// and its console messages and uncaught errors, which only a client with
// the Runtime domain enabled receives, with Options.Observable
// (quiet.go).
func (b *Browser) recordActivity(t *tab) error {
	if !b.opts.RecordActivity {
		return nil
	}
	return chromedp.Listen(t.ctx, b.activity.handle)
}

// TakeActivity returns the console messages and the finished network
// requests since the previous call, and forgets them (contract.Activity).
// Requests still under way are kept for a later call. It returns nothing
// unless Options.RecordActivity is set.
func (b *Browser) TakeActivity() ([]contract.ConsoleEntry, []contract.NetEntry) {
	l := &b.activity
	l.mu.Lock()
	defer l.mu.Unlock()
	c, n := l.console, l.done
	if l.dropped > 0 {
		c = append(c, contract.ConsoleEntry{Level: "info", Text: fmt.Sprintf("(webagent: %d more console messages or requests were not kept)", l.dropped), Time: time.Now().UnixMilli()})
	}
	l.console, l.done, l.dropped = nil, nil, 0
	return c, n
}

var _ contract.Activity = (*Browser)(nil)

func (l *activityLog) handle(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending == nil {
		l.pending = map[network.RequestID]*contract.NetEntry{}
	}
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled: // Options.Observable only
		parts := make([]string, 0, len(e.Args))
		for _, a := range e.Args {
			parts = append(parts, remoteText(a))
		}
		l.addConsole(contract.ConsoleEntry{Level: string(e.Type), Text: strings.Join(parts, " "), Time: int64(e.Timestamp)})
	case *runtime.EventExceptionThrown: // Options.Observable only
		d := e.ExceptionDetails
		l.addConsole(contract.ConsoleEntry{Level: "exception", Text: exceptionText(d), URL: d.URL, Time: int64(e.Timestamp)})
	case *network.EventRequestWillBeSent:
		if len(l.pending) >= maxNetEntries {
			l.dropped++
			return
		}
		if old, ok := l.pending[e.RequestID]; ok && e.RedirectResponse != nil {
			// A redirect: the hop ends here, the next one starts.
			old.Status = int(e.RedirectResponse.Status)
			l.finish(e.RequestID, old, "")
		}
		l.pending[e.RequestID] = &contract.NetEntry{
			Method: e.Request.Method, URL: e.Request.URL, Type: string(e.Type),
			Start: wallMS(e.WallTime), RequestHeaders: headerMap(e.Request.Headers),
		}
		if l.started == nil {
			l.started = map[network.RequestID]time.Time{}
		}
		l.started[e.RequestID] = time.Now()
	case *network.EventResponseReceived:
		if p, ok := l.pending[e.RequestID]; ok {
			p.Status, p.MIME = int(e.Response.Status), e.Response.MimeType
			p.ResponseHeaders = headerMap(e.Response.Headers)
		}
	case *network.EventLoadingFinished:
		if p, ok := l.pending[e.RequestID]; ok {
			p.Size = int64(e.EncodedDataLength)
			l.finish(e.RequestID, p, "")
		}
	case *network.EventLoadingFailed:
		if p, ok := l.pending[e.RequestID]; ok {
			msg := e.ErrorText
			if e.Canceled {
				msg = "canceled"
			}
			if e.BlockedReason != "" {
				msg += " (blocked: " + string(e.BlockedReason) + ")"
			}
			l.finish(e.RequestID, p, msg)
		}
	}
}

func (l *activityLog) addConsole(c contract.ConsoleEntry) {
	if len(l.console) >= maxConsoleEntries {
		l.dropped++
		return
	}
	if len(c.Text) > maxConsoleText {
		c.Text = c.Text[:maxConsoleText] + "…"
	}
	l.console = append(l.console, c)
}

func (l *activityLog) finish(id network.RequestID, p *contract.NetEntry, errText string) {
	if t, ok := l.started[id]; ok {
		p.MS = time.Since(t).Milliseconds()
		delete(l.started, id)
	}
	p.Error = errText
	delete(l.pending, id)
	if len(l.done) >= maxNetEntries {
		l.dropped++
		return
	}
	l.done = append(l.done, *p)
}

// remoteText is a console argument as text.
func remoteText(a *runtime.RemoteObject) string {
	switch {
	case a == nil:
		return ""
	case len(a.Value) > 0:
		s := string(a.Value)
		if len(s) >= 2 && s[0] == '"' {
			var str string
			if err := json.Unmarshal(a.Value, &str); err == nil {
				return str
			}
		}
		return s
	case a.Description != "":
		return a.Description
	case a.UnserializableValue != "":
		return string(a.UnserializableValue)
	}
	return string(a.Type)
}

func headerMap(h network.Headers) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[k] = fmt.Sprint(v)
	}
	return out
}

// wallMS converts a Network wall time (seconds since the epoch).
func wallMS(t cdp.TimeSinceEpoch) int64 { return int64(float64(t) * 1000) }

// addRefused records a request the egress refused; it never reached the
// network, so Chromium's own events may tell of it only as a failure.
func (l *activityLog) addRefused(n contract.NetEntry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.done) >= maxNetEntries {
		l.dropped++
		return
	}
	l.done = append(l.done, n)
}
