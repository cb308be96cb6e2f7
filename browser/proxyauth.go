package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
)

// answerAuth answers an authentication challenge: the proxy's with the
// credentials of Options.Proxy, any other (a site's) as the browser would
// without them. The credentials go only to Chromium, never to a log.
func (in *interceptor) answerAuth(e *fetch.EventAuthRequired) {
	ctx, cancel := context.WithTimeout(context.Background(), interceptBudget)
	defer cancel()
	stop := context.AfterFunc(in.s.lost, cancel)
	defer stop()
	resp := &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseDefault}
	p := in.b.opts.proxy
	if e.AuthChallenge != nil && e.AuthChallenge.Source == fetch.AuthChallengeSourceProxy && p.Username != "" {
		resp = &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseProvideCredentials, Username: p.Username, Password: p.Password}
	}
	if _, err := cdp.Call(ctx, in.s.browser, fetch.ContinueWithAuth, fetch.ContinueWithAuthParams{RequestID: e.RequestID, AuthChallengeResponse: resp}); err != nil && ctx.Err() == nil {
		in.b.log.Debug("answering an authentication challenge", "error", err)
	}
}
