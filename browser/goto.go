package browser

import (
	"cmp"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/webagent/webagent/contract"
)

// The goto action, and the description of a page after a navigation.

// doGoto opens a.URL in the current tab, if the navigation policy lets it.
func (o *op) doGoto(a contract.Action) (string, error) {
	raw := a.URL
	b := o.b
	if err := o.checkLinkOrigin(a); err != nil {
		return "", err
	}
	u, err := normalizeURL(raw)
	if err != nil {
		return "", err
	}
	if why := b.guard.Check(o.ctx, u, true); why != "" {
		return "", contract.ActionErrorf("goto %s was refused: %s", shortURL(u), why)
	}
	return o.navigate(u)
}

// navigate loads u in the tab and waits for the new document to be ready,
// and briefly for its load event.
func (o *op) navigate(u string) (string, error) {
	b := o.b
	s0 := b.nav.state()
	res, err := cdp.Call(o.ctx, b.target, page.Navigate, page.NavigateParams{URL: u})
	refusal := ""
	if err == nil && blockedByGuard(res.ErrorText) {
		refusal = b.refused.take()
	}
	switch {
	case err != nil && o.ctx.Err() != nil:
		o.stopLoading = true
		return "", err
	case err != nil && isProtocolError(err):
		return "", contract.ActionErrorf("cannot open %s: %v", u, err)
	case err != nil:
		return "", err
	case res.IsDownload:
		return fmt.Sprintf("%s is a file download: it is saved in the download folder and reported when complete", u), nil
	case refusal != "":
		return "", contract.ActionErrorf("could not load %s: %s", shortURL(u), refusal)
	case res.ErrorText != "":
		return "", contract.ActionErrorf("could not load %s: %s", u, cmp.Or(b.explainFailure(u, res.ErrorText), res.ErrorText))
	}
	if res.LoaderID != "" {
		// Wait to see the navigation start, then for its document.
		if _, err := b.nav.wait(o.ctx, 0, func(s navState) bool { return s.started > s0.started }); err != nil {
			o.stopLoading = true
			return "", err
		}
	}
	if err := b.nav.settle(o.ctx); err != nil {
		o.stopLoading = true
		return "", err
	}
	return o.navigated()
}

// normalizeURL checks a URL from the model; one without a scheme gets
// https://.
func normalizeURL(raw string) (string, error) {
	u := strings.TrimSpace(raw) // not empty (Validate)
	lower := strings.ToLower(u)
	if !strings.Contains(lower, "://") {
		known := false
		for _, p := range []string{"about:", "data:", "javascript:", "blob:", "chrome:"} {
			known = known || strings.HasPrefix(lower, p)
		}
		if !known {
			u = "https://" + u
		}
	}
	if _, err := url.Parse(u); err != nil {
		return "", contract.ActionErrorf("%q is not a valid URL: %v", raw, err)
	}
	return u, nil
}

// navigated describes the page after a navigation, and says so when its
// document is still being parsed (see Options.LoadTimeout).
func (o *op) navigated() (string, error) {
	b := o.b
	loading := ""
	if s := b.nav.state(); s.parseLapsed() {
		loading = fmt.Sprintf("; the page is still loading after %s: what has arrived so far is shown, and more may come", s.loadGrace)
	}
	var v [2]string
	if err := o.evalValue("[location.href, document.title]", &v); err != nil {
		if o.ctx.Err() != nil {
			return "", err
		}
		return "navigated to " + b.nav.state().url + loading, nil
	}
	return fmt.Sprintf("navigated to %s (%s)%s", v[0], strconv.Quote(v[1]), loading), nil
}
