package browser

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/egress"
)

// Where the browser may go: only http and https pages, within the policy
// the loop set (allowed and blocked domains, the private network guard).

// dnsBudget bounds the resolution of a host by the private network guard.
const dnsBudget = 3 * time.Second

// guard holds the Browser's navigation policy; safe for concurrent use (the
// interceptor runs on the browser's event goroutines).
type guard struct {
	mu     sync.Mutex
	policy *contract.NavigationPolicy // nil: schemes only
	files  bool                       // file: URLs allowed (Options.AllowFileURLs)
	// lastRefusal says what the guard refused last, for the goto that
	// asked for it.
	lastRefusal string
	// resolved caches the guard's DNS answers: host -> private.
	resolved map[string]bool
}

// Confine sets the navigation policy of every tab of the Browser, from now
// on: for the documents it opens (the interceptor) and for every request
// its pages make (the egress). It implements contract.Confiner.
func (b *Browser) Confine(p contract.NavigationPolicy) error {
	g := &b.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	g.policy = &p
	g.resolved = map[string]bool{}
	if b.egress == nil && (len(p.Allowed) > 0 || len(p.Blocked) > 0 || !p.AllowPrivateNetwork) {
		b.log.Warn("attached to a browser's own context: only documents are held to the limits, not the requests pages make (use an isolated context)")
	}
	return nil
}

// refusedSchemes explains the schemes that are never opened.
var refusedSchemes = map[string]string{
	"file":             "local files are not web pages",
	"chrome":           "browser pages are not web pages",
	"chrome-extension": "extension pages are not web pages",
	"chrome-untrusted": "browser pages are not web pages",
	"devtools":         "developer tools are not web pages",
	"view-source":      "view-source shows a page's code; open the page itself",
	"javascript":       "scripts are not run from URLs",
	"data":             "data: URLs are not opened as pages",
	"blob":             "blob: URLs are not opened by goto",
	"filesystem":       "filesystem: URLs are not web pages",
}

// checkScheme says why a URL of that scheme is refused as a top-level page,
// "" when it is allowed.
func (g *guard) checkScheme(u *url.URL, topLevel bool) string {
	s := strings.ToLower(u.Scheme)
	switch {
	case s == "http" || s == "https":
		return ""
	case s == "about" && (u.Opaque == "blank" || u.Opaque == "srcdoc"):
		return ""
	case s == "file" && g.fileURLs():
		return ""
	case !topLevel && (s == "data" || s == "blob" || s == "about"):
		return "" // a frame's own content
	}
	why, ok := refusedSchemes[s]
	if !ok {
		why = "only http and https pages are opened"
	}
	return fmt.Sprintf("%s: URLs are refused: %s", s, why)
}

func (g *guard) fileURLs() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.files
}

// check says why the URL may not be opened, "" when it may. It resolves
// the host when the private network guard needs its addresses.
func (g *guard) check(ctx context.Context, raw string, topLevel bool) string {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Sprintf("%q is not a valid URL", raw)
	}
	if why := g.checkScheme(u, topLevel); why != "" {
		return why
	}
	s := strings.ToLower(u.Scheme)
	if s != "http" && s != "https" {
		return ""
	}
	g.mu.Lock()
	p := g.policy
	g.mu.Unlock()
	if p == nil {
		return ""
	}
	if why := p.CheckDomains(u); why != "" {
		return why
	}
	if p.AllowPrivateNetwork || p.Named(u) {
		return ""
	}
	private, err := g.private(ctx, u.Hostname())
	switch {
	case err != nil:
		return fmt.Sprintf("the address of %s could not be resolved (%v)", u.Hostname(), err)
	case private:
		return fmt.Sprintf("%s is on a private network (loopback, LAN, link-local or metadata address) and was not named by the user; "+
			"pass --allowed-domains %s or --allow-private-network to reach it", u.Hostname(), u.Hostname())
	}
	return ""
}

// private reports whether host is, or resolves to, an address the guard
// keeps the agent from: loopback, private, link-local, unspecified, shared
// (CGNAT) or IPv4-mapped forms of those.
func (g *guard) private(ctx context.Context, host string) (bool, error) {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return egress.PrivateAddr(a), nil
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true, nil
	}
	g.mu.Lock()
	p, ok := g.resolved[host]
	g.mu.Unlock()
	if ok {
		return p, nil
	}
	rctx, cancel := context.WithTimeout(ctx, dnsBudget)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(rctx, "ip", host)
	if err != nil {
		return false, err
	}
	p = false
	for _, a := range addrs {
		p = p || egress.PrivateAddr(a)
	}
	g.mu.Lock()
	if g.resolved != nil {
		g.resolved[host] = p
	}
	g.mu.Unlock()
	return p, nil
}

// remember records why a URL was refused, for the goto waiting on it.
func (g *guard) remember(u, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lastRefusal = shortURL(u) + " was refused: " + why
}

// last returns and forgets the latest refusal, "" if none.
func (g *guard) last() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	w := g.lastRefusal
	g.lastRefusal = ""
	return w
}
