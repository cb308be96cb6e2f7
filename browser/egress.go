package browser

import (
	"fmt"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/internal/egress"
)

// The egress: every byte a page sends leaves Chromium through the Browser's
// own forward proxy on loopback (package internal/egress), which holds each
// request to the user's limits (the domain lists and the private network
// guard of Confine). Documents are also checked earlier, by the
// interceptor, which can say why to goto; the egress covers what the
// interceptor does not see: subresources, fetch and XHR, WebSocket and
// EventSource handshakes, beacons, workers of every kind, prefetch and
// preconnect. Chromium sends it every host name unresolved (no DNS of its
// own), and WebRTC may use no UDP the proxy does not carry
// (--webrtc-ip-handling-policy), so a page reaches no host outside the
// limits by any path.
//
// What the egress refused is told to the model with the next outcome or
// snapshot (refusedSummary); Chromium's own calls to its services are
// refused too but not told, unless a page asked for their host: the
// interceptor pauses such requests and claims them (claimPatterns).

// egressProxy is what the Browser needs of its egress.
type egressProxy interface {
	// URL is the proxy's address, for Chromium.
	URL() string
	// Summary says what was refused since it was last asked, "" if nothing.
	Summary() string
	// Explain names the network error behind a document that did not
	// load through the proxy, "" if it knows of none.
	Explain(rawURL, errText string) string
	// Claim says that a page asked for rawURL.
	Claim(rawURL string)
	// Close stops the proxy and ends its tunnels.
	Close()
}

// startEgress starts the Browser's egress, holding requests to the
// Browser's guard and going out through Options.Proxy.
func startEgress(b *Browser) (egressProxy, error) {
	cfg := egress.Config{
		Guard:  &b.guard,
		Logger: b.log,
	}
	if b.opts.proxy.Server != "" {
		p := b.opts.proxy
		cfg.Upstream = &egress.Upstream{Server: p.Server, Username: p.Username, Password: p.Password}
	}
	if b.opts.RecordActivity {
		cfg.OnRefuse = func(r egress.Refusal) {
			b.activity.addRefused(contract.NetEntry{
				Method: r.Method, URL: r.URL, Start: r.Time.UnixMilli(),
				Error: "refused by webagent: " + r.Why,
			})
		}
	}
	e, err := egress.Start(cfg)
	if err != nil {
		return nil, fmt.Errorf("browser: starting the egress proxy: %w", err)
	}
	return e, nil
}

// refusedSummary says what the egress refused of the pages' requests
// since it was last asked; "" when nothing, or when there is no egress.
func (b *Browser) refusedSummary() string {
	if b.egress == nil {
		return ""
	}
	return b.egress.Summary()
}

// explainFailure names the network error behind a document that did not
// load through the egress, "" when the egress knows of none.
func (b *Browser) explainFailure(rawURL, errText string) string {
	if b.egress == nil {
		return ""
	}
	return b.egress.Explain(rawURL, errText)
}

// claim tells the egress that a page asked for rawURL.
func (b *Browser) claim(rawURL string) {
	if b.egress != nil {
		b.egress.Claim(rawURL)
	}
}

// claimPatterns are the Fetch patterns of the requests the interceptor
// pauses to claim them: a page's requests to the hosts of Chromium's own
// services (egress.OwnHosts), at any port.
func claimPatterns() []string {
	var out []string
	for _, h := range egress.OwnHosts() {
		out = append(out, "*://"+h+"/*", "*://"+h+":*")
	}
	return out
}
