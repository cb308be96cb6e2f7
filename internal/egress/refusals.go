package egress

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"
)

// What the egress refused and why it failed: the refusals the model is
// told of (Summary) and the failures behind a document Chromium could not
// load (Explain).

// Bounds of what the egress keeps.
const (
	maxRefusalHosts = 5  // hosts named in one summary
	maxFailures     = 64 // failures kept for Explain
)

// Refusal is one request of a page's that the egress refused.
type Refusal struct {
	Method string
	// URL is the request's; a tunnel's is scheme://host:port.
	URL string
	// Why is the reason, in the words the model reads.
	Why  string
	Time time.Time
}

// refuse answers a request the limits refuse and accounts for it: a page's
// is counted for Summary and told to OnRefuse; Chromium's own (Own, not
// Claimed) is only logged.
func (e *Proxy) refuse(w http.ResponseWriter, method, u, why string) {
	// Counted before Chromium hears of it: a Summary taken once the page
	// has seen the refusal includes it.
	defer http.Error(w, "refused by webagent: "+why, http.StatusForbidden)
	host, hostname := u, u
	if pu, err := url.Parse(u); err == nil && pu.Host != "" {
		host, hostname = pu.Host, pu.Hostname()
	}
	if e.chromiums(hostname) {
		e.log.Debug("a request of Chromium's own refused", "method", method, "url", short(u), "why", why)
		return
	}
	e.mu.Lock()
	if e.refused[host] == 0 {
		e.order = append(e.order, host)
	}
	e.refused[host]++
	e.mu.Unlock()
	e.log.Debug("request refused", "method", method, "url", short(u), "why", why)
	if e.cfg.OnRefuse != nil {
		e.cfg.OnRefuse(Refusal{Method: method, URL: u, Why: why, Time: time.Now()})
	}
}

// Summary says, in one line, how many of the pages' requests were refused
// since the last Summary and to which hosts; "" when none.
func (e *Proxy) Summary() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.order) == 0 {
		return ""
	}
	total := 0
	for _, n := range e.refused {
		total += n
	}
	hosts := slices.Clone(e.order)
	parts := make([]string, 0, maxRefusalHosts+1)
	for i, h := range hosts {
		if i == maxRefusalHosts {
			parts = append(parts, fmt.Sprintf("%d more hosts", len(hosts)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", h, e.refused[h]))
	}
	clear(e.refused)
	e.order = e.order[:0]
	what := fmt.Sprintf("%d requests to hosts outside your limits were", total)
	if total == 1 {
		what = "1 request to a host outside your limits was"
	}
	return fmt.Sprintf("%s refused: %s", what, strings.Join(parts, ", "))
}

// short keeps a URL readable in a log line.
func short(u string) string {
	const max = 200
	if len(u) <= max {
		return u
	}
	return u[:max] + "…"
}

// fail notes why a connection to addr failed.
func (e *Proxy) fail(addr string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.failed) >= maxFailures {
		clear(e.failed)
	}
	e.failed[addr] = netErrorName(err)
}

// Explain turns Chromium's account of a document that came through the
// egress unloaded (the tunnel failed, the proxy's answer was an error) into
// the network error behind it, as Chromium would name it without a proxy;
// "" when the egress knows of none.
func (e *Proxy) Explain(rawURL, errText string) string {
	if !strings.Contains(errText, "ERR_TUNNEL_CONNECTION_FAILED") && !strings.Contains(errText, "ERR_HTTP_RESPONSE_CODE_FAILURE") {
		return ""
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	addr := net.JoinHostPort(u.Hostname(), effectivePort(u))
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.failed[addr]
}

// netErrorName names a dial error the way Chromium names its own.
func netErrorName(err error) string {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return "net::ERR_NAME_NOT_RESOLVED"
	case errors.As(err, &dns):
		return "net::ERR_NAME_RESOLUTION_FAILED"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "net::ERR_CONNECTION_REFUSED"
	case errors.Is(err, syscall.ECONNRESET):
		return "net::ERR_CONNECTION_RESET"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "net::ERR_ADDRESS_UNREACHABLE"
	case errors.As(err, &ne) && ne.Timeout():
		return "net::ERR_CONNECTION_TIMED_OUT"
	}
	return "net::ERR_CONNECTION_FAILED"
}

// effectivePort is u's port, or its scheme's.
func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "ws") {
		return "80"
	}
	return "443"
}
