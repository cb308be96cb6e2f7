package egress

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
)

// The one decision of where the browser may go. A Guard holds the user's
// navigation policy and decides for every door: package browser's goto and
// its request interceptor ask it about a document (Check), the proxy about
// each request (place) and its dialler about the address it connects to
// (guarded, PrivateAddr).

// dnsBudget bounds the resolution of a host by the private network guard.
const dnsBudget = 3 * time.Second

// Guard decides where the browser may go: only http and https pages, within
// the navigation policy (allowed and blocked domains, the private network
// guard). The zero Guard checks schemes only. Safe for concurrent use.
type Guard struct {
	mu     sync.Mutex
	policy *contract.NavigationPolicy // nil: schemes only
	files  bool                       // file: URLs allowed (AllowFileURLs)
	// resolved caches the private network guard's DNS answers under the
	// policy: host -> private.
	resolved map[string]bool
	// lookup resolves a host; nil is net.DefaultResolver's.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// Confine sets the policy from now on; nil lifts it (schemes only).
func (g *Guard) Confine(p *contract.NavigationPolicy) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.policy = p
	g.resolved = map[string]bool{}
}

// AllowFileURLs lets file: URLs be opened as pages (browser's
// Options.AllowFileURLs).
func (g *Guard) AllowFileURLs() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.files = true
}

// Policy is the navigation policy now, nil when there is none.
func (g *Guard) Policy() *contract.NavigationPolicy {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.policy
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

// Check says why the document at raw may not be opened, "" when it may:
// the scheme (a frame, not topLevel, may also hold its own data:, blob:
// and about: content), then the place. It resolves the host when the
// private network guard needs its addresses.
func (g *Guard) Check(ctx context.Context, raw string, topLevel bool) string {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Sprintf("%q is not a valid URL", raw)
	}
	if why := g.checkScheme(u, topLevel); why != "" {
		return why
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return ""
	}
	return g.place(ctx, u, true)
}

// checkScheme says why a URL of that scheme is refused as a document, ""
// when it is allowed.
func (g *Guard) checkScheme(u *url.URL, topLevel bool) string {
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

func (g *Guard) fileURLs() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.files
}

// place says why the policy refuses a request to u's host, "" when it lets
// it through: the domain lists, then the private network guard unless the
// user named the host or lifted the guard. With resolve false the guard's
// check is left to the dialler, which sees the address (guarded).
func (g *Guard) place(ctx context.Context, u *url.URL, resolve bool) string {
	p := g.Policy()
	if p == nil {
		return ""
	}
	if why := p.CheckDomains(u); why != "" {
		return why
	}
	if !resolve || p.AllowPrivateNetwork || p.Named(u) {
		return ""
	}
	private, err := g.private(ctx, u.Hostname())
	switch {
	case err != nil:
		return fmt.Sprintf("the address of %s could not be resolved (%v)", u.Hostname(), err)
	case private:
		return privateWhy(u.Hostname())
	}
	return ""
}

// privateWhy is the refusal of a host on a private network.
func privateWhy(host string) string {
	return fmt.Sprintf("%s is on a private network (loopback, LAN, link-local or metadata address) and was not named by the user; "+
		"pass --allowed-domains %s or --allow-private-network to reach it", host, host)
}

// guarded reports whether the private network guard applies to addr
// (host:port): not when the user named it, with or without its port and
// scheme (--allowed-domains 127.0.0.1:8080).
func (g *Guard) guarded(addr string) bool {
	p := g.Policy()
	if p == nil || p.AllowPrivateNetwork {
		return false
	}
	for _, scheme := range []string{"http", "https"} {
		if p.Named(&url.URL{Scheme: scheme, Host: addr}) {
			return false
		}
	}
	return true
}

// private reports whether host is, or resolves to, an address the guard
// keeps the agent from (PrivateAddr).
func (g *Guard) private(ctx context.Context, host string) (bool, error) {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return PrivateAddr(a), nil
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true, nil
	}
	g.mu.Lock()
	p, ok := g.resolved[host]
	lookup := g.lookup
	g.mu.Unlock()
	if ok {
		return p, nil
	}
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	rctx, cancel := context.WithTimeout(ctx, dnsBudget)
	defer cancel()
	addrs, err := lookup(rctx, host)
	if err != nil {
		return false, err
	}
	p = false
	for _, a := range addrs {
		p = p || PrivateAddr(a)
	}
	g.mu.Lock()
	if g.resolved != nil {
		g.resolved[host] = p
	}
	g.mu.Unlock()
	return p, nil
}

var sharedNet = netip.MustParsePrefix("100.64.0.0/10")

// PrivateAddr reports whether a is an address the private network guard
// keeps the agent from: loopback, private, link-local, unspecified, shared
// (CGNAT), 0.0.0.0/8, or an IPv4-mapped form of those.
func PrivateAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsInterfaceLocalMulticast() || sharedNet.Contains(a) ||
		(a.Is4() && a.As4()[0] == 0)
}
