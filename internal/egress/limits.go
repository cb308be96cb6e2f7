package egress

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// The proxy's side of the guard: what the Guard lets through, checked on
// the request's URL and then on the address dialled.

// allow says why the guard refuses a request to u, "" when it lets it
// through. The private network guard is left to the dialler, which sees
// the address; through the user's proxy, which resolves names itself, it
// is checked here by resolving the name.
func (e *Proxy) allow(ctx context.Context, u *url.URL) string {
	if e.cfg.Guard == nil {
		return ""
	}
	return e.cfg.Guard.place(ctx, u, e.up != nil)
}

// dialDirect connects to a site, refusing a private address the guard
// keeps the agent from (errPrivate).
func (e *Proxy) dialDirect(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: dialBudget}
	if e.cfg.Guard != nil && e.cfg.Guard.guarded(addr) {
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
