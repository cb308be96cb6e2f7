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

// consentJS finds a consent banner and answers it through its platform's
// API, or finds the button to click. It runs in the page's own world,
// where the platforms' APIs are (OneTrust.RejectAll()): a page can see
// that, as it sees a person's click, so it runs only when the user asked
// for banners to be answered (Options.Consent), and it leaves nothing
// behind in the page.
var consentJS = program("consent")

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
	// handle is the page's answer object, whose button is the one to
	// click.
	handle runtime.RemoteObjectID
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
	r, err := o.evalMain(runtime.EvaluateParams{
		Expression:   jsCall(consentJS, mode, wait.Milliseconds()),
		AwaitPromise: new(true),
		ObjectGroup:  o.objectGroup(),
	})
	var res consentResult
	if err == nil {
		err = o.callOn(r.ObjectID, `function () { return {platform: this.platform, outcome: this.outcome, label: this.label}; }`, &res)
		res.handle = r.ObjectID
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
		if err := o.clickConsent(res.handle); err != nil {
			return fmt.Sprintf("%s: clicking %s failed (%v)%s", unanswered, strconv.Quote(res.Label), err, decide)
		}
		return fmt.Sprintf("cookie consent: %s (%s, clicked %s)", done, res.Platform, strconv.Quote(res.Label))
	}
	return fmt.Sprintf("%s: it has no button to %s%s", unanswered, mode, decide)
}

// clickConsent clicks the button consentJS found (its answer is handle),
// as a click action would, from webagent's world.
func (o *op) clickConsent(handle runtime.RemoteObjectID) error {
	r, err := o.callObjIn(nil, handle, `function () { const b = this.button; return b && b.isConnected ? b : null; }`)
	if err != nil {
		return fmt.Errorf("finding the banner's button: %w", err)
	}
	if r.ObjectID == "" {
		return fmt.Errorf("the banner's button went away")
	}
	id, err := o.inWorld(r.ObjectID)
	if err != nil {
		return fmt.Errorf("finding the banner's button: %w", err)
	}
	el := element{id: id}
	if err := o.callEl(el, describeJS, &el.desc); err != nil {
		return fmt.Errorf("describing the banner's button: %w", err)
	}
	if _, err := o.clickElement(el, "click on"); err != nil {
		return fmt.Errorf("clicking the banner's button: %w", err)
	}
	return nil
}
