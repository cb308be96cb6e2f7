package contract

import (
	"fmt"
	"net/url"
	"strings"
)

// NavigationPolicy says where the browser may go. The loop hands it to a
// browser that implements Confiner at the start of every run; the browser
// enforces it on every navigation: goto, links, redirects, popups, frames.
// Only http and https pages are ever opened (and about:blank), whatever the
// policy says.
type NavigationPolicy struct {
	// Allowed, when not empty, is the only places pages may be opened from
	// (DomainPattern syntax). Blocked places are refused even when allowed.
	Allowed []DomainPattern `json:"allowed,omitempty"`
	Blocked []DomainPattern `json:"blocked,omitempty"`
	// AllowPrivateNetwork lifts the private network guard: without it,
	// hosts whose addresses are loopback, private, link-local (the cloud
	// metadata address 169.254.169.254) or unspecified are refused unless
	// the user named them (Trusted, or an Allowed pattern).
	AllowPrivateNetwork bool `json:"allow_private_network,omitempty"`
	// Trusted are the hosts the user named: the start URL's host.
	Trusted []string `json:"trusted,omitempty"`
}

// DomainPattern is one entry of an allowed or blocked list:
//
//	example.com            the host example.com, any scheme and port
//	*.example.com          example.com and every subdomain of it
//	http://localhost:3000  that scheme, host and port only
//	localhost:3000         that host and port, any scheme
type DomainPattern struct {
	Scheme string // "" matches http and https
	Host   string // lower case, without the "*." of a wildcard
	Sub    bool   // subdomains match too (*.)
	Port   string // "" matches any port
}

// String gives the pattern as written.
func (p DomainPattern) String() string {
	s := p.Host
	if p.Sub {
		s = "*." + s
	}
	if p.Port != "" {
		s += ":" + p.Port
	}
	if p.Scheme != "" {
		s = p.Scheme + "://" + s
	}
	return s
}

// MarshalText writes the pattern as written, so that a NavigationPolicy
// travels as JSON (a fleet's task) in the syntax people write.
func (p DomainPattern) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a pattern as ParseDomainPattern does.
func (p *DomainPattern) UnmarshalText(b []byte) error {
	q, err := ParseDomainPattern(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ParseDomainPattern reads one pattern; the error says what is wrong.
func ParseDomainPattern(s string) (DomainPattern, error) {
	raw := strings.TrimSpace(s)
	if raw == "" {
		return DomainPattern{}, fmt.Errorf("empty domain pattern")
	}
	var p DomainPattern
	rest := strings.ToLower(raw)
	if scheme, after, ok := strings.Cut(rest, "://"); ok {
		if scheme != "http" && scheme != "https" {
			return DomainPattern{}, fmt.Errorf("domain pattern %q: the scheme must be http or https", raw)
		}
		p.Scheme, rest = scheme, after
	}
	rest = strings.TrimSuffix(rest, "/")
	if strings.ContainsAny(rest, "/?#@") {
		return DomainPattern{}, fmt.Errorf("domain pattern %q: give a host (example.com, *.example.com, http://localhost:3000), not a path", raw)
	}
	u, err := url.Parse("http://" + rest)
	if err != nil || u.Hostname() == "" {
		return DomainPattern{}, fmt.Errorf("domain pattern %q is not a host (example.com, *.example.com, http://localhost:3000)", raw)
	}
	p.Host, p.Port = u.Hostname(), u.Port()
	if h, ok := strings.CutPrefix(p.Host, "*."); ok {
		p.Host, p.Sub = h, true
	}
	if strings.Contains(p.Host, "*") || p.Host == "" {
		return DomainPattern{}, fmt.Errorf("domain pattern %q: a wildcard may only start the host, as in *.example.com", raw)
	}
	return p, nil
}

// ParseDomainPatterns reads comma-separated lists of patterns.
func ParseDomainPatterns(lists ...string) ([]DomainPattern, error) {
	var out []DomainPattern
	for _, l := range lists {
		for f := range strings.SplitSeq(l, ",") {
			if strings.TrimSpace(f) == "" {
				continue
			}
			p, err := ParseDomainPattern(f)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// Match reports whether the URL's place matches the pattern.
func (p DomainPattern) Match(u *url.URL) bool {
	scheme := strings.ToLower(u.Scheme)
	if p.Scheme != "" && scheme != p.Scheme {
		return false
	}
	if p.Port != "" && effectivePort(u) != p.Port {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	return host == p.Host || (p.Sub && strings.HasSuffix(host, "."+p.Host))
}

func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// CheckDomains says why the policy refuses the URL's place, "" when the
// domain lists allow it. The private network guard is the browser's.
func (p NavigationPolicy) CheckDomains(u *url.URL) string {
	for _, b := range p.Blocked {
		if b.Match(u) {
			return fmt.Sprintf("%s is blocked (--blocked-domains %s)", u.Host, b)
		}
	}
	if len(p.Allowed) == 0 {
		return ""
	}
	for _, a := range p.Allowed {
		if a.Match(u) {
			return ""
		}
	}
	names := make([]string, len(p.Allowed))
	for i, a := range p.Allowed {
		names[i] = a.String()
	}
	return fmt.Sprintf("%s is not in the allowed domains (%s)", u.Host, strings.Join(names, ", "))
}

// Named reports whether the user named the URL's host: it is trusted, or an
// allowed pattern matches it.
func (p NavigationPolicy) Named(u *url.URL) bool {
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	for _, t := range p.Trusted {
		if strings.EqualFold(t, host) {
			return true
		}
	}
	for _, a := range p.Allowed {
		if a.Match(u) {
			return true
		}
	}
	return false
}
