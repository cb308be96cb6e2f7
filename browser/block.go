package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
)

// loopbackPatterns lets requests to the loopback hosts through and blocks
// every other http(s) and ws(s) request. Patterns use the URLPattern syntax
// and the first match decides. Other schemes (data:, blob:, about:) are not
// network requests and are never blocked.
var loopbackPatterns = []*network.BlockPattern{
	{URLPattern: "*://127.0.0.1:*/*", Block: false},
	{URLPattern: "*://localhost:*/*", Block: false},
	{URLPattern: `*://[\:\:1]:*/*`, Block: false},
	{URLPattern: "http://*:*/*", Block: true},
	{URLPattern: "https://*:*/*", Block: true},
	{URLPattern: "ws://*:*/*", Block: true},
	{URLPattern: "wss://*:*/*", Block: true},
}

// blockNonLoopback makes the target refuse every request whose host is not
// loopback (127.0.0.1, localhost, [::1]); such requests fail at once with
// net::ERR_BLOCKED_BY_CLIENT. It is used to benchmark saved pages that name
// remote scripts, styles and images on a machine without network, so that
// timings measure the agent and not failed fetches.
func blockNonLoopback(ctx context.Context, t cdp.Session) error {
	_, err := cdp.Call(ctx, t, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: loopbackPatterns})
	return err
}
