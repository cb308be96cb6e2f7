package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/target"
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

// addLoader marks a storage-state tab, whose documents are answered with
// an empty page.
func (in *interceptor) addLoader(id target.ID) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.loaders == nil {
		in.loaders = map[target.ID]bool{}
	}
	in.loaders[id] = true
}

func (in *interceptor) dropLoader(id target.ID) {
	in.mu.Lock()
	defer in.mu.Unlock()
	delete(in.loaders, id)
}

func (in *interceptor) isLoader(id target.ID) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.loaders[id]
}

// fulfilEmpty answers a loader's request with an empty page of its origin.
func (in *interceptor) fulfilEmpty(ctx context.Context, e *fetch.EventRequestPaused) {
	_, err := cdp.Call(ctx, in.s.browser, fetch.FulfillRequest, fetch.FulfillRequestParams{
		RequestID: e.RequestID, ResponseCode: 200,
		ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/html"}},
		Body:            []byte("<!doctype html><title></title>"),
	})
	if err != nil && ctx.Err() == nil {
		in.b.log.Debug("answering the storage tab", "error", err)
	}
}
