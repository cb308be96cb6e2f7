package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// No trace of the DevTools connection: while a client has the Runtime
// domain enabled, Chromium serialises every console message of the page
// for it, so a page that logs an Error whose stack is a getter sees the
// getter run (bot managers use it), and the messages logged before are
// replayed, and serialised, when it is enabled. chromedp enables Runtime
// on every target it attaches to (the tab, a cross-origin frame). The
// connection webagent talks to Chromium through turns that command into
// Runtime.disable, which Chromium answers the same way, so that Runtime
// is never enabled, not even for a moment. What webagent needs from
// Runtime it gets otherwise: its programs run in an isolated world of
// their own (world.go), and the binding its programs call lives only
// there. The pages' console messages and uncaught errors reach only a
// client with Runtime enabled: traces keep them with Options.Observable.

// quietConn is a chromedp.Transport that never lets Runtime be enabled,
// unless loud (Options.Observable).
type quietConn struct {
	chromedp.Transport
	loud bool
}

func (c quietConn) Write(ctx context.Context, m *cdproto.Message) error {
	if m.Method == "Runtime.enable" && !c.loud {
		m.Method = "Runtime.disable"
	}
	return c.Transport.Write(ctx, m)
}

// SetDebugf passes chromedp's debug logger on to the connection.
func (c quietConn) SetDebugf(f func(string, ...any)) {
	if s, ok := c.Transport.(interface{ SetDebugf(func(string, ...any)) }); ok {
		s.SetDebugf(f)
	}
}

// attachAllocator attaches to a running browser at a DevTools address
// (Options.CDPURL) through a quietConn: chromedp's remote allocator with
// the connection of its own.
type attachAllocator struct {
	url  string
	loud bool // quietConn's
	wg   sync.WaitGroup
}

// newAttachAllocator returns the allocator context for the address.
func newAttachAllocator(url string, loud bool) (context.Context, context.CancelFunc) {
	return chromedp.NewAllocatorContext(context.Background(), &attachAllocator{url: url, loud: loud})
}

// attachDialTimeout bounds finding and dialling the address.
const attachDialTimeout = 10 * time.Second

func (a *attachAllocator) Allocate(ctx context.Context, opts ...chromedp.BrowserOption) (*chromedp.Browser, error) {
	// The connection outlives the dial: it closes once the pages are.
	wctx, cancel := context.WithCancel(context.Background())
	a.wg.Go(func() {
		<-ctx.Done()
		_ = chromedp.Cancel(ctx)
		cancel()
	})
	dctx, stop := context.WithTimeout(ctx, attachDialTimeout)
	defer stop()
	ws, err := devtoolsSocket(dctx, a.url)
	if err != nil {
		return nil, err
	}
	conn, err := remote.DialContext(dctx, ws)
	if err != nil {
		return nil, fmt.Errorf("could not dial %q: %w", ws, err)
	}
	return chromedp.NewBrowserTransport(wctx, quietConn{conn, a.loud}, opts...)
}

// Wait satisfies chromedp.Allocator.
func (a *attachAllocator) Wait() { a.wg.Wait() }

// Attaches satisfies chromedp.Attacher: the browser runs already.
func (*attachAllocator) Attaches() bool { return true }

// devtoolsSocket returns the browser's websocket address for a DevTools
// address: itself when it names the browser's socket, else the one its
// /json/version gives (http://127.0.0.1:9222, ws://127.0.0.1:9222/).
func devtoolsSocket(ctx context.Context, addr string) (string, error) {
	if strings.Contains(addr, "/devtools/browser/") {
		return addr, nil
	}
	u, err := url.Parse(addr)
	if err != nil {
		return "", err
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	u.Path, u.RawQuery = "/json/version", ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var v struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.WS == "" {
		return "", fmt.Errorf("%s gives no webSocketDebuggerUrl (%v)", u, err)
	}
	return v.WS, nil
}
