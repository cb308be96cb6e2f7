package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"

	"github.com/webagent/webagent/contract"
)

// The decision: what the user's limits let through, checked on the
// request's URL and then on the address dialled.

// policy is the navigation policy now, nil when there is none.
func (e *Proxy) policy() *contract.NavigationPolicy {
	if e.cfg.Limits == nil {
		return nil
	}
	return e.cfg.Limits.Policy()
}

// allow says why the limits refuse a request to u, "" when they let it
// through. The private network guard is left to the dialler, which sees
// the address; through the user's proxy, which resolves names itself, it
// is checked here by resolving the name.
func (e *Proxy) allow(ctx context.Context, u *url.URL) string {
	p := e.policy()
	if p == nil {
		return ""
	}
	if why := p.CheckDomains(u); why != "" {
		return why
	}
	if e.up == nil || p.AllowPrivateNetwork || p.Named(u) {
		return ""
	}
	private, err := e.cfg.Limits.Private(ctx, u.Hostname())
	switch {
	case err != nil:
		return fmt.Sprintf("the address of %s could not be resolved (%v)", u.Hostname(), err)
	case private:
		return privateWhy(u.Hostname())
	}
	return ""
}

// guarded reports whether the private network guard applies to addr
// (host:port): not when the user named it, with or without its port and
// scheme (--allowed-domains 127.0.0.1:8080).
func (e *Proxy) guarded(addr string) bool {
	p := e.policy()
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

func privateWhy(host string) string {
	return fmt.Sprintf("%s is on a private network (loopback, LAN, link-local or metadata address) and was not named by the user", host)
}

// dialDirect connects to a site, refusing a private address the guard
// keeps the agent from (errPrivate).
func (e *Proxy) dialDirect(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: dialBudget}
	if e.guarded(addr) {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || PrivateAddr(ap.Addr()) {
				return errPrivate
			}
			return nil
		}
	}
	c, err := d.DialContext(ctx, network, localhostAddr(addr))
	if err != nil && !errors.Is(err, errPrivate) {
		e.fail(addr, err)
	}
	return c, err
}

// localhostAddr maps a name under localhost (app.localhost:8080) to
// loopback, as RFC 6761 (6.3) and Chromium without a proxy have it: such a
// name is a secure context of its own, a WebAuthn rp id among others, that
// the system's resolver may not know.
func localhostAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if h := strings.TrimSuffix(strings.ToLower(host), "."); strings.HasSuffix(h, ".localhost") {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
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

// quiet reports whether host:port is under .invalid (RFC 6761), where
// nothing is and where Chromium's own account calls are sent.
func quiet(hostport string) bool {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	return h == "invalid" || strings.HasSuffix(h, ".invalid")
}
