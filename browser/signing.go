package browser

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"

	"github.com/webagent/webagent/botauth"
)

// RequestSigner makes the headers that sign a request to an authority
// (host, and port unless the scheme's default): what Options.Signer needs.
// *botauth.Signer is one.
type RequestSigner interface {
	Sign(authority string) (http.Header, error)
}

// signedHeaders are the headers a signer sets; a page's own values of
// them are dropped from a request the Browser signs.
var signedHeaders = map[string]bool{"signature": true, "signature-input": true, "signature-agent": true}

// signs says whether the Browser signs a request to rawURL: a signer is
// set, the URL is http(s), and its site is one of SignDomains (or
// SignDomains is empty). A WebSocket's handshake never reaches the Fetch
// interception, so it is not signed.
func (b *Browser) signs(rawURL string) (*url.URL, bool) {
	if b.opts.Signer == nil {
		return nil, false
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, false
	}
	switch u.Scheme {
	case "http", "https":
	default:
		return nil, false
	}
	if len(b.opts.SignDomains) == 0 {
		return u, true
	}
	for _, p := range b.opts.SignDomains {
		if p.Match(u) {
			return u, true
		}
	}
	return nil, false
}

// signRequest is the header list a paused request goes on with when the
// Browser signs it: its own headers, less any of the signer's names, and
// the signature; nil when it is not signed (or signing failed, logged:
// the request then goes on unsigned rather than not at all).
func (b *Browser) signRequest(req *network.Request) []*fetch.HeaderEntry {
	u, ok := b.signs(req.URL)
	if !ok {
		return nil
	}
	sig, err := b.opts.Signer.Sign(botauth.Authority(u))
	if err != nil {
		b.log.Warn("signing a request", "url", shortURL(req.URL), "error", err)
		return nil
	}
	out := make([]*fetch.HeaderEntry, 0, len(req.Headers)+len(sig))
	for name, v := range req.Headers {
		if signedHeaders[strings.ToLower(name)] {
			continue
		}
		if s, ok := v.(string); ok {
			out = append(out, &fetch.HeaderEntry{Name: name, Value: s})
		}
	}
	for name, vs := range sig {
		for _, v := range vs {
			out = append(out, &fetch.HeaderEntry{Name: name, Value: v})
		}
	}
	return out
}
