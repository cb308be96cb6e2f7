package browser

import (
	"fmt"
	"strconv"
	"time"

	"github.com/chromedp/cdproto/runtime"
)

// Cookie consent: with Options.Consent set, the browser answers a page's
// cookie-consent banner before the page's first snapshot shows it (the
// common platforms through their own API, a site's own cookie dialog with
// a trusted click on its reject or accept button) and tells the model in
// a notice. Without it, the banner is left to the model.

// The values of Options.Consent.
const (
	ConsentReject = "reject"
	ConsentAccept = "accept"
)

// consentWait bounds how long a snapshot waits, once per document, for a
// consent platform the page loads to show its banner, and then for the
// answered banner to go. It never fails: a page whose platform is slower
// is snapshotted with its banner, which the next snapshot answers.
const consentWait = 2 * time.Second

// consentJS finds a consent banner and answers it, or keeps the button to
// click for consentButtonJS.
var consentJS = program("consent")

// consentButtonJS returns the button consentJS kept.
var consentButtonJS = program("consentButton")

// CheckConsent checks a value of Options.Consent: "", "reject" or
// "accept".
func CheckConsent(s string) error {
	switch s {
	case "", ConsentReject, ConsentAccept:
		return nil
	}
	return fmt.Errorf("consent %q is neither reject nor accept; give reject to refuse cookie banners, accept to accept them, or leave it out to let the model decide", s)
}

// consentState is what the browser knows of the current document's
// banner; guarded by the Browser's sem.
type consentState struct {
	loader string // the document it is about
	waited bool   // the wait for a platform was spent
	done   bool   // the banner was answered, or reported unanswerable
}

// consentResult is what consentJS found and did.
type consentResult struct {
	Platform string `json:"platform"`
	Outcome  string `json:"outcome"` // none, api, click, shown or failed
	Label    string `json:"label"`
}

// answerConsent answers the current document's consent banner, once per
// document, when Options.Consent asks for it, and adds a notice that says
// what was done. A page where this fails is snapshotted as it is.
func (o *op) answerConsent() {
	b := o.b
	mode := b.opts.Consent
	if mode == "" {
		return
	}
	c := &b.consent
	if l := string(b.nav.state().loader); l != c.loader {
		*c = consentState{loader: l}
	}
	if c.done {
		return
	}
	wait := consentWait
	if c.waited {
		wait = 0
	}
	c.waited = true
	r, err := o.eval(runtime.EvaluateParams{
		Expression:    jsCall(consentJS, mode, wait.Milliseconds()),
		AwaitPromise:  new(true),
		ReturnByValue: new(true),
	})
	var res consentResult
	if err == nil {
		err = decodeValue(r, &res)
	}
	if err != nil {
		b.log.Debug("answering the cookie banner", "error", err)
		return
	}
	if res.Outcome == "none" {
		return
	}
	c.done = true
	b.log.Debug("cookie banner", "platform", res.Platform, "outcome", res.Outcome, "label", res.Label)
	b.notices.add(o.consentNotice(mode, res))
}

// consentNotice carries out what consentJS left to do (a click) and says
// what became of the banner.
func (o *op) consentNotice(mode string, res consentResult) string {
	done := "rejected"
	if mode == ConsentAccept {
		done = "accepted"
	}
	unanswered := fmt.Sprintf("cookie consent: a cookie banner (%s) shows, but it could not be %s", res.Platform, done)
	const decide = "; it is in the snapshot: answer it yourself if it is in the way"
	switch res.Outcome {
	case "api":
		return fmt.Sprintf("cookie consent: %s (%s)", done, res.Platform)
	case "shown":
		return fmt.Sprintf("%s: %s was called, yet the banner still shows%s", unanswered, res.Label, decide)
	case "click":
		if err := o.clickConsent(); err != nil {
			return fmt.Sprintf("%s: clicking %s failed (%v)%s", unanswered, strconv.Quote(res.Label), err, decide)
		}
		return fmt.Sprintf("cookie consent: %s (%s, clicked %s)", done, res.Platform, strconv.Quote(res.Label))
	}
	return fmt.Sprintf("%s: it has no button to %s%s", unanswered, mode, decide)
}

// clickConsent clicks the button consentJS kept, as a click action would.
func (o *op) clickConsent() error {
	r, err := o.eval(runtime.EvaluateParams{Expression: jsCall(consentButtonJS), ObjectGroup: o.objectGroup()})
	if err != nil {
		return fmt.Errorf("finding the banner's button: %w", err)
	}
	if r.ObjectID == "" {
		return fmt.Errorf("the banner's button went away")
	}
	el := element{id: r.ObjectID}
	if err := o.callEl(el, describeJS, &el.desc); err != nil {
		return fmt.Errorf("describing the banner's button: %w", err)
	}
	if _, err := o.clickElement(el, "click on"); err != nil {
		return fmt.Errorf("clicking the banner's button: %w", err)
	}
	return nil
}
