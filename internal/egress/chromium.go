package egress

import (
	"net/url"
	"slices"
	"strings"
)

// Chromium's own calls. Chromium asks Google's servers for things of its
// own accord, whatever its switches say (the component updater fetches the
// optimization guide's model manifest on demand, despite
// --disable-component-update), and those requests leave through the
// egress like a page's. The limits refuse them like any other, but the
// model must not be told that its page reached for a host it never named.
//
// A request carries no mark of who made it: a CONNECT from Chromium's own
// network context and one from a page's are the same bytes. So the egress
// knows the hosts of Chromium's services (OwnHosts), and a refusal of one
// of them is silent unless a page is known to have asked for that host:
// package browser pauses a page's requests to those hosts in Chromium's
// Fetch domain, which never sees Chromium's own, and says so (Claim)
// before letting them go on. A page's request to any other host is
// counted as before.

// ownHosts are the hosts of the Google services Chromium calls by itself:
// a name, or *suffix for any name that ends with suffix.
var ownHosts = []string{
	"update.googleapis.com",               // the component updater, and its on-demand updates
	"*.gvt1.com",                          // component and extension downloads
	"dl.google.com",                       // component downloads
	"clients2.google.com",                 // extension updates
	"clients2.googleusercontent.com",      // extension downloads
	"clientservices.googleapis.com",       // the field trials' seed (variations)
	"safebrowsing.googleapis.com",         // Safe Browsing
	"sb-ssl.google.com",                   // Safe Browsing's older API
	"optimizationguide-pa.googleapis.com", // the optimization guide's hints and models
	"content-autofill.googleapis.com",     // autofill's server predictions
	"*.gvt2.com",                          // network error reports (domain reliability)
	"android.clients.google.com",          // push messaging's check-in
	"mtalk.google.com",                    // push messaging
	"accounts.google.com",                 // the account service, should gaia-url not hold
}

// OwnHosts returns the hosts of the Google services Chromium calls by
// itself: a name, or *suffix for any name that ends with suffix (*.gvt1.com).
func OwnHosts() []string { return slices.Clone(ownHosts) }

// Own reports whether host (a name, without port) is one of OwnHosts.
func Own(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, h := range ownHosts {
		if suffix, ok := strings.CutPrefix(h, "*"); ok {
			if len(host) > len(suffix) && strings.HasSuffix(host, suffix) {
				return true
			}
		} else if host == h {
			return true
		}
	}
	return false
}

// maxClaims bounds the hosts Claim keeps.
const maxClaims = 256

// Claim says that a page asked for rawURL. When its host is one of
// OwnHosts, refusals of that host are the page's from now on and are
// counted; Claim does nothing for other hosts, whose refusals always are.
func (e *Proxy) Claim(rawURL string) {
	u, err := url.Parse(rawURL)
	if err != nil || !Own(u.Hostname()) {
		return
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.claimed) >= maxClaims {
		clear(e.claimed)
	}
	e.claimed[host] = true
}

// chromiums reports whether a refused request to host is taken to be
// Chromium's own: a host of its services that no page asked for.
func (e *Proxy) chromiums(host string) bool {
	if !Own(host) {
		return false
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	e.mu.Lock()
	defer e.mu.Unlock()
	return !e.claimed[host]
}
